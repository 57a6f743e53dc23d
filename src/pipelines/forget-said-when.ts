import type { Message } from '../domain/conversation.js';
import type { ForgetRequest } from '../extraction/forget-request.js';
import { saidWindow, type SaidWhen } from '../extraction/forget-when.js';
import type { ModelDeps } from './deps.js';
import type { ForgottenOnRequest } from './forget-asked.js';
import { resolveSettings } from './settings.js';

/**
 * Forgets what the user said at a time they name ("forget everything I told you yesterday", "忘掉我
 * 昨天说的话"), in their time zone: every message of theirs from then, in any session, the assistant's
 * replies among them (they retell it), and the memories drawn from those messages alone, deleted
 * restorably as a topic asked in conversation is (`forgetAsked`); a memory another message also
 * supports stays, and so does one added by hand. The asking message goes too. The profile is not
 * rewritten: what it took from that day stays there until the page or `forgetTopic` removes it.
 */
export async function forgetSaidWhen(deps: ModelDeps, message: Message, request: ForgetRequest & { when: SaidWhen }): Promise<ForgottenOnRequest> {
  const userId = message.userId;
  const { timeZone } = await resolveSettings(deps.store, userId);
  const { from, to } = saidWindow(request.when, message.createdAt, timeZone);
  const then = (await deps.store.listMessages({ userId })).filter((m) => m.createdAt.getTime() >= from.getTime() && m.createdAt.getTime() < to.getTime());
  const said = new Set([...then.map((m) => m.id), message.id]);
  const drawn = (await deps.store.listMemories({ userId, statuses: ['active', 'archived'] })).filter(
    (m) => m.provenance.messageIds.length > 0 && m.provenance.messageIds.every((id) => said.has(id)),
  );
  const at = deps.clock.now();
  const reason = `the user asked in conversation to forget what they said ${request.topic}`;
  for (const memory of drawn) await deps.store.updateMemory(userId, memory.id, { status: 'deleted', updatedAt: at }, undefined, { actor: 'user', reason, at });
  const messages = await deps.store.purgeMessages(userId, [...said]);
  deps.logger.info('forgot what the user said at a time they named', { userId, messageId: message.id, from: from.toISOString(), to: to.toISOString(), memories: drawn.length, messages });
  return { messageId: message.id, topic: request.topic, memories: drawn.length, messages };
}
