import type Database from 'better-sqlite3';
import { evictOverBudget } from './evict-over-budget.js';
import { dataVersion, marks, padded } from './statements.js';
import { HELD_COLUMNS, toRow, userOf, UserRanking, withAccess } from './user-ranking.js';

export interface RankingCacheOptions {
  /** Keep searched users' memory rows in memory (ranking fields, rowid ↔ id, whole rows by id), so recall's lookups of its candidates read no SQL. @default true */
  enabled?: boolean;
  /** Memory for ranking fields across users; least recently used users are dropped. @default 128 MiB */
  maxBytes?: number;
  /** A user's fields are read on this many lookups since the last invalidation; before, SQL answers. @default 3 */
  buildAfter?: number;
}

/**
 * Per-user ranking fields of the memories table, kept in this process and always in step with
 * the file, by the rules of the vector codes and keyword postings (vector-cache.ts,
 * keyword-cache.ts):
 * - another connection's commit changes `PRAGMA data_version`, and then every user is dropped;
 * - this connection's writes mark their rowids dirty; before a use the dirty rows are re-read,
 *   so a rolled-back write is read back as it really is;
 * - the cache is never used inside a transaction (the caller reads SQL there).
 * Recall's candidates are a hundred rows of one user, looked up four times (ids of the search hits,
 * ranking fields, rowids for vector scores, whole rows of the ones taken); each was a SQL read of
 * the same rows, the whole ones about 14 µs a row. Whole memories are made from the held values
 * on each read (new objects: callers may keep or change them).
 * Building reads every row of the user once, so it waits for `buildAfter` uses since the last
 * invalidation. Users are evicted least recently used beyond `maxBytes`.
 */
export class RankingCache {
  private readonly users = new Map<string, UserRanking>();
  private readonly dirty = new Map<string, Set<number>>();
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
    options: RankingCacheOptions = {},
  ) {
    this.enabled = options.enabled ?? true;
    this.maxBytes = options.maxBytes ?? 128 * 2 ** 20;
    this.buildAfter = options.buildAfter ?? 3;
    this.readVersion = dataVersion(db);
    this.allStmt = db.prepare(`SELECT ${HELD_COLUMNS} FROM memories WHERE user_id = ?`).raw(true);
  }

  /** Called by every write to one of the user's memory rows through this connection. */
  touched(userId: string, rowid: number): void {
    if (!this.users.has(userId)) return;
    let set = this.dirty.get(userId);
    if (!set) this.dirty.set(userId, (set = new Set()));
    set.add(rowid);
  }

  /** As `touched`, for rows known by id (accesses are written by id). */
  touchedIds(userId: string, ids: Iterable<string>): void {
    const user = this.users.get(userId);
    if (!user) return;
    for (const id of ids) {
      const r = user.byId.get(id);
      if (r) this.touched(userId, r.rid);
    }
  }

  /**
   * Accesses this connection committed (outside any transaction of the caller's): the count and
   * time applied to the held row as the UPDATE applied them, without reading it again. A flush
   * writes the accesses of a second of context builds at once, hundreds of rows. A row already
   * dirty stays so (it is read whole anyway).
   */
  accessed(userId: string, id: string, count: number, at: Date): void {
    const user = this.users.get(userId);
    const r = user?.byId.get(id);
    if (!user || !r || this.dirty.get(userId)?.has(r.rid)) return;
    user.set(withAccess(r, count, at));
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
  user(userId: string): UserRanking | undefined {
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
      user = new UserRanking();
      for (const v of this.allStmt.iterate(userId) as Iterable<unknown[]>) user.set(toRow(v));
    }
    this.users.set(userId, user);
    this.evict();
    return user;
  }

  /** The dirty rows read again, 64 to a statement; a row gone or now another user's is dropped. */
  private reread(userId: string, user: UserRanking, rowids: number[]): void {
    for (let i = 0; i < rowids.length; i += 64) {
      const chunk = padded(rowids.slice(i, i + 64), -1);
      let stmt = this.rowStmts.get(chunk.length);
      if (!stmt) this.rowStmts.set(chunk.length, (stmt = this.db.prepare(`SELECT ${HELD_COLUMNS} FROM memories WHERE rid IN (${marks(chunk.length)})`).raw(true)));
      const found = new Set<number>();
      for (const v of stmt.all(...chunk) as unknown[][]) {
        if (userOf(v) !== userId) continue;
        const row = toRow(v);
        found.add(row.rid);
        user.set(row);
      }
      for (const rid of rowids.slice(i, i + 64)) if (!found.has(rid)) user.remove(rid);
    }
  }

  private evict(): void {
    evictOverBudget(this.users, this.maxBytes, (user) => this.dirty.delete(user));
  }

  /** Bytes held per cached user (for benchmarks and tests). */
  sizes(): Map<string, number> {
    return new Map([...this.users].map(([u, r]) => [u, r.bytes]));
  }
}
