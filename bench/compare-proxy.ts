/**
 * The chat proxy of two builds of Engram side by side (as compare-context.ts does for the context
 * build): each build's proxy in its own worker thread (`bench/proxy-server-worker.ts` of that
 * checkout, on its own copy of one file), one mock upstream, and every request sent straight to the
 * upstream and through both proxies in rotating order, so the load of a shared machine hits all
 * three alike. Settings as in `npm run bench -- --only proxy`: a user without memories, and one
 * with 10,000 (random query vectors). Prints the added ms p50 / p95 per build, full call and
 * before the first chunk, and the context build inside the proxied requests where the build's
 * worker reports it (its answer to `idle`; builds before that report none).
 *
 *   git archive <commit> src bench package.json | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/
 *   npx tsx bench/compare-proxy.ts /tmp/old [requests=300]
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { startMockUpstream } from '../src/proxy/mock-upstream.js';
import { benchReply } from './bench-upstream.js';
import type { ProxyWorkerData, ProxyWorkerReply } from './proxy-server-worker.js';
import { quantile, table } from './report.js';
import { bulkInsert, queryText, rng } from './synthetic.js';
import { timeChatCall } from './time-chat-call.js';

const D = 512;
const EMBEDDER = 'bench-random@512';

interface Proxy {
  name: string;
  url: string;
  ask(type: 'idle' | 'close'): Promise<number | undefined>;
  worker: Worker;
}

async function startProxy(name: string, root: string, data: ProxyWorkerData): Promise<Proxy> {
  const entry = pathToFileURL(join(root, 'bench/proxy-server-worker.ts')).href;
  const loader = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  const worker = new Worker(loader, { eval: true, workerData: data });
  const waiting = new Map<number, (ms: number | undefined) => void>();
  let next = 0;
  const url = await new Promise<string>((done, fail) => {
    worker.once('error', fail);
    worker.on('message', (reply: ProxyWorkerReply) => {
      if (reply.type === 'ready') done(reply.url);
      else (waiting.get(reply.id)?.(reply.ms), waiting.delete(reply.id));
    });
  });
  const ask = (type: 'idle' | 'close'): Promise<number | undefined> =>
    new Promise((done) => {
      const id = next++;
      waiting.set(id, done);
      worker.postMessage({ type, id });
    });
  return { name, url: `${url}/v1`, ask, worker };
}


async function main(): Promise<void> {
  const old = process.argv[2];
  if (!old) throw new Error('usage: npx tsx bench/compare-proxy.ts <old checkout> [requests]');
  const requests = Number(process.argv[3] ?? 300);
  const roots = { before: resolve(old), after: resolve(import.meta.dirname, '..') };
  const dir = mkdtempSync(join(tmpdir(), 'engram-ab-proxy-'));
  const upstream = await startMockUpstream(benchReply, { keepRequests: false });
  try {
    // Written by the older build: the newer one migrates its copy forward on open, never the reverse.
    const { openSqliteStore } = (await import(pathToFileURL(join(roots.before, 'src/store/sqlite/sqlite-store.ts')).href)) as typeof import('../src/store/sqlite/sqlite-store.js');
    const base = join(dir, 'base.db');
    const store = openSqliteStore({ path: base });
    await store.bindEmbedder({ id: EMBEDDER, dimensions: D });
    await bulkInsert(store, { users: Array.from({ length: 19 }, (_, i) => `user-${i + 1}`), perUser: 50, embedderId: EMBEDDER, dimensions: D, seed: 3 });
    await bulkInsert(store, { users: ['user-0'], perUser: 10_000, embedderId: EMBEDDER, dimensions: D, seed: 4 });
    await store.close();
    const rows: string[][] = [];
    for (const [label, userId] of [['no memories', 'user-new'], ['10,000 memories', 'user-0']] as const) {
      const proxies: Proxy[] = [];
      for (const [name, root] of Object.entries(roots)) {
        const dbPath = join(dir, `${name}-${userId}.db`);
        copyFileSync(base, dbPath);
        proxies.push(await startProxy(name, root, { dbPath, upstreamBaseURL: upstream.baseURL, embedder: 'random', embedderId: EMBEDDER, dimensions: D, userId }));
      }
      const r = rng(9);
      const queries = Array.from({ length: requests + 10 }, () => queryText(r));
      const body = (q: string, stream: boolean, i: number) => ({ model: 'mock-model', user: userId, stream, messages: [{ role: 'system', content: 'You are helpful.' }, { role: 'user', content: `${q} #${i}` }] });
      const added = new Map<string, number[]>();
      const push = (k: string, v: number) => (added.get(k) ?? added.set(k, []).get(k)!).push(v);
      for (let i = -10; i < requests; i++) {
        const q = queries[i + 10]!;
        const stream = i % 2 !== 0;
        const targets = [upstream.baseURL, ...proxies.map((p) => p.url)];
        const shift = ((i % 3) + 3) % 3;
        const order = [...targets.slice(shift), ...targets.slice(0, shift)];
        const ms = new Map<string, number>();
        for (const target of order) {
          ms.set(target, await timeChatCall(target, body(q, stream, i), stream));
          const proxy = proxies.find((p) => p.url === target);
          // The turn is recorded after the response; let it finish so it never overlaps the next call.
          const build = proxy ? await proxy.ask('idle') : undefined;
          if (proxy && build !== undefined && i >= 0) push(`${proxy.name} context`, build);
        }
        if (i < 0) continue;
        const mode = stream ? 'first chunk' : 'full';
        push(`direct ${mode}`, ms.get(upstream.baseURL)!);
        for (const p of proxies) push(`${p.name} ${mode}`, ms.get(p.url)!);
      }
      const f = (xs: number[]) => `${quantile(xs, 0.5).toFixed(2)} / ${quantile(xs, 0.95).toFixed(2)}`;
      // As bench/proxy.ts reports it: the proxied quantile less the direct one.
      const more = (mode: string, name: string): string => {
        const [p, d] = [added.get(`${name} ${mode}`)!, added.get(`direct ${mode}`)!];
        return `${(quantile(p, 0.5) - quantile(d, 0.5)).toFixed(2)} / ${(quantile(p, 0.95) - quantile(d, 0.95)).toFixed(2)}`;
      };
      rows.push([label, 'direct', f(added.get('direct full')!), f(added.get('direct first chunk')!), '']);
      for (const p of proxies) rows.push([label, p.name, more('full', p.name), more('first chunk', p.name), added.has(`${p.name} context`) ? f(added.get(`${p.name} context`)!) : 'not reported']);
      for (const p of proxies) (await p.ask('close'), await p.worker.terminate());
    }
    console.log(`${requests} requests a setting (half streamed), direct and both proxies in rotating order; ms p50 / p95 (added = the proxied quantile less the direct one, as bench/proxy.ts reports it; the direct row gives the call itself):\n`);
    console.log(table(['setting', 'build', 'added, full call', 'added, first chunk', 'context build in the request'], rows));
  } finally {
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
