import type Database from 'better-sqlite3';
import { evictOverBudget } from './evict-over-budget.js';
import { dataVersion, marks, padded } from './statements.js';

export interface UserRowCacheOptions {
  /** Keep searched users' rows in memory. @default true */
  enabled?: boolean;
  /** Memory across users; least recently used users are dropped. */
  maxBytes?: number;
  /** A user's rows are read on this many lookups since the last invalidation; before, SQL answers. @default 3 */
  buildAfter?: number;
}

/** One user's held rows: the cache only needs to put, drop and weigh them. */
export interface HeldUser<Row> {
  set(row: Row): void;
  remove(rid: number): void;
  readonly bytes: number;
}

/** How a table's raw rows (rid first in `select`) become held rows, and whose they are. */
export interface RowSource<Row, User extends HeldUser<Row>> {
  table: string;
  select: string;
  toRow(values: unknown[]): Row;
  ridOf(row: Row): number;
  userOf(values: unknown[]): unknown;
  newUser(): User;
}

/**
 * Per-user rows of one table kept in this process and always in step with the file, by the rules
 * of the vector codes and keyword postings (vector-cache.ts, keyword-cache.ts):
 * - another connection's commit changes `PRAGMA data_version`, and then every user is dropped;
 * - this connection's writes mark their rowids dirty (`touched`); before a use the dirty rows are
 *   read again, so a rolled-back write is read back as it really is;
 * - never used inside a transaction (the caller reads SQL there);
 * - forgetting a user drops them (`dropUser`).
 * Building reads every row of the user once, so it waits for `buildAfter` uses since the last
 * invalidation; users are evicted least recently used beyond `maxBytes`.
 */
export class UserRowCache<Row, User extends HeldUser<Row>> {
  protected readonly users = new Map<string, User>();
  protected readonly dirty = new Map<string, Set<number>>();
  private readonly uses = new Map<string, number>();
  private version: number | undefined;
  private readonly readVersion: () => number;
  private readonly allStmt: Database.Statement;
  /** Statements reading dirty rows back, by the padded length of their rowid list. */
  private readonly rowStmts = new Map<number, Database.Statement>();
  private readonly enabled: boolean;
  private readonly maxBytes: number;
  private readonly buildAfter: number;

  constructor(
    private readonly db: Database.Database,
    private readonly source: RowSource<Row, User>,
    options: UserRowCacheOptions,
    defaultMaxBytes: number,
  ) {
    this.enabled = options.enabled ?? true;
    this.maxBytes = options.maxBytes ?? defaultMaxBytes;
    this.buildAfter = options.buildAfter ?? 3;
    this.readVersion = dataVersion(db);
    this.allStmt = db.prepare(`SELECT ${source.select} FROM ${source.table} WHERE user_id = ?`).raw(true);
  }

  /** Called by every write to one of the user's rows through this connection. */
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
   * The user's rows as this connection sees the file, or undefined while the user has not been
   * looked up often enough since the last invalidation to be worth reading. Outside transactions only.
   */
  user(userId: string): User | undefined {
    if (!this.enabled || this.db.inTransaction) return undefined;
    const version = this.readVersion();
    if (version !== this.version) {
      this.users.clear();
      this.dirty.clear();
      this.uses.clear();
      this.version = version;
    }
    let user = this.users.get(userId);
    if (user) {
      this.users.delete(userId);
      const set = this.dirty.get(userId);
      if (set) {
        this.reread(userId, user, [...set]);
        this.dirty.delete(userId);
      }
    } else {
      const seen = (this.uses.get(userId) ?? 0) + 1;
      this.uses.set(userId, seen);
      if (seen < this.buildAfter) return undefined;
      user = this.source.newUser();
      for (const v of this.allStmt.iterate(userId) as Iterable<unknown[]>) user.set(this.source.toRow(v));
    }
    this.users.set(userId, user);
    evictOverBudget(this.users, this.maxBytes, (dropped) => this.dirty.delete(dropped));
    return user;
  }

  /** Bytes held per cached user (for benchmarks and tests). */
  sizes(): Map<string, number> {
    return new Map([...this.users].map(([u, r]) => [u, r.bytes]));
  }

  /** The dirty rows read again, 64 to a statement; a row gone or now another user's is dropped. */
  private reread(userId: string, user: User, rowids: number[]): void {
    for (let i = 0; i < rowids.length; i += 64) {
      const chunk = padded(rowids.slice(i, i + 64), -1);
      let stmt = this.rowStmts.get(chunk.length);
      if (!stmt) this.rowStmts.set(chunk.length, (stmt = this.db.prepare(`SELECT ${this.source.select} FROM ${this.source.table} WHERE rid IN (${marks(chunk.length)})`).raw(true)));
      const found = new Set<number>();
      for (const v of stmt.all(...chunk) as unknown[][]) {
        if (this.source.userOf(v) !== userId) continue;
        const row = this.source.toRow(v);
        found.add(this.source.ridOf(row));
        user.set(row);
      }
      for (const rid of rowids.slice(i, i + 64)) if (!found.has(rid)) user.remove(rid);
    }
  }
}
