/**
 * The vector step alone, side by side in one run: the two-stage search (in-process codes, then
 * exact rescoring; the store default), vec0's exact float scan (the previous default), and a
 * plain brute-force dot product over one Float32Array in this process (the floor: no SQLite, no
 * codes). Also the whole recall (search only) with the default, and the two-stage recall@10
 * against exact on random vectors and on LoCoMo's bundled-embedder vectors.
 *
 * Run: npm run bench -- --only vectors   (or --quick for 1,000 and 10,000 only)
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sqliteVec from 'sqlite-vec';
import type { Embedder } from '../src/embedders/embedder.js';
import { createMemory } from '../src/memory.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { toFloats } from '../src/store/sqlite/vector-cache.js';
import { VectorIndex } from '../src/store/sqlite/vector-index.js';
import { createHashEmbedder } from '../src/embedders/index.js';
import { codeVariants, type VariantRow } from './code-variants.js';
import { benchEmbedder } from './locomo.js';
import { loadLocomo } from './locomo-data.js';
import { median, quantile, table } from './report.js';
import { bulkInsert, memoryText, queryText, rng, unitVector } from './synthetic.js';

const D = 512;
const STUB_ID = 'bench-random@512';
const TARGET = 'user-0';

interface Spread {
  min: number;
  median: number;
  max: number;
}
interface StageRow {
  memories: number;
  k: number;
  /** p95 in ms over rounds (min / median / max). */
  twoStage: Spread;
  exact: Spread;
  floor: Spread;
  recallSearchP95: Spread;
  /** Share of exact top 10 the two-stage search also returns (k = 10 and the recall's k = 60). */
  recallAt10: number;
  /** Bytes of codes held for the user. */
  cacheBytes: number;
}
export interface VectorStagesResult {
  rows: StageRow[];
  /** Binary against int8 codes on random, synthetic-text and LoCoMo vectors. */
  variants: VariantRow[];
  locomo: { rows: number; queries: number; recallAt10: Record<string, number> } | undefined;
  note: string;
}

const r2 = (x: number): number => Math.round(x * 100) / 100;
const spread = (xs: readonly number[]): Spread => ({ min: r2(Math.min(...xs)), median: r2(median(xs)), max: r2(Math.max(...xs)) });
const fmt = (s: Spread): string => `${s.min} / ${s.median} / ${s.max}`;

export function p95(fn: (i: number) => unknown, n: number): number {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn(i);
    times.push(performance.now() - t);
  }
  return quantile(times, 0.95);
}

export function overlapAt10(a: ReadonlyArray<{ rowid: number; score: number }>, b: ReadonlyArray<{ rowid: number; score: number }>): number {
  const tenth = b[Math.min(9, b.length - 1)]?.score ?? -Infinity;
  return a.slice(0, 10).filter((h) => h.score >= tenth - 1e-6).length / Math.min(10, b.length || 1);
}

/** Brute force over the user's vectors in one array, with a top-k selection: the floor for any exact scan. */
export function floorScan(all: Float32Array, n: number, q: Float32Array, k: number): number[] {
  const top: number[] = [];
  const topScores: number[] = [];
  for (let i = 0; i < n; i++) {
    let s = 0;
    const o = i * D;
    for (let j = 0; j < D; j++) s += all[o + j]! * q[j]!;
    if (top.length === k && s <= topScores[k - 1]!) continue;
    let at = Math.min(top.length, k - 1);
    while (at > 0 && topScores[at - 1]! < s) at--;
    top.splice(at, 0, i);
    topScores.splice(at, 0, s);
    if (top.length > k) (top.pop(), topScores.pop());
  }
  return top;
}

