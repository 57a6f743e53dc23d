import type Database from 'better-sqlite3';
import { marks, padded } from './statements.js';
import { changeFeed, type ChangeFeed } from './change-feed.js';
import { UserCacheBook } from './user-cache-book.js';

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
 * of `UserCacheBook` (user-cache-book.ts), which the keyword postings share.
 */
export class UserRowCache<Row, User extends HeldUser<Row>> {
  private readonly book: UserCacheBook<User>;
  private readonly allStmt: Database.Statement;
  /** Statements reading dirty rows back, by the padded length of their rowid list. */
  private readonly rowStmts = new Map<number, Database.Statement>();
  private readonly enabled: boolean;
  private readonly feed: ChangeFeed;

  constructor(
    private readonly db: Database.Database,
    private readonly source: RowSource<Row, User>,
    options: UserRowCacheOptions,
    defaultMaxBytes: number,
  ) {
    this.enabled = options.enabled ?? true;
    this.feed = changeFeed(db);
    this.book = new UserCacheBook(db, source.table, { maxBytes: options.maxBytes ?? defaultMaxBytes, buildAfter: options.buildAfter ?? 3 });
    this.allStmt = db.prepare(`SELECT ${source.select} FROM ${source.table} WHERE user_id = ?`).raw(true);
  }

  /** Called by every write to one of the user's rows through this connection (recorded for the other connections). */
  touched(userId: string, rowid: number): void {
    this.feed.record(this.source.table, userId, rowid);
    this.book.touched(userId, rowid);
  }

  /**
   * Many writes at once (access counts), recorded for the other connections 64 to a statement.
   * `reread`: this connection reads the rows again too; without, it applies them to its held rows itself.
   */
  wrote(rows: ReadonlyArray<readonly [userId: string, rowid: number]>, reread: boolean): void {
    this.feed.recordRows(this.source.table, rows);
    if (reread) for (const [userId, rowid] of rows) this.book.touched(userId, rowid);
  }

  /** Every row of the user is gone (forget-everything). */
  dropUser(userId: string): void {
    this.feed.record(this.source.table, userId, null);
    this.book.dropUser(userId);
  }

  /**
   * The user's rows as this connection sees the file, or undefined while the user has not been
   * looked up often enough since the last invalidation to be worth reading. Outside transactions only.
   */
  user(userId: string): User | undefined {
    if (!this.enabled) return undefined;
    return this.book.use(
      userId,
      () => {
        const user = this.source.newUser();
        for (const v of this.allStmt.iterate(userId) as Iterable<unknown[]>) user.set(this.source.toRow(v));
        return user;
      },
      (user, dirty) => {
        this.reread(userId, user, dirty);
        return user;
      },
    );
  }

  /** Reads again the rows this connection wrote for users held, so the next lookup finds them current (an idle moment's work). */
  refreshDirty(): void {
    for (const userId of this.book.dirtyHeld()) this.user(userId);
  }

  /** Bytes held per cached user (for benchmarks and tests). */
  sizes(): Map<string, number> {
    return this.book.sizes();
  }

  /** The user's rows as held, without checks (for writes that update them in place). */
  protected held(userId: string): User | undefined {
    return this.book.held(userId);
  }

  protected isDirty(userId: string, rowid: number): boolean {
    return this.book.isDirty(userId, rowid);
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
