import type Database from 'better-sqlite3';
import { evictOverBudget } from './evict-over-budget.js';
import { changeFeed, type ChangeFeed } from './change-feed.js';

/**
 * The bookkeeping every per-user cache of one connection shares (the held rows of a table,
 * user-row-cache.ts; the keyword postings, keyword-cache.ts), so that they stay in step with the
 * file by one set of rules:
 * - this connection's writes mark their rowids dirty (`touched`), and so do another connection's
 *   committed ones, through the change feed (change-feed.ts); before a use the cache is handed
 *   them to read again, so a rolled-back write is read back as it really is;
 * - never used inside a transaction (the caller reads SQL there);
 * - forgetting a user drops them (`dropUser`).
 * Building reads every row of the user once, so it waits for `buildAfter` uses since the last
 * invalidation: a file another process keeps writing keeps the SQL cost rather than paying
 * rebuilds. Users are evicted least recently used beyond `maxBytes`.
 */
export class UserCacheBook<User extends { readonly bytes: number }> {
  private readonly users = new Map<string, User>();
  private readonly dirty = new Map<string, Set<number>>();
  private readonly uses = new Map<string, number>();
  private readonly feed: ChangeFeed;

  /** `table`: the table whose rows it holds, as its writers record their changes (change-feed.ts). */
  constructor(
    private readonly db: Database.Database,
    table: string,
    private readonly options: { maxBytes: number; buildAfter: number },
  ) {
    this.feed = changeFeed(db);
    this.feed.listen(table, {
      changed: (userId, rowid) => {
        if (userId === null) {
          if (rowid !== null) for (const user of this.users.keys()) this.touched(user, rowid);
        } else if (rowid === null) this.dropUser(userId);
        else this.touched(userId, rowid);
      },
      reset: () => {
        this.users.clear();
        this.dirty.clear();
        this.uses.clear();
      },
    });
  }

  /** Called by every write to one of the user's rows (the writer records it in the change feed). */
  touched(userId: string, rowid: number): void {
    if (!this.users.has(userId)) return;
    let set = this.dirty.get(userId);
    if (!set) this.dirty.set(userId, (set = new Set()));
    set.add(rowid);
  }

  /** Every row of the user is gone (forget-everything). */
  dropUser(userId: string): void {
    this.users.delete(userId);
    this.dirty.delete(userId);
    this.uses.delete(userId);
  }

  /**
   * The user's cache as this connection sees the file: built on the `buildAfter`-th use since the
   * last invalidation (undefined before), else the held one after `refresh` has read its dirty
   * rowids again (it may answer a new one). Outside transactions only.
   */
  use(userId: string, build: () => User, refresh: (user: User, dirty: number[]) => User): User | undefined {
    if (this.db.inTransaction) return undefined;
    this.feed.sync();
    let user = this.users.get(userId);
    if (user) {
      this.users.delete(userId);
      const set = this.dirty.get(userId);
      if (set) {
        user = refresh(user, [...set]);
        this.dirty.delete(userId);
      }
    } else {
      const seen = (this.uses.get(userId) ?? 0) + 1;
      this.uses.set(userId, seen);
      if (seen < this.options.buildAfter) return undefined;
      user = build();
    }
    this.users.set(userId, user);
    evictOverBudget(this.users, this.options.maxBytes, (dropped) => this.dirty.delete(dropped));
    return user;
  }

  /**
   * Users held whose rows this connection wrote since their last use: what an idle moment brings
   * up to date ahead of the next use (another connection's included). None inside a transaction.
   */
  dirtyHeld(): string[] {
    if (this.db.inTransaction) return [];
    this.feed.sync();
    if (this.dirty.size === 0) return [];
    return [...this.dirty.keys()].filter((userId) => this.users.has(userId));
  }

  /** The user's cache as held, without checks or bookkeeping (for writes that update it in place). */
  held(userId: string): User | undefined {
    return this.users.get(userId);
  }

  /** Whether this connection wrote the row since the user's cache last read it. */
  isDirty(userId: string, rowid: number): boolean {
    return this.dirty.get(userId)?.has(rowid) ?? false;
  }

  /** Bytes held per cached user (for benchmarks and tests). */
  sizes(): Map<string, number> {
    return new Map([...this.users].map(([u, x]) => [u, x.bytes]));
  }
}
