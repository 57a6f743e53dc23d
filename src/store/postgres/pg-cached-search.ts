import type { Bm25Params } from '../sqlite/keyword-index.js';
import { toFloats } from '../sqlite/vector-cache.js';
import type { PgContext } from './pg-db.js';
import type { CachedUser } from './pg-search-cache.js';

/** The number SQLite's exact scan reports for unit vectors under its 'l2' metric: 1 − d²/2 (as the SQL path scores). */
export function similarity(q: Float32Array, v: Float32Array): number {
  let d2 = 0;
  for (let j = 0; j < q.length; j++) {
    const d = q[j]! - (v[j] ?? 0);
    d2 += d * d;
  }
  return 1 - d2 / 2;
}

/** Sign-bit candidates when WebAssembly SIMD is missing (the JS codes), as on SQLite. */
const MIN_CANDIDATES = 200;
const FACTOR = 10;

/**
 * The two-stage search of the SQLite store (sqlite/vector-index.ts) over a cached user: every
 * row's int8 product taken with SIMD, the best k + 10 scored exactly from the cached floats, or
 * from their float32 vectors read by row id for a user too large to keep floats. A user of at
 * most k + 10 rows is scored in full.
 */
export async function cachedVectorSearch(ctx: PgContext, table: string, userId: string, user: CachedUser, vector: Float32Array, k: number, statuses: readonly string[]): Promise<Array<{ id: string; score: number }>> {
  if (k <= 0 || statuses.length === 0) return [];
  const codes = user.codes;
  const candidates = Math.max(MIN_CANDIDATES, FACTOR * k);
  let hits: Array<{ rowid: number; score: number }> | undefined;
  if (codes.count <= (codes.scansEveryRow ? k + 10 : candidates)) hits = codes.scoreAll(vector, statuses, similarity);
  if (!hits) {
    const rowids = codes.nearest(vector, statuses, candidates, k + 10);
    hits = [];
    const missing: number[] = [];
    for (const rowid of rowids) {
      const v = codes.floatOf(rowid);
      if (v) hits.push({ rowid, score: similarity(vector, v) });
      else missing.push(rowid);
    }
    if (missing.length > 0) {
      const rows = await ctx.rows<{ rid: number; vec: Buffer }>(`SELECT rid, vec FROM ${table} WHERE user_id = $1 AND rid = ANY($2::bigint[]) AND vec IS NOT NULL`, [userId, missing]);
      for (const r of rows) hits.push({ rowid: r.rid, score: similarity(vector, toFloats(r.vec)) });
    }
  }
  hits.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  return hits.slice(0, k).flatMap((h) => {
    const id = user.ids.get(h.rowid);
    return id === undefined ? [] : [{ id, score: h.score }];
  });
}

/**
 * BM25 over every row of a cached user holding a query term, with the same statistics as the SQL
 * path (rows with terms, every status) and only rows of the given statuses returned. Exact: no
 * candidate limit (the SQL path rescores the 400 best by ts_rank).
 */
export function cachedKeywordSearch(user: CachedUser, queryTerms: readonly string[], limit: number, params: Bm25Params, statuses: readonly string[]): Array<{ id: string; score: number; coverage: number }> {
  const unique = [...new Set(queryTerms.filter((t) => t.length > 0))];
  if (unique.length === 0 || limit <= 0 || user.docCount <= 0) return [];
  const allowed = new Set(statuses);
  const hits = user.postings.search(unique, user.docCount, user.termTotal / user.docCount, params, limit, (rowid) => allowed.has(user.status.get(rowid) ?? ''));
  return hits.flatMap((h) => {
    const id = user.ids.get(h.rowid);
    return id === undefined ? [] : [{ id, score: h.score, coverage: h.coverage }];
  });
}
