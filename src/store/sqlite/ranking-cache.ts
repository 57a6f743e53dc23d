import type Database from 'better-sqlite3';
import { HELD_COLUMNS, toRow, userOf, UserRanking, withAccess, type RankingRow } from './user-ranking.js';
import { UserRowCache, type UserRowCacheOptions } from './user-row-cache.js';

/**
 * Keep searched users' memory rows in memory (ranking fields, rowid ↔ id, whole rows by id), so
 * recall's lookups of its candidates read no SQL; `maxBytes` defaults to 128 MiB.
 */
export type RankingCacheOptions = UserRowCacheOptions;

/**
 * Per-user ranking fields of the memories table, kept in this process and always in step with the
 * file by `UserRowCache`'s rules (another connection's commit drops every user, this connection's
 * writes re-read their rows, never used inside a transaction).
 * Recall's candidates are a hundred rows of one user, looked up four times (ids of the search hits,
 * ranking fields, rowids for vector scores, whole rows of the ones taken); each was a SQL read of
 * the same rows, the whole ones about 14 µs a row. Whole memories are made from the held values
 * on each read (new objects: callers may keep or change them).
 */
export class RankingCache extends UserRowCache<RankingRow, UserRanking> {
  constructor(db: Database.Database, options: RankingCacheOptions = {}) {
    super(db, { table: 'memories', select: HELD_COLUMNS, toRow, ridOf: (r) => r.rid, userOf, newUser: () => new UserRanking() }, options, 128 * 2 ** 20);
  }

  /**
   * Accesses this connection committed (outside any transaction of the caller's): the count and
   * time applied to the held row as the UPDATE applied them, without reading it again. A flush
   * writes the accesses of a second of context builds at once, hundreds of rows. A row already
   * dirty stays so (it is read whole anyway).
   */
  accessed(userId: string, id: string, count: number, at: Date): void {
    const user = this.held(userId);
    const r = user?.byId.get(id);
    if (!user || !r || this.isDirty(userId, r.rid)) return;
    user.set(withAccess(r, count, at));
  }
}
