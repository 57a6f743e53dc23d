import type { Message } from '../domain/conversation.js';
import type { Memory } from '../domain/memory.js';
import type { ForgetRequest } from '../extraction/forget-request.js';
import { saidWindow, type SaidWhen } from '../extraction/forget-when.js';
import type { ModelDeps } from './deps.js';
import type { ForgottenOnRequest } from './forget-asked.js';
import { forgetTrash } from './forget-trash.js';
import { resolveSettings } from './settings.js';
import { updateProfile } from './update-profile.js';

/**
 * Forgets what the user said at a time they name ("forget everything I told you yesterday", "忘掉我
 * 昨天说的话"), in their time zone: every message of theirs from then, in any session, the assistant's
 * replies among them (they retell it), and the memories drawn from those messages alone, deleted
 * restorably as a topic asked in conversation is (`forgetAsked`), and the session summaries that
 * drew on any of them; a memory another message also supports (its sources, or a message that
 * reinforced it later) stays, and so does one added by hand. The asking message goes too, and the
 * profile is rewritten without what it took from those memories.
 */
export async function forgetSaidWhen(deps: ModelDeps, message: Message, request: ForgetRequest & { when: SaidWhen }): Promise<ForgottenOnRequest> {
  const userId = message.userId;
  const { timeZone } = await resolveSettings(deps.store, userId);
  const { from, to } = saidWindow(request.when, message.createdAt, timeZone);
  // Up to the request itself: a turn stamped at the same instant as the request (one call with both) was said then.
  const inWindow = (t: number): boolean => t >= from.getTime() && (t < to.getTime() || (to.getTime() === message.createdAt.getTime() && t <= to.getTime()));
  const then = (await deps.store.listMessages({ userId })).filter((m) => inWindow(m.createdAt.getTime()));
  const said = new Set([...then.map((m) => m.id), message.id]);
  const drawn: Memory[] = [];
  for (const m of await deps.store.listMemories({ userId, statuses: ['active', 'archived'] })) {
    if (m.provenance.messageIds.length === 0) continue;
    // A summary of a session that ran past the time retells it: it goes if it drew on any of it.
    const from = m.kind === 'episode' ? m.provenance.messageIds.some((id) => said.has(id)) : m.provenance.messageIds.every((id) => said.has(id));
    if (!from) continue;
    // Said again later (a reinforcement records its messages in the history, not the provenance): another message supports it.
    if (m.kind !== 'episode' && (await deps.store.history(userId, m.id)).some((e) => (e.messageIds ?? []).some((id) => !said.has(id)))) continue;
    drawn.push(m);
  }
  const at = deps.clock.now();
  const reason = `the user asked in conversation to forget what they said ${request.topic}`;
  const trash = forgetTrash(deps, message, `what they said ${request.topic}`);
  await trash.memories(drawn);
  for (const memory of drawn) await deps.store.updateMemory(userId, memory.id, { status: 'deleted', updatedAt: at }, undefined, { actor: 'user', reason, at });
  const messages = await trash.messages([...said]);
  if (drawn.length > 0 && (await deps.store.latestProfile(userId))) {
    const written = await withoutWhatWasSaid(deps, userId, drawn);
    await trash.profile(written === undefined ? [] : [written], []);
  }
  deps.logger.info('forgot what the user said at a time they named', { userId, messageId: message.id, from: from.toISOString(), to: to.toISOString(), memories: drawn.length, messages });
  return { messageId: message.id, topic: request.topic, memories: drawn.length, messages };
}

/**
 * The profile rewritten without the memories drawn from what was forgotten: the model is told them as
 * the topic to leave out; without one (or when it fails) the sentences that restate them go. Returns
 * the version written, if any.
 */
async function withoutWhatWasSaid(deps: ModelDeps, userId: string, drawn: readonly Memory[]): Promise<number | undefined> {
  const bare = (text: string): string => text.trim().replace(/[。.!！?？；;]+$/u, '');
  const contents = drawn.map((m) => bare(m.content)).filter((c) => c.length > 0);
  const rewritten = await updateProfile(deps, userId, {
    forgetTopic: contents.join('; ').slice(0, 1_000),
    forgetMatches: (text) => contents.some((c) => bare(text).includes(c)),
  });
  return rewritten.profile?.version;
}
