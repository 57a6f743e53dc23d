/**
 * Recall latency, insert throughput and the vec0 chunk_size trade-off, on synthetic data.
 *
 * Bulk memories get random unit vectors of the bundled embedder's dimension (512): embedding
 * 100,000 texts with the real model would take about half an hour here, and a brute-force KNN
 * costs the same whatever the vectors hold. Texts are bilingual sentences from templates, so the
 * keyword index sees realistic terms.
 */
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBundledEmbedder, createHashEmbedder } from '../src/embedders/index.js';
import type { Embedder } from '../src/embedders/embedder.js';
import { createMemory, type MemoryEngine } from '../src/memory.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { DEFAULT_CHUNK_SIZE } from '../src/store/sqlite/vector-index.js';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { toFloats } from '../src/store/sqlite/vector-cache.js';
import { VectorIndex } from '../src/store/sqlite/vector-index.js';
import { median, quantile, table } from './report.js';
import { bulkInsert, memoryText, queryText, rng, unitVector } from './synthetic.js';
import { floorScan, overlapAt10, p95 } from './vector-stages.js';

const DIMENSIONS = 512;
const STUB_ID = 'bench-random@512';
const TARGET = 'user-0';

export interface Spread {
  min: number;
  median: number;
  max: number;
}
export interface LatencyRow {
  memories: number;
  /** Queries per round for this size. */
  queries: number;
  /** Milliseconds: min / median / max over rounds of each round's p50 and p95 (whole recall, two-stage vector search: the default). */
  searchP50: Spread;
  searchP95: Spread;
  /** The same recall with vec0's exact scan (the previous default), same file, rounds interleaved. */
  exactSearchP50?: Spread;
  exactSearchP95?: Spread;
  /** The vector step alone (k = 60, as recall asks): p95 of two-stage, vec0 exact, and a JS brute-force scan over one Float32Array (the floor). */
  vectorTwoStageP95?: Spread;
  vectorExactP95?: Spread;
  vectorFloorP95?: Spread;
  /** Share of the exact top 10 the two-stage search returns (random vectors: the worst case; see the vectors scenario for real embeddings). */
  twoStageRecallAt10?: number;
  /** Bytes of codes held in memory for this user. */
  codesBytes?: number;
  withEmbeddingP50?: Spread;
  withEmbeddingP95?: Spread;
}
export interface ChunkRow {
  chunkSize: number;
  users: number;
  fileBytes: number;
  bytesPerUser: number;
  /** Memories of the one user searched for the search column. */
  searchMemories: number;
  /** Whole recall (search only). */
  searchP95: Spread;
  /** The vector KNN alone (store.searchVector, k = 60): what chunk_size changes. */
  knnP95: Spread;
}
export interface LatencyResult {
  note: string;
  queries: { perRound: number; rounds: number; withEmbeddingPerRound: number };
  otherUsers: { users: number; memoriesEach: number };
  recall: LatencyRow[];
  throughput: { engineAddHashPerSec: number; storeInsertPerSec: number; storeInsertBatchedPerSec: number; counts: Record<string, number> };
  chunkSizes: ChunkRow[];
  defaultChunkSize: number;
}

export interface LatencyOptions {
  quick?: boolean;
  log?: (line: string) => void;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
const spread = (xs: readonly number[]): Spread => ({ min: round2(Math.min(...xs)), median: round2(median(xs)), max: round2(Math.max(...xs)) });
const fmt = (s: Spread | undefined): string => (s ? `${s.min} / ${s.median} / ${s.max}` : 'n/a');

/** An embedder that hands out precomputed vectors in turn: recall then times search alone. */
function precomputed(vectors: readonly Float32Array[]): Embedder {
  let i = 0;
  return { id: STUB_ID, dimensions: DIMENSIONS, embed: (texts) => Promise.resolve(texts.map(() => vectors[i++ % vectors.length]!)) };
}

/** The bundled model under the stub's id, so it can query a store bound to random vectors. */
function bundledAsStub(): Embedder {
  const inner = createBundledEmbedder();
  return { id: STUB_ID, dimensions: DIMENSIONS, embed: (texts) => inner.embed(texts) };
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'engram-bench-'));
}

function fileSize(path: string): number {
  return [path, `${path}-wal`].filter(existsSync).reduce((a, p) => a + statSync(p).size, 0);
}

/** Per round: p50 and p95 of `queries` recalls. */
async function timeRecall(engine: MemoryEngine, queries: readonly string[], rounds: number): Promise<{ p50: number[]; p95: number[] }> {
  const p50: number[] = [];
  const p95: number[] = [];
  // Warm-up: statement preparation and page cache.
  for (const query of queries.slice(0, 10)) await engine.recall({ userId: TARGET, query, limit: 10, touch: false });
  for (let round = 0; round < rounds; round++) {
    const times: number[] = [];
    for (const query of queries) {
      const t = performance.now();
      await engine.recall({ userId: TARGET, query, limit: 10, touch: false });
      times.push(performance.now() - t);
    }
    p50.push(quantile(times, 0.5));
    p95.push(quantile(times, 0.95));
  }
  return { p50, p95 };
}

