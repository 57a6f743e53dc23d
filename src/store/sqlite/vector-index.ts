import type Database from 'better-sqlite3';
import { dot } from '../../embedders/embedder.js';
import { toFloats, VectorCache } from './vector-cache.js';

/**
 * Exact (brute-force) search within one user, in a sqlite-vec vec0 table partitioned by user_id.
 * `status` is a metadata column so filtering happens inside the KNN scan.
 *
 * chunk_size: vec0 allocates vectors in chunks of this many rows *per partition*, so every user
 * costs at least one chunk on disk, in each of the two vector tables (memories, messages).
 * Measured at 512 dimensions (`npm run bench -- --only latency`): sqlite-vec's default of 1024
 * reserves about 2 MB per user; 32 about 71 KB; 8 about 22.5 KB (10,000 users with 5 memories
 * each: 220 MB instead of 695 MB at 32), for roughly 12 % more search time at 10,000 memories
 * for one user. Engram serves many light users, so 8; a store with a few heavy users may pass
 * a larger `chunkSize` to openSqliteStore.
 */
export const DEFAULT_CHUNK_SIZE = 8;

/**
 * 'l2' for stores bound since this metric was introduced: vectors are unit length, so L2 ranks
 * exactly like cosine (cos = 1 − d²/2), and sqlite-vec's L2 kernel is the faster one (SIMD).
 * Older stores keep 'cosine' (recorded in engram_meta).
 */
export type VectorMetric = 'l2' | 'cosine';

export interface VectorSearchOptions {
  /**
   * 'two-stage': in-process compact codes pick k + 10 rows, which are scored exactly (cached
   * floats, else the table). With WebAssembly SIMD (the usual case) the codes are int8, every row's
   * product taken (near-exact on any vectors: 1.000 of the exact top 10 on random ones, where sign
   * bits kept 0.52 at 10,000 rows); without it, sign bits first pick max(minCandidates, factor × k)
   * candidates for the int8 stage. 'exact': vec0's brute-force float scan. @default 'two-stage'
   */
  mode?: 'two-stage' | 'exact';
  /** Sign-bit candidates for the JS codes (no WebAssembly SIMD). @default 200 */
  minCandidates?: number;
  /**
   * For the JS codes, as minCandidates. Measured on LoCoMo's 5,882 turns with the bundled embedder, 1,981 questions
   * (bench/results/2026-11-25-s5.md): at k = 60, 600 candidates keep 0.999 of the exact top 60 and
   * all of its top 10; 1,200 keep 1.000 at twice the int8 work, which reads rows scattered in
   * memory (about 2 µs a row at 50,000 rows). @default 10
   */
  factor?: number;
  /** Memory for codes across users of this table; least recently searched users are dropped. @default 256 MiB */
  maxCacheBytes?: number;
  /** Codes are built for a user on this many searches since the last invalidation; before, the exact scan. @default 3 */
  buildAfter?: number;
  /**
   * A user with at most this many rows has their float vectors cached with the codes, so exact
   * rescoring reads memory instead of a vec0 point read per candidate (2 KB a row at 512
   * dimensions: 20 MB for 10,000). 0 keeps none. @default 20000
   */
  floatRowsPerUser?: number;
}

export class VectorIndex {
  private readonly insertStmt: Database.Statement;
  private readonly deleteStmt: Database.Statement;
  private readonly statusStmt: Database.Statement;
  private readonly knnStmts = new Map<number, Database.Statement>();
  private readonly getStmt: Database.Statement;
  private readonly cache: VectorCache;
  private readonly options: Required<VectorSearchOptions>;

