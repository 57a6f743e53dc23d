import type { Session } from '../../domain/conversation.js';
import type { ExtractionRun } from './store-types.js';

/**
 * The work a session lease guards: its extraction, or its episode summary. Each task has a lease
 * (owner, expiry, fencing token) of its own, so a summary never waits for an extraction.
 */
export type LeaseTask = 'extract' | 'summarize';

/**
 * Sessions as units of background work: extraction leases with fencing tokens, the extraction
 * watermark and its failure state, the episode watermark, and the record of extraction runs.
 */
export interface SessionsPort {
  getSession(userId: string, sessionId: string): Promise<Session | null>;
  /**
   * Takes a session's extraction lease when it is free, expired, already `owner`'s, or held by an
   * owner `isAbandoned` declares gone (a dead process on this host). Returns a fencing token, or
   * null when another worker holds it (or the session does not exist). Atomic across processes.
   * `task` picks the lease (@default "extract").
   */
  acquireSessionLease(userId: string, sessionId: string, owner: string, now: Date, until: Date, options?: { isAbandoned?: (owner: string) => boolean; task?: LeaseTask }): Promise<number | null>;
  /** Extends a held lease; false once another worker has taken it over. */
  renewSessionLease(userId: string, sessionId: string, owner: string, token: number, until: Date, task?: LeaseTask): Promise<boolean>;
  /** The fencing check, made inside the commit transaction: true while `token` is still the lease's. */
  holdsSessionLease(userId: string, sessionId: string, owner: string, token: number, task?: LeaseTask): Promise<boolean>;
  releaseSessionLease(userId: string, sessionId: string, owner: string, token?: number, task?: LeaseTask): Promise<void>;
  /** Sessions with messages past their watermark, with how many (across users: a scheduler scan). */
  sessionsWithBacklog(limit: number): Promise<Array<{ session: Session; unprocessed: number }>>;
  /** Moves the watermark and clears the failure state (call inside the batch's transaction). */
  markProcessed(userId: string, sessionId: string, throughSeq: number, messageId: string, at: Date): Promise<void>;
  recordExtractionFailure(userId: string, sessionId: string, failure: { error: string; failures: number; state: 'retrying' | 'failed'; nextAttemptAt: Date }): Promise<void>;
  endSession(userId: string, sessionId: string, at: Date): Promise<void>;
  recordExtractionRun(run: ExtractionRun): Promise<void>;
  listExtractionRuns(userId: string, sessionId: string): Promise<ExtractionRun[]>;
  /** Sessions with messages not yet covered by an episode, or a fallback episode to retry (across users). */
  sessionsToSummarize(limit: number): Promise<Array<{ session: Session; unsummarized: number }>>;
  markSummarized(userId: string, sessionId: string, throughSeq: number, retryAt: Date | null, failures: number): Promise<void>;
}
