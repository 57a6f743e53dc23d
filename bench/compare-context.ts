/**
 * Context build, two builds of Engram side by side in one process (as compare-builds.ts does for
 * recall): one user with N memories (random vectors, synthetic texts) and T recorded turns, the
 * same file copied for each build, context() calls alternating between them (800 tokens, random
 * query vectors), so the load of a shared machine hits both alike. Prints wall and CPU p50 / p95
 * per build and how many blocks came out identical.
 *
 *   git archive <commit> src package.json | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/
 *   npx tsx bench/compare-context.ts /tmp/old [memories=10000] [turns=300]   (Q=<queries>, default 400)
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { quantile } from './report.js';
import { bulkInsert, queryText, rng, textSeededEmbedder } from './synthetic.js';

type MemoryModule = typeof import('../src/memory.js');
type StoreModule = typeof import('../src/store/sqlite/sqlite-store.js');
type Engine = ReturnType<MemoryModule['createMemory']>;

const D = 512;
const EMBEDDER = 'bench-random@512';
const WARM_UP = 40;

async function load(root: string): Promise<{ memory: MemoryModule; store: StoreModule }> {
  const url = (p: string): string => pathToFileURL(join(root, p)).href;
  return { memory: (await import(url('src/memory.ts'))) as MemoryModule, store: (await import(url('src/store/sqlite/sqlite-store.ts'))) as StoreModule };
}

/** The file both builds start from: other users, the user's memories, and a recorded conversation. */
async function fixture(build: { memory: MemoryModule; store: StoreModule }, path: string, memories: number, turns: number): Promise<void> {
  const store = build.store.openSqliteStore({ path });
  await store.bindEmbedder({ id: EMBEDDER, dimensions: D });
  await bulkInsert(store, { users: Array.from({ length: 19 }, (_, i) => `o${i}`), perUser: 50, embedderId: EMBEDDER, dimensions: D, seed: 3 });
  if (memories > 0) await bulkInsert(store, { users: ['u'], perUser: memories, embedderId: EMBEDDER, dimensions: D, seed: 4 });
  const engine = build.memory.createMemory({ store, embedder: textSeededEmbedder(EMBEDDER, D) });
  const r = rng(11);
  for (let i = 0; i < turns; i++) {
    await engine.appendMessages({
      messages: [
        { id: `a${i}`, userId: 'u', sessionId: 'earlier', role: 'user', content: `${queryText(r)} #${i}` },
        { id: `b${i}`, userId: 'u', sessionId: 'earlier', role: 'assistant', content: '好的，noted.' },
      ],
    });
  }
  await engine.close();
}

async function main(): Promise<void> {
  const old = process.argv[2];
  if (!old) throw new Error('usage: npx tsx bench/compare-context.ts <old checkout> [memories] [turns]');
  const memories = Number(process.argv[3] ?? 10_000);
  const turns = Number(process.argv[4] ?? 300);
  const builds = { before: await load(resolve(old)), after: await load(resolve(import.meta.dirname, '..')) };
  const dir = mkdtempSync(join(tmpdir(), 'engram-ab-context-'));
  try {
    const base = join(dir, 'base.db');
    // Written by the older build: the newer one migrates its copy forward on open, never the reverse.
    await fixture(builds.before, base, memories, turns);
    const engines = new Map<string, Engine>();
    for (const [name, build] of Object.entries(builds)) {
      const path = join(dir, `${name}.db`);
      copyFileSync(base, path);
      engines.set(name, build.memory.createMemory({ store: build.store.openSqliteStore({ path }), embedder: textSeededEmbedder(EMBEDDER, D) }));
    }
    const r = rng(9);
    const queries = Array.from({ length: Number(process.env.Q ?? 400) }, () => queryText(r));
    const wall = new Map<string, number[]>([...engines.keys()].map((k) => [k, []]));
    const cpu = new Map<string, number[]>([...engines.keys()].map((k) => [k, []]));
    const texts = new Map<string, string[]>([...engines.keys()].map((k) => [k, []]));
    for (const [i, query] of queries.entries()) {
      // Alternate which goes first, so neither always meets a warmer machine.
      const order = i % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
      for (const name of order) {
        await new Promise((done) => setImmediate(done));
        const c = process.cpuUsage();
        const t = performance.now();
        const block = await engines.get(name)!.context({ userId: 'u', query, tokenBudget: 800, sessionId: 'now' });
        const elapsed = performance.now() - t;
        const used = process.cpuUsage(c);
        if (i >= WARM_UP) (wall.get(name)!.push(elapsed), cpu.get(name)!.push((used.user + used.system) / 1000));
        texts.get(name)!.push(block.text);
      }
    }
    for (const name of engines.keys()) {
      const w = wall.get(name)!;
      const u = cpu.get(name)!;
      console.log(`${name.padEnd(7)} wall p50 / p95 ${quantile(w, 0.5).toFixed(2)} / ${quantile(w, 0.95).toFixed(2)} ms   cpu p50 / p95 ${quantile(u, 0.5).toFixed(2)} / ${quantile(u, 0.95).toFixed(2)} ms`);
    }
    const after = texts.get('after')!;
    console.log(`identical blocks: ${texts.get('before')!.filter((t, i) => t === after[i]).length} / ${queries.length}`);
    for (const engine of engines.values()) await engine.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
