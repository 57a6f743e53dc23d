/**
 * Binary against int8 codes, on one set of vectors: recall@10 against vec0's exact scan and CPU
 * time per query of
 * - sign bits only (the top 10 by sign distance),
 * - int8 only (every row's int8 dot product, top 10),
 * - sign bits → int8 → exact (the store's two-stage search, candidates max(200, 10 × k)),
 * - the same two-stage with more candidates (1,000), to show what a larger count buys.
 * CPU time (process.cpuUsage) rather than wall time: a loaded machine inflates it least.
 */
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { UserCodes } from '../src/store/sqlite/vector-codes.js';
import { VectorIndex } from '../src/store/sqlite/vector-index.js';

export interface VariantRow {
  set: string;
  rows: number;
  variant: string;
  recallAt10: number;
  cpuMsPerQuery: number;
}

/** Top 10 slots by the int8 dot product over every row. */
function int8Scan(codes: UserCodes, q: Float32Array, k: number): number[] {
  const D = codes.dimensions;
  const scores = new Float32Array(codes.count);
  for (let i = 0; i < codes.count; i++) {
    let s = 0;
    const o = i * D;
    for (let j = 0; j < D; j++) s += q[j]! * codes.int8[o + j]!;
    scores[i] = s * codes.scale[i]!;
  }
  const top: number[] = [];
  for (let i = 0; i < codes.count; i++) {
    if (top.length === k && scores[i]! <= scores[top[k - 1]!]!) continue;
    let at = Math.min(top.length, k - 1);
    while (at > 0 && scores[top[at - 1]!]! < scores[i]!) at--;
    top.splice(at, 0, i);
    if (top.length > k) top.pop();
  }
  return top.map((slot) => codes.rowids[slot]!);
}

function cpu(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
}

export function codeVariants(set: string, vectors: readonly Float32Array[], queries: readonly Float32Array[]): VariantRow[] {
  const D = vectors[0]!.length;
  const db = new Database(':memory:');
  sqliteVec.load(db);
  VectorIndex.create(db, 'v', D);
  const exact = new VectorIndex(db, 'v', 'l2', { mode: 'exact' });
  const twoStage = new VectorIndex(db, 'v', 'l2', { buildAfter: 1 });
  db.transaction(() => vectors.forEach((v, i) => exact.upsert(i + 1, 'u', 'active', v)))();
  // The JS codes (no WebAssembly): where SIMD runs, nearest() scans the int8 codes of every row instead.
  const codes = new UserCodes(D, vectors.length, false);
  vectors.forEach((v, i) => codes.set(i + 1, 'active', v));
  const truth = queries.map((q) => exact.search('u', q, 10, ['active']));
  const tenth = truth.map((t) => t[Math.min(9, t.length - 1)]?.score ?? -Infinity);
  const exactScore = truth.map((t) => new Map(t.map((h) => [h.rowid, h.score])));
  // Tie-aware: a returned row counts when the exact scan has it in its top 10 or scores it as high as the tenth.
  const recall = (got: number[][]): number => {
    let agree = 0;
    got.forEach((rowids, i) => {
      agree += rowids.slice(0, 10).filter((r) => exactScore[i]!.has(r) || (exact.get(r) !== undefined && dot(exact.get(r)!, queries[i]!) >= tenth[i]! - 1e-6)).length / Math.min(10, truth[i]!.length || 1);
    });
    return Math.round((agree / queries.length) * 1000) / 1000;
  };
  const variants: Array<[string, (q: Float32Array) => number[]]> = [
    ['sign bits only (JS)', (q) => codes.nearest(q, ['active'], 10, 10)],
    ['sign → int8, 200 candidates (JS fallback)', (q) => codes.nearest(q, ['active'], 200, 10)],
    ['int8 only (full scan, JS)', (q) => int8Scan(codes, q, 10)],
    ['int8 full scan (WebAssembly SIMD) → exact (default)', (q) => twoStage.search('u', q, 10, ['active']).map((h) => h.rowid)],
  ];
  twoStage.search('u', queries[0]!, 10, ['active']);
  const rows = variants.map(([variant, run]) => {
    let got: number[][] = [];
    const ms = cpu(() => (got = queries.map(run)));
    return { set, rows: vectors.length, variant, recallAt10: recall(got), cpuMsPerQuery: Math.round((ms / queries.length) * 1000) / 1000 };
  });
  const exactMs = cpu(() => queries.forEach((q) => exact.search('u', q, 10, ['active'])));
  rows.push({ set, rows: vectors.length, variant: 'vec0 exact scan', recallAt10: 1, cpuMsPerQuery: Math.round((exactMs / queries.length) * 1000) / 1000 });
  db.close();
  return rows;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
