import { z } from 'zod';

export const MessageRole = z.enum(['user', 'assistant', 'system']);
export type MessageRole = z.infer<typeof MessageRole>;

/** A raw conversation message (seed 003 Layer 1). Ordered within its session by `seq`. */
export const Message = z.object({
  id: z.string().min(1),
  userId: z.string().min(1),
  sessionId: z.string().min(1),
  seq: z.number().int().min(0),
  role: MessageRole,
  content: z.string(),
  /** The application's own id of whoever sent it, when it has one. */
  callerId: z.string().optional(),
  createdAt: z.date(),
  expiresAt: z.date().optional(),
});
export type Message = z.infer<typeof Message>;

/**
 * A copy of a message its reader may change, dates included: stores may hand the message search
 * shared, frozen messages (see `MessagePort.messageNeighbours`), and what leaves the library is
 * the caller's own.
 */
export function ownMessage(m: Message): Message {
  const copy: Message = { ...m, createdAt: new Date(m.createdAt.getTime()) };
  if (m.expiresAt) copy.expiresAt = new Date(m.expiresAt.getTime());
  return copy;
}

export const NewMessageInput = z.object({
  /** Appending is idempotent by this id; generated when absent. */
  id: z.string().min(1).optional(),
  userId: z.string().min(1),
  sessionId: z.string().min(1),
  role: MessageRole,
  content: z.string().max(100_000),
  callerId: z.string().optional(),
  createdAt: z.coerce.date().optional(),
});
export type NewMessageInput = z.input<typeof NewMessageInput>;

/** A conversation session (seed 002 "topic"): tracks activity and the extraction watermark. */
export const Session = z.object({
  id: z.string().min(1),
  userId: z.string().min(1),
  agentId: z.string().optional(),
  createdAt: z.date(),
  lastActiveAt: z.date(),
  /** seq of the last message extraction has processed; -1 when none. */
  processedSeq: z.number().int(),
  lastProcessedMessageId: z.string().optional(),
  processedAt: z.date().optional(),
  endedAt: z.date().optional(),
  /** Consecutive extraction failures of the current batch, and the last error. */
  failures: z.number().int().min(0),
  lastError: z.string().optional(),
  /** 'failed' after too many failures, until a later success clears it. */
  extractionState: z.enum(['ok', 'retrying', 'failed']),
  nextAttemptAt: z.date().optional(),
  /** seq through which the session has episode summaries; -1 when none. */
  summarizedSeq: z.number().int().default(-1),
  /** Set when the last summary was a fallback: when to try the model again. */
  summaryRetryAt: z.date().optional(),
  summaryFailures: z.number().int().min(0).default(0),
});
export type Session = z.infer<typeof Session>;
