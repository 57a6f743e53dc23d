import type { Message } from '../domain/conversation.js';
import { readForgetRequest, type ForgetRequest } from '../extraction/forget-request.js';
import type { ModelDeps } from './deps.js';
import { forgetTopic } from './forget.js';

/** A topic forgotten because the user asked for it in conversation. */
export interface ForgottenOnRequest {
  /** The user's message that asked; it is erased too. */
  messageId: string;
  topic: string;
  /** Memories and episodes deleted (restorable: status "deleted", with the request in their history). */
  memories: number;
  /** Raw messages erased, the request itself included. */
  messages: number;
}

/** What a stored message asks to be forgotten: only the user's own messages can ask. */
export function forgetAskedIn(message: Message): ForgetRequest | undefined {
  return message.role === 'user' ? readForgetRequest(message.content) : undefined;
}

/**
 * Forgets what a user's message asks to be forgotten ("忘掉我前女友的事", "forget what I told you
 * about my ex"), as `forgetTopic` does for the page and the CLI, except that the memories are
 * deleted, not purged: gone from every block, restorable from the page, in case the request was an
 * idiom misread. The messages about it are purged, and the profile's sentences go. The asking message names the topic, so it goes as well (and
 * with it anything the extractor could have drawn from it). Other messages pass untouched.
 */
export async function forgetAsked(deps: ModelDeps, message: Message, request: ForgetRequest): Promise<ForgottenOnRequest> {
  // Read by heuristics that can misread an idiom: the memories stay restorable (deleted, not purged).
  const report = await forgetTopic(deps, message.userId, request.topic, { restorable: { reason: `the user asked in conversation to forget "${request.topic}"` } });
  // The request names the topic, so the topic's search has found it unless it was phrased apart
  // ("forget about my ex" asks about "ex"); it goes regardless.
  const itself = await deps.store.purgeMessages(message.userId, [message.id]);
  deps.logger.info('forgot a topic the user asked to forget', { userId: message.userId, messageId: message.id, memories: report.forgotten.length });
  return { messageId: message.id, topic: request.topic, memories: report.forgotten.length, messages: report.messages + itself };
}