async function openBound(path: string, chunkSize?: number, mode?: 'exact'): Promise<Store> {
  const store = openSqliteStore({ path, ...(chunkSize === undefined ? {} : { chunkSize }), ...(mode ? { vectorSearch: { mode } } : {}) });
  await store.bindEmbedder({ id: STUB_ID, dimensions: DIMENSIONS });
  return store;
}

export async function runLatency(options: LatencyOptions = {}): Promise<{ result: LatencyResult; text: string }> {
  const log = options.log ?? ((line: string) => console.log(line));
  const quick = options.quick ?? false;
  const sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  const rounds = quick ? 2 : 3;
  const perRound = quick ? 100 : 200;
  const withEmbeddingPerRound = quick ? 30 : 100;
  const others = { users: 99, memoriesEach: 10 };
  const r = rng(42);
  const queries = Array.from({ length: perRound }, () => queryText(r));
  const queryVectors = queries.map(() => unitVector(r, DIMENSIONS));
  const dir = tempDir();
  try {
    // 1. Recall latency as one user's memories grow, among 99 light users.
    const path = join(dir, 'latency.db');
    const store = await openBound(path);
    await bulkInsert(store, { users: Array.from({ length: others.users }, (_, i) => `user-${i + 1}`), perUser: others.memoriesEach, embedderId: STUB_ID, dimensions: DIMENSIONS, seed: 1 });
    const searchEngine = createMemory({ store, embedder: precomputed(queryVectors) });
    const embedEngine = createMemory({ store, embedder: bundledAsStub() });
    // A second connection on the same file with the previous default, vec0's exact scan.
    const exactStore = await openBound(path, undefined, 'exact');
    const exactEngine = createMemory({ store: exactStore, embedder: precomputed(queryVectors) });
    // The vector step alone, on a third connection: two-stage, exact, and the JS floor.
    const db = new Database(path);
    sqliteVec.load(db);
    const twoStageIndex = new VectorIndex(db, 'memory_vec', 'l2', { buildAfter: 1 });
    const exactIndex = new VectorIndex(db, 'memory_vec', 'l2', { mode: 'exact' });
    const rows: LatencyRow[] = [];
    let have = 0;
    let batchedRate = 0;
    for (const size of sizes) {
      log(`  latency: loading ${size.toLocaleString('en')} memories for one user`);
      batchedRate = await bulkInsert(store, { users: [TARGET], perUser: size - have, embedderId: STUB_ID, dimensions: DIMENSIONS, seed: size });
      have = size;
      // At 100,000 the exact scan takes far longer, so fewer queries keep the run bounded.
      const n = size >= 100_000 ? Math.min(perRound, 50) : perRound;
      const vectorRows = db.prepare('SELECT embedding FROM memory_vec WHERE user_id = ?').all(TARGET) as Array<{ embedding: Buffer }>;
      const all = new Float32Array(vectorRows.length * DIMENSIONS);
      vectorRows.forEach((row, j) => all.set(toFloats(row.embedding), j * DIMENSIONS));
      twoStageIndex.search(TARGET, queryVectors[0]!, 60, ['active']);
      const two = { p50: [] as number[], p95: [] as number[] };
      const exact = { p50: [] as number[], p95: [] as number[] };
      const vec = { two: [] as number[], exact: [] as number[], floor: [] as number[] };
      // Rounds interleave the variants, so a burst of load on this machine hits them alike.
      for (let round = 0; round < rounds; round++) {
        const a = await timeRecall(searchEngine, queries.slice(0, n), 1);
        const b = await timeRecall(exactEngine, queries.slice(0, n), 1);
        two.p50.push(a.p50[0]!), two.p95.push(a.p95[0]!), exact.p50.push(b.p50[0]!), exact.p95.push(b.p95[0]!);
        vec.two.push(p95((q) => twoStageIndex.search(TARGET, queryVectors[q]!, 60, ['active']), n));
        vec.exact.push(p95((q) => exactIndex.search(TARGET, queryVectors[q]!, 60, ['active']), n));
        vec.floor.push(p95((q) => floorScan(all, vectorRows.length, queryVectors[q]!, 60), n));
      }
      let agree = 0;
      for (let q = 0; q < n; q++) agree += overlapAt10(twoStageIndex.search(TARGET, queryVectors[q]!, 10, ['active']), exactIndex.search(TARGET, queryVectors[q]!, 10, ['active']));
      const embedded = await timeRecall(embedEngine, queries.slice(0, Math.min(n, withEmbeddingPerRound)), rounds);
      const codesBytes = (twoStageIndex as unknown as { cache: { sizes(): Map<string, number> } }).cache.sizes().get(TARGET) ?? 0;
      rows.push({
        memories: size,
        queries: n,
        searchP50: spread(two.p50),
        searchP95: spread(two.p95),
        exactSearchP50: spread(exact.p50),
        exactSearchP95: spread(exact.p95),
        vectorTwoStageP95: spread(vec.two),
        vectorExactP95: spread(vec.exact),
        vectorFloorP95: spread(vec.floor),
        twoStageRecallAt10: Math.round((agree / n) * 1000) / 1000,
        codesBytes,
        withEmbeddingP50: spread(embedded.p50),
        withEmbeddingP95: spread(embedded.p95),
      });
      log(`    search p95 median ${rows.at(-1)!.searchP95.median} ms (exact ${rows.at(-1)!.exactSearchP95!.median}), vector step ${rows.at(-1)!.vectorTwoStageP95!.median} / ${rows.at(-1)!.vectorExactP95!.median} / floor ${rows.at(-1)!.vectorFloorP95!.median}`);
    }
    db.close();
    await exactStore.close();
    await store.close();

    // 2. Insert throughput.
    log('  throughput');
    const n = quick ? 300 : 1000;
    const addStore = openSqliteStore({ path: join(dir, 'add.db') });
    const adder = createMemory({ store: addStore, embedder: createHashEmbedder({ dimensions: DIMENSIONS }) });
    const tr = rng(5);
    let t = performance.now();
    for (let i = 0; i < n; i++) await adder.add({ userId: `u${i % 10}`, content: memoryText(tr) });
    const engineAddHashPerSec = n / ((performance.now() - t) / 1000);
    await adder.close();
    const rawStore = await openBound(join(dir, 'raw.db'));
    const storeInsertPerSec = await bulkInsert(rawStore, { users: Array.from({ length: 10 }, (_, i) => `u${i}`), perUser: n / 10, embedderId: STUB_ID, dimensions: DIMENSIONS, seed: 9, batch: 1 });
    await rawStore.close();

    // 3. vec0 chunk_size: disk per user with many small users, and search for one larger user.
    const chunkRows: ChunkRow[] = [];
    const manyUsers = quick ? 500 : 10_000;
    const searchSize = quick ? 2_000 : 10_000;
    const chunkSizes = [8, 32, 128, 1024];
    const searchStores: Array<{ chunkSize: number; engine: MemoryEngine; store: Store }> = [];
    for (const chunkSize of chunkSizes) {
      // chunk_size 1024 reserves ~2 MB per user: 10,000 users would write ~20 GB, so fewer users, scaled per user.
      const users = chunkSize >= 1024 ? Math.min(manyUsers, quick ? 50 : 250) : manyUsers;
      log(`  chunk_size ${chunkSize}: ${users.toLocaleString('en')} users × 5 memories, then one user × ${searchSize.toLocaleString('en')}`);
      const emptyPath = join(dir, `empty-${chunkSize}.db`);
      await (await openBound(emptyPath, chunkSize)).close();
      const path = join(dir, `chunk-${chunkSize}.db`);
      const s = await openBound(path, chunkSize);
      await bulkInsert(s, { users: Array.from({ length: users }, (_, i) => `c${i}`), perUser: 5, embedderId: STUB_ID, dimensions: DIMENSIONS, seed: 3 });
      await s.close();
      const fileBytes = fileSize(path);
      rmSync(path, { force: true });
      chunkRows.push({ chunkSize, users, fileBytes, bytesPerUser: Math.round((fileBytes - fileSize(emptyPath)) / users), searchMemories: searchSize, searchP95: spread([NaN]), knnP95: spread([NaN]) });
      const searchPath = join(dir, `search-${chunkSize}.db`);
      const ss = await openBound(searchPath, chunkSize);
      await bulkInsert(ss, { users: [TARGET], perUser: searchSize, embedderId: STUB_ID, dimensions: DIMENSIONS, seed: 4 });
      searchStores.push({ chunkSize, store: ss, engine: createMemory({ store: ss, embedder: precomputed(queryVectors) }) });
    }
    // Rounds interleave the chunk sizes, so a burst of load on this machine hits them alike.
    const chunkQueries = queries.slice(0, quick ? 50 : 100);
    const recallP95 = new Map<number, number[]>(chunkSizes.map((c) => [c, []]));
    const knnP95 = new Map<number, number[]>(chunkSizes.map((c) => [c, []]));
    for (let round = 0; round < rounds; round++) {
      for (const { chunkSize, engine, store: ss } of searchStores) {
        recallP95.get(chunkSize)!.push((await timeRecall(engine, chunkQueries, 1)).p95[0]!);
        const times: number[] = [];
        for (const v of queryVectors.slice(0, chunkQueries.length)) {
          const t0 = performance.now();
          await ss.searchVector({ userId: TARGET, vector: v, k: 60 });
          times.push(performance.now() - t0);
        }
        knnP95.get(chunkSize)!.push(quantile(times, 0.95));
      }
    }
    for (const row of chunkRows) {
      row.searchP95 = spread(recallP95.get(row.chunkSize)!);
      row.knnP95 = spread(knnP95.get(row.chunkSize)!);
    }
    for (const { store: ss } of searchStores) await ss.close();

    const result: LatencyResult = {
      note: 'Bulk memories carry random unit vectors (512 dims): embedding 100,000 texts with the bundled model is too slow for a benchmark run. Search-only timings use a precomputed query vector; "with embedding" runs the bundled model on each query.',
      queries: { perRound, rounds, withEmbeddingPerRound },
      otherUsers: others,
      recall: rows,
      throughput: {
        engineAddHashPerSec: Math.round(engineAddHashPerSec),
        storeInsertPerSec: Math.round(storeInsertPerSec),
        storeInsertBatchedPerSec: Math.round(batchedRate),
        counts: { engineAdd: n, storeInsert: n },
      },
      chunkSizes: chunkRows,
      defaultChunkSize: DEFAULT_CHUNK_SIZE,
    };
    return { result, text: formatLatency(result) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatLatency(r: LatencyResult): string {
  const lines: string[] = [];
  lines.push(
    `Recall latency, one user among ${r.otherUsers.users + 1} (others ${r.otherUsers.memoriesEach} memories each), limit 10; ms, min / median / max over ${r.queries.rounds} rounds of ${r.queries.perRound} queries (${r.queries.withEmbeddingPerRound} with embedding); variants interleaved round by round`,
  );
  lines.push('');
  lines.push(
    table(
      ['memories', 'queries/round', 'search p50 (two-stage)', 'search p95 (two-stage)', 'search p95 (old exact)', 'with embedding p95'],
      r.recall.map((row) => [row.memories.toLocaleString('en'), String(row.queries), fmt(row.searchP50), fmt(row.searchP95), fmt(row.exactSearchP95), fmt(row.withEmbeddingP95)]),
    ),
  );
  lines.push('');
  lines.push('The vector step alone (k = 60, as recall asks), p95 ms, min / median / max over rounds; R@10 = share of the exact top 10 the two-stage search returns on these random vectors (the worst case: see the vectors scenario for real embeddings)');
  lines.push('');
  lines.push(
    table(
      ['memories', 'two-stage', 'vec0 exact (old)', 'brute-force floor (JS, top-k)', 'two-stage R@10 vs exact', 'codes MB'],
      r.recall.map((row) => [row.memories.toLocaleString('en'), fmt(row.vectorTwoStageP95), fmt(row.vectorExactP95), fmt(row.vectorFloorP95), row.twoStageRecallAt10?.toFixed(3) ?? 'n/a', row.codesBytes === undefined ? 'n/a' : (row.codesBytes / 2 ** 20).toFixed(1)]),
    ),
  );
  lines.push(r.note);
  lines.push('');
  lines.push('Insert throughput (memories/s)');
  lines.push('');
  lines.push(
    table(
      ['path', 'memories/s'],
      [
        ['engine.add, hash embedder (512 dims), one at a time', String(r.throughput.engineAddHashPerSec)],
        ['store.insertMemory, one transaction each', String(r.throughput.storeInsertPerSec)],
        ['store.insertMemory, 1,000 per transaction (bulk load)', String(r.throughput.storeInsertBatchedPerSec)],
      ],
    ),
  );
  lines.push('');
  const searched = r.chunkSizes[0]?.searchMemories.toLocaleString('en') ?? '?';
  lines.push(`vec0 chunk_size (store default ${r.defaultChunkSize}): disk for many users with 5 memories each, and p95 for one user with ${searched} memories (ms, min / median / max over rounds, chunk sizes interleaved)`);
  lines.push('');
  lines.push(
    table(
      ['chunk_size', 'users', 'file MB', 'KB per user', `recall p95 at ${searched} (ms)`, `vector KNN p95 at ${searched} (ms)`],
      r.chunkSizes.map((c) => [String(c.chunkSize), c.users.toLocaleString('en'), (c.fileBytes / 2 ** 20).toFixed(1), (c.bytesPerUser / 1024).toFixed(1), fmt(c.searchP95), fmt(c.knnP95)]),
    ),
  );
  return lines.join('\n');
}
