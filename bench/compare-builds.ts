/**
 * Two builds of Engram side by side in one process, rounds interleaved so the load of a shared
 * machine hits both alike: engine.add() per second (hash embedder, one user growing past the
 * two-stage candidate count) and recall p50 / p95 at N memories (touch off and on, file store).
 *
 *   git archive <commit> src package.json | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/
 *   npx tsx bench/compare-builds.ts /tmp/old [memories=10000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, quantile, table } from './report.js';
import { bulkInsert, memoryText, queryText, rng, unitVector } from './synthetic.js';

interface Build {
  name: string;
  createMemory: typeof import('../src/memory.js').createMemory;
  openSqliteStore: typeof import('../src/store/sqlite/sqlite-store.js').openSqliteStore;
  createHashEmbedder: typeof import('../src/embedders/index.js').createHashEmbedder;
}

async function load(name: string, root: string): Promise<Build> {
  const url = (p: string): string => pathToFileURL(join(root, p)).href;
  const memory = (await import(url('src/memory.ts'))) as typeof import('../src/memory.js');
  const store = (await import(url('src/store/sqlite/sqlite-store.ts'))) as typeof import('../src/store/sqlite/sqlite-store.js');
  const embedders = (await import(url('src/embedders/index.ts'))) as typeof import('../src/embedders/index.js');
  return { name, createMemory: memory.createMemory, openSqliteStore: store.openSqliteStore, createHashEmbedder: embedders.createHashEmbedder };
}

const D = 512;
const STUB = 'bench-random@512';

async function main(): Promise<void> {
  const old = process.argv[2];
  if (!old) throw new Error('usage: npx tsx bench/compare-builds.ts <old checkout> [memories]');
  const n = Number(process.argv[3] ?? 10_000);
  const builds = [await load('before', resolve(old)), await load('after', resolve(import.meta.dirname, '..'))];
  const dir = mkdtempSync(join(tmpdir(), 'engram-ab-'));
  try {
    // add(): 3 rounds × 300 adds per build into a fresh file each round.
    const adds = new Map<string, number[]>(builds.map((b) => [b.name, []]));
    // CPU time of this process per operation: what a loaded machine inflates least (wall time includes waiting for a core and fsync).
    const cpu = new Map<string, number[]>();
    const addCpu = (key: string, ms: number): void => void cpu.set(key, [...(cpu.get(key) ?? []), ms]);
    const cpuMs = (since: NodeJS.CpuUsage): number => {
      const u = process.cpuUsage(since);
      return (u.user + u.system) / 1000;
    };
    for (let round = 0; round < 3; round++) {
      for (const b of builds) {
        const engine = b.createMemory({ store: b.openSqliteStore({ path: join(dir, `add-${b.name}-${round}.db`) }), embedder: b.createHashEmbedder({ dimensions: D }) });
        const r = rng(round);
        const t = performance.now();
        const c = process.cpuUsage();
        for (let i = 0; i < 300; i++) await engine.add({ userId: 'u', content: memoryText(r) });
        addCpu(`${b.name}|add`, cpuMs(c) / 300);
        adds.get(b.name)!.push(300 / ((performance.now() - t) / 1000));
        await engine.close();
      }
    }
    // recall at n memories: one file per build, the same rows.
    const r = rng(42);
    const texts = Array.from({ length: 100 }, () => queryText(r));
    const vectors = texts.map(() => unitVector(r, D));
    const engines = [];
    for (const b of builds) {
      const store = b.openSqliteStore({ path: join(dir, `recall-${b.name}.db`) });
      await store.bindEmbedder({ id: STUB, dimensions: D });
      await bulkInsert(store, { users: Array.from({ length: 99 }, (_, i) => `user-${i + 1}`), perUser: 10, embedderId: STUB, dimensions: D, seed: 1 });
      await bulkInsert(store, { users: ['user-0'], perUser: n, embedderId: STUB, dimensions: D, seed: 2 });
      let next = 0;
      engines.push({ b, engine: b.createMemory({ store, embedder: { id: STUB, dimensions: D, embed: (t: string[]) => Promise.resolve(t.map(() => vectors[next++ % vectors.length]!)) } }) });
    }
    const times = new Map<string, number[]>();
    for (const { engine } of engines) for (const q of texts.slice(0, 5)) await engine.recall({ userId: 'user-0', query: q, touch: false });
    for (let round = 0; round < 3; round++) {
      for (const touch of [false, true]) {
        for (const { b, engine } of engines) {
          const key = `${b.name}|${touch}`;
          const list = times.get(key) ?? [];
          const c = process.cpuUsage();
          for (const q of texts) {
            const t = performance.now();
            await engine.recall({ userId: 'user-0', query: q, touch });
            list.push(performance.now() - t);
          }
          addCpu(key, cpuMs(c) / texts.length);
          times.set(key, list);
        }
      }
    }
    for (const { engine } of engines) await engine.close();
    const f = (x: number): string => x.toFixed(2);
    const cpuOf = (key: string): string => median(cpu.get(key)!).toFixed(2);
    const rows = builds.map((b) => [
      b.name,
      adds.get(b.name)!.map((x) => x.toFixed(0)).join(' / '),
      cpuOf(`${b.name}|add`),
      cpuOf(`${b.name}|false`),
      cpuOf(`${b.name}|true`),
      `${f(quantile(times.get(`${b.name}|false`)!, 0.5))} / ${f(quantile(times.get(`${b.name}|false`)!, 0.95))}`,
      `${f(quantile(times.get(`${b.name}|true`)!, 0.5))} / ${f(quantile(times.get(`${b.name}|true`)!, 0.95))}`,
    ]);
    console.log(`Interleaved in one process; recall: one user with ${n.toLocaleString('en')} memories among 100, random 512-dim vectors, 3 × 100 queries`);
    console.log(table(['build', 'add()/s (3 rounds of 300)', 'CPU ms per add', 'CPU ms per recall, touch off', 'CPU ms per recall, touch on', 'recall p50 / p95 ms, touch off', 'recall p50 / p95 ms, touch on'], rows));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
