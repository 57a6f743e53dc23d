import type Database from 'better-sqlite3';
import { evictOverBudget } from './evict-over-budget.js';
import { changeFeed, type ChangeFeed } from './change-feed.js';
import { UserCodes } from './vector-codes.js';

/**
 * Users held at once, whatever their bytes. A user of 256 rows or more keeps its codes in a
 * WebAssembly memory of its own, and V8 reserves address space for each (with guard regions):
 * measured here, about 13,000 memories in one process, then `WebAssembly.Memory()` fails. Two tables (memories, messages) at
 * 3,000 users each stay well below that; a user past it searches by the exact scan until cached.
 */
const MAX_USERS = 3000;

/**
 * Per-user compact codes of one vec0 table, kept in this process and always in step with the
 * file:
 * - another connection's committed writes reach it through the change feed (change-feed.ts) and
 *   mark their rowids dirty as this connection's own do;
 * - this connection's own writes mark their rowids dirty; before a search the dirty rows are
 *   re-read from the table, and only outside a transaction are they marked clean, so a rolled
 *   back write is re-read after the rollback and never lingers;
 * - a user's codes read inside a transaction are used once and not kept.
 * Users are evicted least recently used beyond `maxBytes`.
 *
 * Building a user's codes reads every vector through vec0, which is slow (measured 0.7 s for
 * 1,000 and 4.7 s for 10,000 rows on a heavily loaded 2-core machine), so codes are built only
 * for a user searched `buildAfter` times since the last invalidation; until then the caller
 * uses the exact scan. A file that another process keeps writing therefore keeps the old cost
 * rather than paying rebuilds.
 */
export class VectorCache {
  private readonly users = new Map<string, UserCodes>();
  private readonly dirty = new Map<string, Set<number>>();
  private readonly searches = new Map<string, number>();
  private readonly allStmt: Database.Statement;
  private readonly rowStmt: Database.Statement;
  private readonly feed: ChangeFeed;

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
    private readonly maxBytes: number,
    private readonly buildAfter = 3,
    private readonly floatRowsPerUser = 0,
  ) {
    this.feed = changeFeed(db);
    this.feed.listen(table, {
      changed: (userId, rowid) => {
        if (rowid !== null) this.mark(rowid, userId);
        else if (userId !== null) this.drop(userId);
      },
      reset: () => this.clear(),
    });
    this.allStmt = db.prepare(`SELECT rid, status, embedding FROM ${table} WHERE user_id = ?`);
    this.rowStmt = db.prepare(`SELECT user_id, status, embedding FROM ${table} WHERE rid = ?`);
  }

  /**
   * Called by every write to the table through this connection, with the row's user when it is
   * known (the row is the user's now), else without (whoever held it).
   */
  touched(rowid: number, userId?: string): void {
    this.feed.record(this.table, userId ?? null, rowid);
    this.mark(rowid, userId ?? null);
  }

  /** The row is dirty for whoever holds it, and for `userId` (its user now) if held. */
  private mark(rowid: number, userId: string | null): void {
    for (const [user, codes] of this.users) if (codes.slotOf.has(rowid)) this.markDirty(user, rowid);
    if (userId !== null && this.users.has(userId)) this.markDirty(userId, rowid);
  }

  private drop(userId: string): void {
    this.users.delete(userId);
    this.dirty.delete(userId);
    this.searches.delete(userId);
  }

  private clear(): void {
    this.users.clear();
    this.dirty.clear();
    this.searches.clear();
  }

  private markDirty(userId: string, rowid: number): void {
    let set = this.dirty.get(userId);
    if (!set) this.dirty.set(userId, (set = new Set()));
    set.add(rowid);
  }

  /**
   * The user's codes, current as of this connection's view of the file; undefined while the user
   * has not been searched often enough since the last invalidation to be worth building.
   */
  codes(userId: string, dimensions: number): UserCodes | undefined {
    this.feed.sync();
    let codes = this.users.get(userId);
    if (!codes) {
      const seen = (this.searches.get(userId) ?? 0) + 1;
      this.searches.set(userId, seen);
      if (seen < this.buildAfter) return undefined;
    }
    if (codes) {
      this.users.delete(userId);
      const set = this.dirty.get(userId);
      if (set) {
        for (const rowid of set) {
          const row = this.rowStmt.get(BigInt(rowid)) as { user_id: string; status: string; embedding: Buffer } | undefined;
          if (row && row.user_id === userId) codes.set(rowid, row.status, toFloats(row.embedding));
          else codes.remove(rowid);
        }
        if (!this.db.inTransaction) this.dirty.delete(userId);
      }
    } else {
      const rows = this.allStmt.all(userId) as Array<{ rid: number | bigint; status: string; embedding: Buffer }>;
      codes = new UserCodes(dimensions, rows.length + 16, true, this.floatRowsPerUser);
      for (const r of rows) codes.set(Number(r.rid), r.status, toFloats(r.embedding));
      this.dirty.delete(userId);
      if (this.db.inTransaction) return codes;
    }
    this.users.set(userId, codes);
    this.evict();
    return codes;
  }

  /**
   * The user's codes if they are built and current (no dirty row, another connection's included),
   * without counting a search or building anything; else undefined.
   */
  current(userId: string): UserCodes | undefined {
    this.feed.sync();
    if (this.dirty.has(userId)) return undefined;
    return this.users.get(userId);
  }

  /** Reads again the rows this connection wrote for users whose codes are built (an idle moment's work). */
  refreshDirty(): void {
    this.feed.sync();
    if (this.dirty.size === 0 || this.db.inTransaction) return;
    for (const userId of [...this.dirty.keys()]) {
      const codes = this.users.get(userId);
      if (codes) this.codes(userId, codes.dimensions);
    }
  }

  private evict(): void {
    evictOverBudget(this.users, this.maxBytes, (user) => this.dirty.delete(user), MAX_USERS);
  }

  /** Bytes held per cached user (for the benchmark's memory column). */
  sizes(): Map<string, number> {
    return new Map([...this.users].map(([u, c]) => [u, c.bytes]));
  }
}

export function toFloats(b: Buffer): Float32Array {
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}
