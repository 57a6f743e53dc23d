import type { Message } from '../../domain/conversation.js';
import type { ForgottenRequest } from '../../domain/forgotten.js';

/** A message put back where it was (its session and place), with its vector when it has one from the bound embedder. */
export interface RestoredMessage extends Message {
  vector: Float32Array | null;
  embedderId?: string;
}

/**
 * What requests in conversation forgot, kept to be undone (`domain/forgotten.ts`), and the raw
 * messages such an undo puts back.
 */
export interface ForgottenPort {
  /** Writes the request's record, replacing the one of the same id (it is written as the forgetting goes). */
  saveForgotten(record: ForgottenRequest): Promise<void>;
  /** The user's records, newest first. */
  listForgotten(userId: string): Promise<ForgottenRequest[]>;
  getForgotten(userId: string, id: string): Promise<ForgottenRequest | null>;
  /** Drops one record; false when there was none. */
  deleteForgotten(userId: string, id: string): Promise<boolean>;
  /** Drops the records past their `expiresAt`, every user's (a scheduler scan); returns how many. */
  deleteExpiredForgotten(now: Date): Promise<number>;
  /**
   * Puts messages back in their sessions at their own places (seq), the session made again if it
   * is gone. A message whose id or place is taken again is skipped. Returns those stored.
   */
  restoreMessages(userId: string, messages: readonly RestoredMessage[]): Promise<Message[]>;
}