export async function runVectorStages(options: { quick?: boolean; log?: (line: string) => void } = {}): Promise<{ result: VectorStagesResult; text: string }> {
  const log = options.log ?? ((line: string) => console.log(line));
  const sizes = options.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  const rounds = 3;
  const r = rng(7);
  const queries = Array.from({ length: 100 }, () => unitVector(r, D));
  const dir = mkdtempSync(join(tmpdir(), 'engram-vec-bench-'));
  const rows: StageRow[] = [];
  try {
    const path = join(dir, 'v.db');
    const store = openSqliteStore({ path });
    await store.bindEmbedder({ id: STUB_ID, dimensions: D });
    await bulkInsert(store, { users: Array.from({ length: 99 }, (_, i) => `user-${i + 1}`), perUser: 10, embedderId: STUB_ID, dimensions: D, seed: 1 });
    let i = 0;
    const precomputed: Embedder = { id: STUB_ID, dimensions: D, embed: (texts) => Promise.resolve(texts.map(() => queries[i++ % queries.length]!)) };
    const engine = createMemory({ store, embedder: precomputed });
    const texts = queries.map(() => queryText(r));
    const db = new Database(path);
    sqliteVec.load(db);
    const twoStage = new VectorIndex(db, 'memory_vec', 'l2', { buildAfter: 1 });
    const exact = new VectorIndex(db, 'memory_vec', 'l2', { mode: 'exact' });
    let have = 0;
    for (const size of sizes) {
      log(`  vectors: loading ${size.toLocaleString('en')} for one user`);
      await bulkInsert(store, { users: [TARGET], perUser: size - have, embedderId: STUB_ID, dimensions: D, seed: size });
      have = size;
      const rowsOf = db.prepare('SELECT embedding FROM memory_vec WHERE user_id = ?').all(TARGET) as Array<{ embedding: Buffer }>;
      const all = new Float32Array(rowsOf.length * D);
      rowsOf.forEach((row, j) => all.set(toFloats(row.embedding), j * D));
      const n = size >= 100_000 ? 30 : 100;
      for (const k of [10, 60]) {
        twoStage.search(TARGET, queries[0]!, k, ['active']);
        const t2: number[] = [];
        const te: number[] = [];
        const tf: number[] = [];
        const tr: number[] = [];
        for (let round = 0; round < rounds; round++) {
          t2.push(p95((q) => twoStage.search(TARGET, queries[q]!, k, ['active']), n));
          te.push(p95((q) => exact.search(TARGET, queries[q]!, k, ['active']), n));
          tf.push(p95((q) => floorScan(all, rowsOf.length, queries[q]!, k), n));
          if (k === 60) {
            const times: number[] = [];
            for (let q = 0; q < n; q++) {
              const t = performance.now();
              await engine.recall({ userId: TARGET, query: texts[q]!, limit: 10, touch: false });
              times.push(performance.now() - t);
            }
            tr.push(quantile(times, 0.95));
          }
        }
        let agree = 0;
        for (let q = 0; q < n; q++) agree += overlapAt10(twoStage.search(TARGET, queries[q]!, k, ['active']), exact.search(TARGET, queries[q]!, k, ['active']));
        rows.push({
          memories: size,
          k,
          twoStage: spread(t2),
          exact: spread(te),
          floor: spread(tf),
          recallSearchP95: tr.length > 0 ? spread(tr) : { min: NaN, median: NaN, max: NaN },
          recallAt10: Math.round((agree / n) * 1000) / 1000,
          cacheBytes: 0,
        });
        log(`    k=${k}: two-stage ${fmt(rows.at(-1)!.twoStage)}, exact ${fmt(rows.at(-1)!.exact)}, floor ${fmt(rows.at(-1)!.floor)}, recall@10 ${rows.at(-1)!.recallAt10}`);
      }
      const bytes = (twoStage as unknown as { cache: { sizes(): Map<string, number> } }).cache.sizes().get(TARGET) ?? 0;
      for (const row of rows) if (row.memories === size) row.cacheBytes = bytes;
    }
    db.close();
    await store.close();
    log('  vectors: binary against int8 codes');
    const variants: VariantRow[] = [];
    const vr = rng(11);
    variants.push(...codeVariants('random unit vectors', Array.from({ length: 10_000 }, () => unitVector(vr, D)), Array.from({ length: 100 }, () => unitVector(vr, D))));
    // Structured like real text: the deterministic hash embedder over the synthetic bilingual sentences.
    const hash = createHashEmbedder({ dimensions: D });
    variants.push(...codeVariants('synthetic texts, hash embedder', await hash.embed(Array.from({ length: 10_000 }, () => memoryText(vr))), await hash.embed(Array.from({ length: 100 }, () => queryText(vr)))));
    const locomo = await locomoRecall(log, variants);
    const result: VectorStagesResult = { rows, variants, locomo, note: NOTE };
    return { result, text: format(result) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const NOTE =
  'Random unit vectors (512 dims) are the worst case for any code: with no structure, the true top 10 (cosine ≈ 0.17) stand barely above the bulk (σ ≈ 0.044), so sign codes need thousands of candidates to find them (the 1,000-candidate row); embeddings of text put a query\'s neighbours far above the bulk, where 200 candidates suffice (the synthetic-text and LoCoMo rows). Timings on a shared 2-core machine: noisy, min / median / max over 3 rounds of per-round p95.';

/** All of LoCoMo's turns as one user's rows (bundled embedder, cached), every question a query. */
async function locomoRecall(log: (line: string) => void, variants: VariantRow[]): Promise<VectorStagesResult['locomo']> {
  let data;
  try {
    data = loadLocomo();
  } catch (error) {
    log(`  vectors: LoCoMo skipped (${(error as Error).message.split('\n')[0]})`);
    return undefined;
  }
  const embedder = benchEmbedder(log);
  const turns = data.flatMap((c) => c.turns.map((t) => t.content));
  const questions = data.flatMap((c) => c.questions.map((q) => q.question.trim()));
  const [tv, qv] = [await embedder.embed(turns), await embedder.embed(questions)];
  variants.push(...codeVariants('LoCoMo turns, bundled embedder', tv, qv));
  const db = new Database(':memory:');
  sqliteVec.load(db);
  VectorIndex.create(db, 'v', embedder.dimensions);
  const twoStage = new VectorIndex(db, 'v', 'l2', { buildAfter: 1 });
  const exact = new VectorIndex(db, 'v', 'l2', { mode: 'exact' });
  db.transaction(() => tv.forEach((v, i) => twoStage.upsert(i + 1, 'u', 'active', v)))();
  const recallAt10: Record<string, number> = {};
  for (const k of [10, 60]) {
    let agree = 0;
    for (const q of qv) agree += overlapAt10(twoStage.search('u', q, k, ['active']), exact.search('u', q, k, ['active']));
    recallAt10[`k=${k}`] = Math.round((agree / qv.length) * 1000) / 1000;
  }
  db.close();
  return { rows: turns.length, queries: questions.length, recallAt10 };
}

function format(r: VectorStagesResult): string {
  const lines = ['Vector step for one user among 100 (ms, p95 per round: min / median / max over 3 rounds); recall = whole recall, search only, limit 10', ''];
  lines.push(
    table(
      ['memories', 'k', 'two-stage', 'vec0 exact', 'brute-force floor (JS)', 'recall p95', 'two-stage R@10 vs exact', 'codes MB'],
      r.rows.map((x) => [x.memories.toLocaleString('en'), String(x.k), fmt(x.twoStage), fmt(x.exact), fmt(x.floor), x.k === 60 ? fmt(x.recallSearchP95) : '', x.recallAt10.toFixed(3), (x.cacheBytes / 2 ** 20).toFixed(1)]),
    ),
  );
  lines.push('', 'Binary against int8 codes (k = 10): recall@10 against the exact scan, and CPU ms per query (process CPU time, which load inflates least)', '');
  lines.push(table(['vectors', 'rows', 'variant', 'R@10 vs exact', 'CPU ms / query'], r.variants.map((v) => [v.set, v.rows.toLocaleString('en'), v.variant, v.recallAt10.toFixed(3), v.cpuMsPerQuery.toFixed(3)])));
  if (r.locomo) lines.push('', `LoCoMo (bundled embedder, ${r.locomo.rows} turns as one user, ${r.locomo.queries} questions): two-stage R@10 vs exact ${Object.entries(r.locomo.recallAt10).map(([k, v]) => `${k}: ${v.toFixed(3)}`).join(', ')}`);
  lines.push(r.note);
  return lines.join('\n');
}
