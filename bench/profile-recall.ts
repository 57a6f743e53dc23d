/**
 * Where recall's time goes at 10,000 memories for one user: each store call timed on its own.
 * Run: npx tsx bench/profile-recall.ts [memories]
 */
import { createMemory } from '../src/memory.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { indexTerms } from '../src/text/segment.js';
import { memoryText, randomEmbedder, rng, syntheticMemory, unitVector } from './synthetic.js';

const N = Number(process.argv[2] ?? 10_000);
const D = 512;
const store = openSqliteStore({ path: ':memory:' });
const r = rng(42);
const query = unitVector(r, D);
const embedder = randomEmbedder('random@512', D);
const engine = createMemory({ store, embedder });
await engine.recall({ userId: 'warm', query: 'x' }).catch(() => undefined);
const now = new Date();
await store.transaction(async (tx) => {
  for (let i = 0; i < N; i++) {
    await tx.insertMemory(syntheticMemory('u', memoryText(r), now, embedder.id), unitVector(r, D), { actor: 'import' });
  }
});
const time = async (label: string, fn: () => Promise<unknown>, n = 40): Promise<void> => {
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await fn();
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  console.log(`${label.padEnd(28)} p50 ${t[Math.floor(n / 2)]!.toFixed(2)} ms  p95 ${t[Math.floor(n * 0.95)]!.toFixed(2)} ms`);
};
const q = 'What does the user like to eat on weekends in Tokyo?';
const terms = indexTerms(q);
const vhits = await store.searchVector({ userId: 'u', vector: query, k: 60 });
const khits = await store.searchKeyword({ userId: 'u', terms, k: 60 });
const ids = [...new Set([...vhits, ...khits].map((h) => h.id))];
console.log(`${N} memories, ${ids.length} candidates`);
await time('searchVector k=60', () => store.searchVector({ userId: 'u', vector: query, k: 60 }));
await time('searchKeyword k=60', () => store.searchKeyword({ userId: 'u', terms, k: 60 }));
await time('listMemories(ids)', () => store.listMemories({ userId: 'u', ids }));
await time('vectorsOf(keyword-only)', () => store.vectorsOf('u', khits.map((h) => h.id)));
await time('recall (whole, touch off)', () => engine.recall({ userId: 'u', query: q, touch: false }));
// Inside keyword search: per-term document counts, then the candidate query.
const db = (store as unknown as { db: import('better-sqlite3').Database }).db;
const { userToken } = await import('../src/store/sqlite/keyword-index.js');
const user = `user_tok:${userToken('u')}`;
const count = db.prepare('SELECT count(*) AS n FROM memory_fts WHERE memory_fts MATCH ?');
const cands = db.prepare('SELECT rowid, terms FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rank LIMIT 400');
const candsNoRank = db.prepare('SELECT rowid, terms FROM memory_fts WHERE memory_fts MATCH ?');
const quoted = [...new Set(terms)].map((t) => `"${t}"`);
console.log('terms', quoted.join(' '), quoted.map((t) => (count.get(`${user} AND terms:${t}`) as { n: number }).n));
await time('  df counts', async () => { for (const t of quoted) count.get(`${user} AND terms:${t}`); });
await time('  candidates ORDER BY rank', async () => cands.all(`${user} AND terms:(${quoted.join(' OR ')})`));
await time('  candidates, no rank', async () => candsNoRank.all(`${user} AND terms:(${quoted.join(' OR ')})`));
await engine.close();
