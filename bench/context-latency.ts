/**
 * Context build latency for one user with 10,000 memories and 50,000 messages (issue 17 target:
 * p95 ≤ 30 ms). Rows get random unit vectors of the bundled embedder's dimension and bilingual
 * template texts (bench/synthetic.ts): a brute-force KNN costs the same whatever the vectors hold,
 * and embedding 60,000 texts with the real model would take about 20 minutes here. The query
 * vector is precomputed, as in bench/latency.ts; the bundled model's query embedding is timed apart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBundledEmbedder } from '../src/embedders/index.js';
import type { Embedder } from '../src/embedders/embedder.js';
import { createMemory, type MemoryEngine } from '../src/memory.js';
import type { Store } from '../src/store/store.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { fixedClock } from '../src/testing/clock.js';
import { median, quantile } from './report.js';
import { bulkInsert, memoryText, queryText, rng, unitVector } from './synthetic.js';

const DIMENSIONS = 512;
const STUB_ID = 'bench-random@512';
const USER = 'user-0';

export interface ContextLatency {
  memories: number;
  messages: number;
  queries: number;
  p50: number;
  p95: number;
  /** Median ms to embed one query with the bundled model. */
  embedMs: number;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

export interface ContextLatencyFixture {
  engine: MemoryEngine;
  store: Store;
  userId: string;
  /** Query texts drawn from the fixture's vocabulary. */
  texts: string[];
  close(): Promise<void>;
}

/** One user with `memories` memories and `messages` messages (100 per session) in a temp SQLite file. */
export async function openContextLatencyFixture(options: { memories?: number; messages?: number; queries?: number } = {}): Promise<ContextLatencyFixture> {
  const memories = options.memories ?? 10_000;
  const messages = options.messages ?? 50_000;
  const queries = options.queries ?? 200;
  const dir = mkdtempSync(join(tmpdir(), 'engram-context-'));
  const store = openSqliteStore({ path: join(dir, 'bench.db') });
  await store.bindEmbedder({ id: STUB_ID, dimensions: DIMENSIONS });
  await bulkInsert(store, { users: [USER], perUser: memories, embedderId: STUB_ID, dimensions: DIMENSIONS, seed: 17 });
  const r = rng(23);
  const perSession = 100;
  const base = Date.UTC(2025, 0, 1);
  for (let s = 0; s * perSession < messages; s++) {
    const rows = Array.from({ length: Math.min(perSession, messages - s * perSession) }, (_, i) => ({
      id: `msg-${s}-${i}`,
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: memoryText(r).replace(/^The user|^用户/u, (w) => (w === '用户' ? '我' : 'I')),
      createdAt: new Date(base + (s * perSession + i) * 60_000),
      vector: unitVector(r, DIMENSIONS),
      embedderId: STUB_ID,
    }));
    await store.appendMessages(USER, `session-${s}`, rows);
  }
  const vectors = Array.from({ length: 64 }, () => unitVector(r, DIMENSIONS));
  let next = 0;
  const embedder: Embedder = { id: STUB_ID, dimensions: DIMENSIONS, embed: (texts) => Promise.resolve(texts.map(() => vectors[next++ % vectors.length]!)) };
  const engine = createMemory({ store, embedder, clock: fixedClock('2025-06-01T00:00:00Z') });
  const texts = Array.from({ length: queries }, () => queryText(r));
  return {
    engine,
    store,
    userId: USER,
    texts,
    close: async () => {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function measureContextLatency(options: { memories?: number; messages?: number; queries?: number } = {}): Promise<ContextLatency> {
  const f = await openContextLatencyFixture(options);
  try {
    const { engine, texts } = f;
    for (const query of texts.slice(0, 10)) await engine.context({ userId: USER, query });
    const times: number[] = [];
    for (const query of texts) {
      const t = performance.now();
      await engine.context({ userId: USER, query });
      times.push(performance.now() - t);
    }
    const bundled = createBundledEmbedder();
    await bundled.embed(['warm up']);
    const embedTimes: number[] = [];
    for (const query of texts.slice(0, 20)) {
      const t = performance.now();
      await bundled.embed([query]);
      embedTimes.push(performance.now() - t);
    }
    return { memories: options.memories ?? 10_000, messages: options.messages ?? 50_000, queries: texts.length, p50: round2(median(times)), p95: round2(quantile(times, 0.95)), embedMs: round2(median(embedTimes)) };
  } finally {
    await f.close();
  }
}
