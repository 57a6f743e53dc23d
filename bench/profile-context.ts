/**
 * Where the context build's time goes at 10,000 memories + 50,000 messages for one user: the
 * whole build, then each stage timed on its own in the same run (compare figures within one run
 * only: the machine is shared). Run: npx tsx bench/profile-context.ts [memories] [messages]
 */
import { findExcerpts } from '../src/context/excerpts.js';
import { ContextRanking } from '../src/context/rank-evidence.js';
import { rankMemories, recall } from '../src/pipelines/recall.js';
import { recallEpisodes } from '../src/pipelines/recall-episodes.js';
import { searchMessages } from '../src/pipelines/search-messages.js';
import type { MemoryDeps } from '../src/pipelines/deps.js';
import { indexTerms } from '../src/text/segment.js';
import { fixedClock } from '../src/testing/clock.js';
import { openContextLatencyFixture } from './context-latency.js';
import { quantile } from './report.js';
import { rng, unitVector } from './synthetic.js';

const memories = Number(process.argv[2] ?? 10_000);
const messages = Number(process.argv[3] ?? 50_000);
const f = await openContextLatencyFixture({ memories, messages, queries: 60 });
const { engine, store, userId, texts } = f;
const r = rng(5);
const vector = unitVector(r, 512);
const embedder = { id: 'bench-random@512', dimensions: 512, embed: (t: readonly string[]) => Promise.resolve(t.map(() => vector)) };
const deps = { store, embedder, clock: fixedClock('2025-06-01T00:00:00Z') } as unknown as MemoryDeps;
const ranking = ContextRanking.parse({});
const now = new Date('2025-06-01T00:00:00Z');

async function time(label: string, fn: (query: string) => Promise<unknown>): Promise<void> {
  for (const q of texts.slice(0, 5)) await fn(q);
  const t: number[] = [];
  for (const q of texts) {
    const s = performance.now();
    await fn(q);
    t.push(performance.now() - s);
  }
  console.log(`${label.padEnd(36)} p50 ${quantile(t, 0.5).toFixed(2).padStart(8)} ms  p95 ${quantile(t, 0.95).toFixed(2).padStart(8)} ms`);
}

console.log(`${memories} memories + ${messages} messages, ${texts.length} queries`);
await time('context (whole)', (query) => engine.context({ userId, query }));
await time('context, excerpts off', (query) => engine.context({ userId, query, excerpts: 'off' }));
await time('rankMemories (context recipe, limit 100)', (query) => rankMemories(deps, { userId, query, limit: 100, recipe: 'context', config: { minRelevance: 0.1 }, touch: false }));
await time('recall (context recipe, limit 100)', (query) => recall(deps, { userId, query, limit: 100, recipe: 'context', config: { minRelevance: 0.1 }, touch: false }));
await time('  before: episodes, a search of their own', (query) => recallEpisodes(deps, { userId, query, limit: 5, timeZone: 'UTC' }));
await time('  after: episodes from that recall', (query) => recallEpisodes(deps, { userId, query, limit: 5, timeZone: 'UTC', recalled: rankMemories(deps, { userId, query, limit: 100, recipe: 'context', config: { minRelevance: 0.1 }, touch: false }) }));
await time('findExcerpts (40 candidates)', (query) => findExcerpts(deps, { userId, query, now, ranking, windowMessages: 0, maxTokens: 120, candidates: 40 }));
await time('searchMessages limit 40', (query) => searchMessages(deps, { userId, query, limit: 40 }));
await time('  store.searchMessageVector k=60', () => store.searchMessageVector({ userId, vector, k: 60 }));
await time('  store.searchMessageKeyword k=60', (query) => store.searchMessageKeyword({ userId, terms: indexTerms(query), k: 60 }));
const seeds = (await store.searchMessageVector({ userId, vector, k: 60 })).map((h) => h.id);
await time('  store.messageNeighbours(60, r=1)', () => store.messageNeighbours(userId, seeds, 1));
const around = (await store.messageNeighbours(userId, seeds, 1)).map((m) => m.id);
await time('  store.messageVectorsOf(neighbours)', () => store.messageVectorsOf(userId, around));
// Before/after in this run: the point reads messageVectorsOf did before it used the cached codes,
// and message rowid lookups through the (user_id, …) index instead of by rowid.
type Internals = { db: import('better-sqlite3').Database; vec(c: string): { get(rid: number): Float32Array | undefined } | null };
const internals = store as unknown as Internals;
const aroundRids = (internals.db.prepare(`SELECT rid FROM messages WHERE user_id = ? AND id IN (${around.map(() => '?').join(', ')})`).all(userId, ...around) as Array<{ rid: number }>).map((r) => r.rid);
await time('    before: vec0 point read per neighbour', async () => aroundRids.map((rid) => internals.vec('messages')!.get(rid)));
const hitRids = aroundRids.slice(0, 60);
await time('    rowid -> id, by user_id index (before)', async () => internals.db.prepare(`SELECT rid, id FROM messages WHERE user_id = ? AND rid IN (${hitRids.map(() => '?').join(', ')})`).all(userId, ...hitRids));
await time('    rowid -> id, by rowid (after)', async () => internals.db.prepare(`SELECT rid, id FROM messages WHERE +user_id = ? AND rid IN (${hitRids.map(() => '?').join(', ')})`).all(userId, ...hitRids));
await time('  store.searchVector k=60 (memories)', () => store.searchVector({ userId, vector, k: 60 }));
await time('  store.searchKeyword k=60 (memories)', (query) => store.searchKeyword({ userId, terms: indexTerms(query), k: 60 }));
await time('  store.latestProfile + listTodos', () => Promise.all([store.latestProfile(userId), store.listTodos({ userId, completed: false })]));
await f.close();
