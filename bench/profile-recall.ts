/**
 * Where one recall's time goes, stage by stage, for one user among 100: each stage of the
 * pipeline called on its own, the stages interleaved query by query (so a burst of load on a
 * shared machine hits them alike), p50 / p95 and each stage's share of the sum.
 *
 * Run: npx tsx bench/profile-recall.ts [memories ...]      (default 10000; e.g. 10000 100000)
 * For instruction counts instead of wall time (repeatable on a loaded machine):
 *   valgrind --tool=callgrind node --import tsx bench/profile-recall.ts 10000
 * For where time goes inside a stage: node --cpu-prof --import tsx bench/profile-recall.ts 10000
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory } from '../src/memory.js';
import { findCandidates } from '../src/recall/candidates.js';
import { RECIPES } from '../src/recall/recipes.js';
import { scoreCandidates } from '../src/recall/score-candidates.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { indexTerms } from '../src/text/segment.js';
import { quantile, table } from './report.js';
import { bulkInsert, queryText, rng, unitVector } from './synthetic.js';

const D = 512;
const STUB = 'bench-random@512';
const TARGET = 'user-0';

export interface StageTimes {
  memories: number;
  queries: number;
  /** stage -> [p50, p95] in ms. */
  stages: Record<string, [number, number]>;
}

/** Times every stage of recall at each size; returns the rows and a printable table. */
export async function profileRecall(sizes: readonly number[], queries = 100, log: (line: string) => void = console.log): Promise<{ rows: StageTimes[]; text: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-profile-'));
  const rows: StageTimes[] = [];
  try {
    const store = openSqliteStore({ path: join(dir, 'p.db') });
    await store.bindEmbedder({ id: STUB, dimensions: D });
    await bulkInsert(store, { users: Array.from({ length: 99 }, (_, i) => `user-${i + 1}`), perUser: 10, embedderId: STUB, dimensions: D, seed: 1 });
    const r = rng(42);
    const texts = Array.from({ length: queries }, () => queryText(r));
    const vectors = texts.map(() => unitVector(r, D));
    let next = 0;
    const engine = createMemory({ store, embedder: { id: STUB, dimensions: D, embed: (t) => Promise.resolve(t.map(() => vectors[next++ % vectors.length]!)) } });
    const config = RECIPES.hybrid;
    const k = config.candidates;
    let have = 0;
    for (const size of sizes) {
      log(`  profile: loading ${size.toLocaleString('en')} memories`);
      await bulkInsert(store, { users: [TARGET], perUser: size - have, embedderId: STUB, dimensions: D, seed: size });
      have = size;
      const samples = new Map<string, number[]>();
      const time = async <T>(stage: string, fn: () => Promise<T> | T): Promise<T> => {
        const t = performance.now();
        const out = await fn();
        const list = samples.get(stage) ?? [];
        list.push(performance.now() - t);
        samples.set(stage, list);
        return out;
      };
      // Warm-up: statement caches, the user's codes, the page cache.
      for (let i = 0; i < 5; i++) await engine.recall({ userId: TARGET, query: texts[i]!, touch: false });
      for (let i = 0; i < queries; i++) {
        const vector = vectors[i]!;
        const terms = await time('segment query', () => indexTerms(texts[i]!));
        const vhits = await time('vector search (k=60)', () => store.searchVector({ userId: TARGET, vector, k }));
        const khits = await time('keyword search (BM25, k=60)', () => store.searchKeyword({ userId: TARGET, terms, k, bm25: config.bm25 }));
        const ids = [...new Set([...vhits, ...khits].map((h) => h.id))];
        const memories = await time('ranking fields (listRankingFields)', () => store.listRankingFields({ userId: TARGET, ids }));
        await time('row loading (listMemories, top 10)', () => store.listMemories({ userId: TARGET, ids: ids.slice(0, 10) }));
        const vset = new Set(vhits.map((h) => h.id));
        await time('vectors of keyword-only hits', () => store.vectorsOf(TARGET, ids.filter((id) => !vset.has(id))));
        await time('fusion + ranking', () => {
          const c = { vectorScores: new Map(vhits.map((h) => [h.id, h.score])), keywordScores: new Map(khits.map((h) => [h.id, h.score])), coverage: new Map(khits.map((h) => [h.id, h.coverage ?? 0])) };
          return scoreCandidates({ ids: memories.map((m) => m.id), ...c, config });
        });
        await time('recordAccess (10 ids)', () => store.recordAccess(TARGET, memories.slice(0, 10).map((m) => m.id), new Date()));
        await time('whole recall (touch off)', () => engine.recall({ userId: TARGET, query: texts[i]!, touch: false }));
        await time('whole recall (touch on)', () => engine.recall({ userId: TARGET, query: texts[i]!, touch: true }));
        await time('findCandidates (embed stub + both searches)', () =>
          findCandidates({
            query: texts[i]!,
            config,
            embedder: { id: STUB, dimensions: D, embed: () => Promise.resolve([vector]) },
            searchVector: (v) => store.searchVector({ userId: TARGET, vector: v, k }),
            searchKeyword: (t) => store.searchKeyword({ userId: TARGET, terms: t, k, bm25: config.bm25 }),
          }),
        );
      }
      const stages: StageTimes['stages'] = {};
      for (const [stage, list] of samples) stages[stage] = [round(quantile(list, 0.5)), round(quantile(list, 0.95))];
      rows.push({ memories: size, queries, stages });
      log(format(rows.at(-1)!));
    }
    await store.close();
    return { rows, text: rows.map(format).join('\n\n') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

const PARTS = ['segment query', 'vector search (k=60)', 'keyword search (BM25, k=60)', 'ranking fields (listRankingFields)', 'row loading (listMemories, top 10)', 'vectors of keyword-only hits', 'fusion + ranking'];

function format(row: StageTimes): string {
  const sum = PARTS.reduce((a, s) => a + (row.stages[s]?.[0] ?? 0), 0);
  return [
    `Recall stages at ${row.memories.toLocaleString('en')} memories (one user among 100), ${row.queries} queries, ms; share = of the sum of the recall stages' p50`,
    '',
    table(
      ['stage', 'p50', 'p95', 'share'],
      Object.entries(row.stages).map(([s, [p50, p95]]) => [s, p50.toFixed(3), p95.toFixed(3), PARTS.includes(s) ? `${Math.round((p50 / sum) * 100)} %` : '']),
    ),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  await profileRecall(sizes.length > 0 ? sizes : [10_000]);
}

