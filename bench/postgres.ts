/**
 * PostgreSQL next to SQLite in one run (issue 13): store-level search latency (vector k = 60 and
 * keyword k = 60, the two candidate searches of a recall) for one user among 100 at 1,000,
 * 10,000 memories, and insert throughput (transactions of 1,000 memories, as an import writes).
 * 10,000 and 100,000 memories (the full run; --quick: 1,000 only), and insert throughput
 * (transactions of 1,000 memories, as an import writes). Same synthetic data and random
 * 512-dimension unit vectors on both stores (bench/synthetic.ts). Both stores build a user's
 * in-process search data on the third search (SQLite's vector and keyword caches, PostgreSQL's
 * search cache): the first five searches are warm-up, and the slowest of them is reported apart
 * ("warm-up max"), so the one-off build cost is visible next to the steady state.
 * PostgreSQL is ENGRAM_BENCH_DATABASE_URL, else a throwaway cluster (scripts/pg-cluster.sh).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexTerms } from '../src/text/segment.js';
import { openPostgresStore } from '../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { quantile, table } from './report.js';
import { bulkInsert, queryText, rng, unitVector } from './synthetic.js';

const DIMENSIONS = 512;
const EMBEDDER = 'bench-random@512';
const OTHERS = 99;
const PER_OTHER = 20;
const QUERIES = 100;

export interface PostgresRow {
  store: 'sqlite' | 'postgres';
  memories: number;
  insertPerSec: number;
  vectorP50: number;
  vectorP95: number;
  keywordP50: number;
  keywordP95: number;
  /** The slowest of the five warm-up rounds (vector + keyword): the cache build shows here. */
  warmupMax: number;
}

async function measure(store: Store, kind: PostgresRow['store'], memories: number, seed: number): Promise<PostgresRow> {
  await store.bindEmbedder({ id: EMBEDDER, dimensions: DIMENSIONS });
  const others = Array.from({ length: OTHERS }, (_, i) => `other-${seed}-${i}`);
  await bulkInsert(store, { users: others, perUser: PER_OTHER, embedderId: EMBEDDER, dimensions: DIMENSIONS, seed: seed + 1 });
  const target = `target-${seed}`;
  const insertPerSec = await bulkInsert(store, { users: [target], perUser: memories, embedderId: EMBEDDER, dimensions: DIMENSIONS, seed });
  const r = rng(seed + 2);
  const vector: number[] = [];
  const keyword: number[] = [];
  let warmupMax = 0;
  for (let i = 0; i < QUERIES + 5; i++) {
    const q = unitVector(r, DIMENSIONS);
    const terms = indexTerms(queryText(r));
    let t = performance.now();
    await store.searchVector({ userId: target, vector: q, k: 60 });
    const v = performance.now() - t;
    t = performance.now();
    await store.searchKeyword({ userId: target, terms, k: 60 });
    const k = performance.now() - t;
    // The first five warm caches and connections on both stores.
    if (i >= 5) (vector.push(v), keyword.push(k));
    else warmupMax = Math.max(warmupMax, v + k);
  }
  return { store: kind, memories, insertPerSec, vectorP50: quantile(vector, 0.5), vectorP95: quantile(vector, 0.95), keywordP50: quantile(keyword, 0.5), keywordP95: quantile(keyword, 0.95), warmupMax };
}

function postgresUrl(): { url: string; stop: () => void } {
  const given = process.env.ENGRAM_BENCH_DATABASE_URL;
  if (given) return { url: given, stop: () => undefined };
  const script = join(import.meta.dirname, '..', 'scripts', 'pg-cluster.sh');
  const out = execFileSync(script, ['start'], { encoding: 'utf8' });
  const url = /ENGRAM_TEST_DATABASE_URL=(\S+)/.exec(out)?.[1];
  const dir = /ENGRAM_PG_CLUSTER=(\S+)/.exec(out)?.[1];
  if (!url || !dir) throw new Error(`pg-cluster.sh start printed no URL: ${out}`);
  return { url, stop: () => execFileSync(script, ['stop', dir]) };
}

export async function runPostgresBench(options: { quick: boolean }): Promise<{ result: unknown; text: string }> {
  const sizes = options.quick ? [1000] : [1000, 10_000, 100_000];
  const pg = postgresUrl();
  const rows: PostgresRow[] = [];
  try {
    for (const [i, size] of sizes.entries()) {
      const dir = mkdtempSync(join(tmpdir(), 'engram-bench-pg-'));
      const sqlite = openSqliteStore({ path: join(dir, 'bench.db') });
      rows.push(await measure(sqlite, 'sqlite', size, 100 + i));
      await sqlite.close();
      rmSync(dir, { recursive: true, force: true });
      const postgres = openPostgresStore({ url: pg.url, schema: `bench_${Date.now().toString(36)}_${i}` });
      rows.push(await measure(postgres, 'postgres', size, 100 + i));
      await postgres.close();
    }
  } finally {
    pg.stop();
  }
  const ms = (n: number) => n.toFixed(1);
  const text = [
    `Store-level search, one user among ${OTHERS + 1} (others hold ${PER_OTHER} memories each), ${QUERIES} queries; ms. Same run, same machine: compare rows side by side only.`,
    table(
      ['store', 'memories', 'insert/s', 'vector p50', 'vector p95', 'keyword p50', 'keyword p95', 'warm-up max'],
      rows.map((r) => [r.store, String(r.memories), r.insertPerSec.toFixed(0), ms(r.vectorP50), ms(r.vectorP95), ms(r.keywordP50), ms(r.keywordP95), ms(r.warmupMax)]),
    ),
  ].join('\n');
  return { result: { rows, dimensions: DIMENSIONS, queries: QUERIES }, text };
}
