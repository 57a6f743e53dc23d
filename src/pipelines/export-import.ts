import { z } from 'zod';
import { Message, NewMessageInput } from '../domain/conversation.js';
import { HistoryEvent } from '../domain/history.js';
import { MAX_CONTENT_LENGTH, Memory, Provenance } from '../domain/memory.js';
import { Profile, Relation } from '../domain/profile.js';
import { Todo } from '../domain/todo.js';
import { ContentText } from '../domain/content-text.js';
import type { MemoryDeps } from './deps.js';

/** How far a session's messages were extracted and summarized, and whether it was ended. */
export const ExportedSession = z
  .object({
    id: z.string().min(1),
    processedSeq: z.number().int().min(-1),
    summarizedSeq: z.number().int().min(-1),
    endedAt: z.date().optional(),
  })
  .strict();
export type ExportedSession = z.infer<typeof ExportedSession>;

/**
 * The JSON export of one user's whole memory (dates travel as ISO strings; see reviveDates).
 * An import reads the file with this schema, so it is strict: an unknown key is refused, not
 * dropped (a misspelt field would vanish without a word), and each text keeps the limit of the
 * way it comes in otherwise: MAX_CONTENT_LENGTH for a memory and its todo, appendMessages' limit
 * for a message. The words of a memory and of a todo are held to ContentText, as when added (a
message keeps what was said). Every key an export writes is in it (src/pipelines/import-user.test.ts).
 */
export const UserExport = z
  .object({
    format: z.literal('engram-export'),
    version: z.literal(1),
    userId: z.string(),
    exportedAt: z.date(),
    memories: z.array(Memory.extend({ content: ContentText.pipe(Memory.shape.content.max(MAX_CONTENT_LENGTH)), provenance: Provenance.strict() }).strict()),
    history: z.array(HistoryEvent.strict()),
    relations: z.array(Relation.strict()),
    profiles: z.array(Profile.strict()),
    todos: z.array(Todo.extend({ content: ContentText.pipe(Todo.shape.content.max(MAX_CONTENT_LENGTH)) }).strict()),
    messages: z.array(Message.extend({ content: NewMessageInput.shape.content }).strict()),
    /**
     * Each session's watermarks, by the seqs of the file's messages: an import restores them, so
     * what was extracted (and summarized) before is not extracted again. Absent from files written
     * before they were exported: an import then takes every message as already processed.
     */
    sessions: z.array(ExportedSession).optional(),
    settings: z.record(z.string(), z.unknown()),
  })
  .strict();
export type UserExport = z.infer<typeof UserExport>;

/** The date fields of every exported record; their ISO strings become Dates again on import. */
const DATE_KEYS = new Set(['exportedAt', 'createdAt', 'updatedAt', 'lastAccessedAt', 'expiresAt', 'happenedAt', 'decayedAt', 'reviewedAt', 'at', 'dueAt', 'remindAt', 'completedAt', 'endedAt']);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

export function reviveDates(value: unknown, key = ''): unknown {
  if (typeof value === 'string' && DATE_KEYS.has(key) && ISO.test(value)) return new Date(value);
  if (Array.isArray(value)) return value.map((v) => reviveDates(v));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    // structuredData is the user's own JSON: left exactly as it was.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'structuredData' || k === 'before' || k === 'after' ? v : reviveDates(v, k)]));
  }
  return value;
}

/** Everything Engram keeps about one user, as one JSON-ready object. */
export async function exportUser(deps: MemoryDeps, userId: string): Promise<UserExport> {
  const { store } = deps;
  const messages = await store.listMessages({ userId });
  return {
    format: 'engram-export',
    version: 1,
    userId,
    exportedAt: deps.clock.now(),
    memories: await store.listMemories({ userId, statuses: ['active', 'archived', 'deleted'], order: 'asc' }),
    history: await store.historyOfUser(userId),
    relations: await store.relationsOfUser(userId),
    profiles: await store.profileVersions(userId),
    todos: await store.listTodos({ userId }),
    messages,
    sessions: await sessionsOf(store, userId, messages),
    settings: await store.getSettings(userId).then(async (all) => {
      const global = await store.getSettings('\u0000');
      return Object.fromEntries(Object.entries(all).filter(([k, v]) => JSON.stringify(global[k]) !== JSON.stringify(v)));
    }),
  };
}

/** The watermarks of the sessions the messages are in, in order of each session's first message. */
async function sessionsOf(store: MemoryDeps['store'], userId: string, messages: readonly Message[]): Promise<ExportedSession[]> {
  const out: ExportedSession[] = [];
  for (const id of new Set(messages.map((m) => m.sessionId))) {
    const s = await store.getSession(userId, id);
    if (!s) continue;
    out.push({ id, processedSeq: s.processedSeq, summarizedSeq: s.summarizedSeq, ...(s.endedAt ? { endedAt: s.endedAt } : {}) });
  }
  return out;
}