  constructor(
    private readonly db: Database.Database,
    readonly table: string,
    private readonly metric: VectorMetric = 'l2',
    options: VectorSearchOptions = {},
  ) {
    this.options = { mode: 'two-stage', minCandidates: 200, factor: 10, maxCacheBytes: 256 * 2 ** 20, buildAfter: 3, floatRowsPerUser: 20_000, ...options };
    this.cache = new VectorCache(db, table, this.options.maxCacheBytes, this.options.buildAfter, this.options.floatRowsPerUser);
    this.insertStmt = db.prepare(`INSERT INTO ${table} (rid, user_id, status, embedding) VALUES (?, ?, ?, ?)`);
    this.deleteStmt = db.prepare(`DELETE FROM ${table} WHERE rid = ?`);
    this.statusStmt = db.prepare(`UPDATE ${table} SET status = ? WHERE rid = ?`);
    this.getStmt = db.prepare(`SELECT embedding FROM ${table} WHERE rid = ?`);
  }

  static create(db: Database.Database, table: string, dimensions: number, chunkSize = DEFAULT_CHUNK_SIZE, metric: VectorMetric = 'l2'): void {
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0 (
         rid INTEGER PRIMARY KEY,
         user_id TEXT PARTITION KEY,
         status TEXT,
         embedding FLOAT[${dimensions}] distance_metric=${metric},
         chunk_size=${chunkSize}
       )`,
    );
  }

  static drop(db: Database.Database, table: string): void {
    db.exec(`DROP TABLE IF EXISTS ${table}`);
  }

  upsert(rowid: number, userId: string, status: string, vector: Float32Array): void {
    this.cache.touched(rowid, userId);
    this.deleteStmt.run(BigInt(rowid));
    this.insertStmt.run(BigInt(rowid), userId, status, vector);
  }

  remove(rowid: number): void {
    this.cache.touched(rowid);
    this.deleteStmt.run(BigInt(rowid));
  }

  setStatus(rowid: number, status: string): void {
    this.cache.touched(rowid);
    this.statusStmt.run(status, BigInt(rowid));
  }

  /** Brings the cached codes up to date with this connection's writes (an idle moment's work). */
  refreshCache(): void {
    this.cache.refreshDirty();
  }

  get(rowid: number): Float32Array | undefined {
    const row = this.getStmt.get(BigInt(rowid)) as { embedding: Buffer } | undefined;
    return row ? toFloats(row.embedding) : undefined;
  }

  /** The stored vectors of some of the user's rows, exactly (a vec0 point read each). */
  vectorsOf(rowids: readonly number[]): Map<number, Float32Array> {
    const out = new Map<number, Float32Array>();
    for (const rowid of rowids) {
      const v = this.get(rowid);
      if (v) out.set(rowid, v);
    }
    return out;
  }

  /**
   * The dot product of `query` with some of the user's rows, for scoring: from the user's cache
   * when it is built and current (exact from the cached floats, or within about 1 % from the int8
   * codes of a user too large to keep floats; no vector is read or allocated), else from the
   * table, a point read each.
   */
  scoresOf(userId: string, rowids: readonly number[], query: Float32Array): Map<number, number> {
    const codes = this.cache.current(userId);
    const out = codes ? codes.dotsOf(rowids, query) : new Map<number, number>();
    for (const rowid of rowids) {
      if (out.has(rowid)) continue;
      const v = this.get(rowid);
      if (v) out.set(rowid, dot(query, v));
    }
    return out;
  }

  /** Top-k rowids by cosine similarity, best first, by the configured mode. */
  search(userId: string, vector: Float32Array, k: number, statuses: readonly string[]): Array<{ rowid: number; score: number }> {
    if (k <= 0 || statuses.length === 0) return [];
    return this.options.mode === 'exact' ? this.exact(userId, vector, k, statuses) : this.twoStage(userId, vector, k, statuses);
  }

  /** Compact codes narrow the user's rows to a few hundred; the best k + 10 are scored exactly. */
  twoStage(userId: string, vector: Float32Array, k: number, statuses: readonly string[]): Array<{ rowid: number; score: number }> {
    const codes = this.cache.codes(userId, vector.length);
    const candidates = Math.max(this.options.minCandidates, this.options.factor * k);
    // A small user gains nothing from codes: vec0's scan is as exact and cheaper. Its cost per row
    // is about what an int8 candidate costs, and each of the k + 10 exact point reads about ten
    // rows' worth (measured at 1,000 rows, k = 60: two-stage 1.9 ms against 1.2 ms exact p95);
    // with the floats in memory there are no point reads.
    // With its floats in memory, a user whose every row would be scored exactly anyway is scored in
    // full here: no vec0 scan (about 0.3 ms for a few hundred rows), the same numbers. Where the
    // int8 codes are scanned in WebAssembly that is only worth it up to k + 10 rows (the scan of
    // 600 rows costs a few microseconds; the float similarity of each about 1.5).
    const scoredInFull = codes?.scansEveryRow ? k + 10 : candidates;
    if (codes && codes.count <= scoredInFull) {
      const all = codes.scoreAll(vector, statuses, (q, v) => this.similarity(q, v));
      if (all) return all.sort((a, b) => b.score - a.score || a.rowid - b.rowid).slice(0, k);
    }
    // Without floats each exact score is a vec0 point read (about 15 µs): a small user is cheaper
    // scanned by vec0 outright. With floats and the SIMD scan, never.
    const vec0Cheaper = codes && !(codes.scansEveryRow && codes.keepsFloats) && codes.count <= candidates + (codes.keepsFloats ? 0 : 10 * (k + 10));
    if (!codes || vec0Cheaper) return this.exact(userId, vector, k, statuses);
    const rowids = codes.nearest(vector, statuses, candidates, k + 10);
    const hits: Array<{ rowid: number; score: number }> = [];
    for (const rowid of rowids) {
      const v = codes.floatOf(rowid) ?? this.get(rowid);
      if (v) hits.push({ rowid, score: this.similarity(vector, v) });
    }
    hits.sort((a, b) => b.score - a.score);
    return hits.slice(0, k);
  }

  /** The same number vec0's exact scan reports: 1 − d²/2 for L2 over unit vectors, else cosine. */
  private similarity(q: Float32Array, v: Float32Array): number {
    if (this.metric === 'l2') return 1 - squaredDistance(q, v) / 2;
    let dot = 0;
    let qq = 0;
    let vv = 0;
    for (let j = 0; j < q.length; j++) {
      const a = q[j]!;
      const b = v[j]!;
      dot += a * b;
      qq += a * a;
      vv += b * b;
    }
    return dot / Math.sqrt(qq * vv || 1);
  }

  /** vec0's brute-force scan over the user's float vectors. */
  exact(userId: string, vector: Float32Array, k: number, statuses: readonly string[]): Array<{ rowid: number; score: number }> {
    if (k <= 0 || statuses.length === 0) return [];
    let stmt = this.knnStmts.get(statuses.length);
    if (!stmt) {
      stmt = this.db.prepare(
        `SELECT rid, distance FROM ${this.table}
         WHERE embedding MATCH ? AND k = ? AND user_id = ? AND status IN (${statuses.map(() => '?').join(', ')})`,
      );
      this.knnStmts.set(statuses.length, stmt);
    }
    const rows = stmt.all(vector, k, userId, ...statuses) as Array<{ rid: number; distance: number }>;
    return rows.map((r) => ({ rowid: r.rid, score: this.metric === 'l2' ? 1 - (r.distance * r.distance) / 2 : 1 - r.distance }));
  }
}

/**
 * Σ (q − v)², in four sums (as `dotAt`): one sum per element was the whole cost of rescoring a
 * search's candidates, and the L2 score needs nothing else.
 */
function squaredDistance(q: Float32Array, v: Float32Array): number {
  const n = q.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = 0;
  for (; j + 3 < n; j += 4) {
    const d0 = q[j]! - v[j]!;
    const d1 = q[j + 1]! - v[j + 1]!;
    const d2 = q[j + 2]! - v[j + 2]!;
    const d3 = q[j + 3]! - v[j + 3]!;
    s0 += d0 * d0;
    s1 += d1 * d1;
    s2 += d2 * d2;
    s3 += d3 * d3;
  }
  for (; j < n; j++) {
    const d = q[j]! - v[j]!;
    s0 += d * d;
  }
  return s0 + s1 + s2 + s3;
}
