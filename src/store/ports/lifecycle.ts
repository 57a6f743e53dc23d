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
  /** Runs `fn` atomically: every write inside commits together or not at all. */
  transaction<T>(fn: (tx: S) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
