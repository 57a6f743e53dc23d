/**
 * The store as a whole: its users, forgetting a user, the forget fence, backups, transactions and
 * closing. `S` is the composite store a transaction hands to its callback (see store.ts).
 */
export interface LifecyclePort<S> {
  /** Every user with any row: memories or their history, sessions, todos, a profile, settings (a scan across users: lifecycle passes, migrate). */
  userIds(): Promise<string[]>;
  /**
   * Raised in the same transaction by every forgetUser and purgeMemory of the user. Work that read
   * an older value before a slow step (a model call) must not commit (see extract-session).
   */
  forgetGeneration(userId: string): Promise<number>;
  /** Erases everything about a user: memories, vectors, keyword rows, messages, sessions, episodes, profile, todos, history, settings. */
  forgetUser(userId: string): Promise<Record<string, number>>;
  /**
   * An online, consistent copy of the whole store at `path` (SQLite's backup API), taken while
   * other connections keep reading and writing.
   */
  backup(path: string): Promise<{ path: string; pages: number }>;
  /**
   * Takes the named job's lease for `owner` until `until` when it is free, expired at `now`, or
   * already this owner's (then extended); true when `owner` holds it afterwards. Several processes
   * sharing a store use it so a scheduled job runs in one of them. Expired leases of other jobs are
   * dropped on the way (a job name may carry a user id: it must not outlive its use for long).
   */
  acquireJobLease(job: string, owner: string, now: Date, until: Date): Promise<boolean>;
  /** Gives the lease up (its row is deleted) if `owner` holds it; another owner's lease is left alone. */
  releaseJobLease(job: string, owner: string): Promise<void>;
  /** Runs `fn` atomically: every write inside commits together or not at all. */
  transaction<T>(fn: (tx: S) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
