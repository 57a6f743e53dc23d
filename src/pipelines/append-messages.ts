import { z } from 'zod';
import { NewMessageInput, type Message } from '../domain/conversation.js';
import { parseInput } from '../errors.js';
import type { MemoryDeps } from './deps.js';
import type { ForgottenOnRequest } from './forget-asked.js';
import { resolveSettings } from './settings.js';

export const AppendOptions = z.object({
  messages: z.array(NewMessageInput).min(1).max(1000),
  /** Raw messages expire after this many days (seed 003 Layer 1). @default the user's `retentionDays` setting */
  retentionDays: z.number().positive().optional(),
});
export type AppendOptions = z.input<typeof AppendOptions>;

export interface AppendResult {
  appended: Message[];
  /** Messages whose id was already stored. */
  skipped: number;
  /** Topics the user asked in these messages to be forgotten, and forgotten (`forgetAsked`). */
  forgotten?: ForgottenOnRequest[];
}

/**
 * Stores conversation messages, idempotent by message id. Embedding is best effort: when the
 * embedder fails the messages are still stored (nothing is lost) and reindex embeds them later.
 */
export async function appendMessages(deps: MemoryDeps, options: AppendOptions): Promise<AppendResult> {
  const o = parseInput(AppendOptions, options, 'messages');
  const now = deps.clock.now();
  let vectors: Array<Float32Array | null>;
  try {
    vectors = await deps.embedder.embed(o.messages.map((m) => m.content));
  } catch (error) {
    deps.logger.warn('message embedding failed; stored without vectors', { code: 'EMBEDDING_FAILED', error: String(error) });
    vectors = o.messages.map(() => null);
  }
  const bySession = new Map<string, Array<{ userId: string; index: number }>>();
  o.messages.forEach((m, index) => {
    const key = JSON.stringify([m.userId, m.sessionId]);
    bySession.set(key, [...(bySession.get(key) ?? []), { userId: m.userId, index }]);
  });
  const appended: Message[] = [];
  for (const [key, entries] of bySession) {
    const [userId, sessionId] = JSON.parse(key) as [string, string];
    const retentionDays = o.retentionDays ?? (await resolveSettings(deps.store, userId)).retentionDays;
    const stored = await deps.store.appendMessages(
      userId,
      sessionId,
      entries.map(({ index }) => {
        const m = o.messages[index]!;
        const createdAt = m.createdAt ?? now;
        return {
          id: m.id ?? deps.ids.next(),
          role: m.role,
          content: m.content,
          callerId: m.callerId,
          createdAt,
          expiresAt: new Date(createdAt.getTime() + retentionDays * 86_400_000),
          vector: vectors[index] ?? null,
          embedderId: deps.embedder.id,
        };
      }),
    );
    appended.push(...stored);
  }
  return { appended, skipped: o.messages.length - appended.length };
}
