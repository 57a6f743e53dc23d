/**
 * Where the proxy's added time goes, per request: the same requests as `npm run bench -- --only
 * proxy` sends (direct and proxied alternately, half streamed), with the proxy in a worker thread
 * (`proxy-spans-worker.ts`) marking when the handler starts, the context build starts and ends,
 * the upstream call starts and its headers arrive, and the handler returns. `stub` answers an
 * empty block at once (forwarding alone). The file is built at the given path the first time.
 *
 *   npx tsx bench/proxy-spans.ts <db path> [user-new | user-0] [requests=300] [stub]
 *
 * ENGRAM_BENCH_IDLE_WORK=off runs young GC and access writes whenever they come, not between requests.
 * SPANS_SLOWEST=N also prints the N requests that added most, span by span, against five around
 * the median: which part of the request the tail comes from.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { startMockUpstream } from '../src/proxy/mock-upstream.js';
import { benchReply } from './bench-upstream.js';
import { createUpstreamFetch } from '../src/proxy/upstream-fetch.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Span, SpansReply, SpansRequest, SpansWorkerData } from './proxy-spans-worker.js';
import { quantile } from './report.js';
import { bulkInsert, queryText, rng } from './synthetic.js';
import { timeChatCall } from './time-chat-call.js';

type Done = Extract<SpansReply, { type: 'done' }>;
type Ask = SpansRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

const [base, userId = 'user-new', count = '300', stub] = process.argv.slice(2);
if (!base) throw new Error('usage: npx tsx bench/proxy-spans.ts <db path> [user-new | user-0] [requests] [stub]');
if (!existsSync(base)) {
  const store = openSqliteStore({ path: base });
  await store.bindEmbedder({ id: 'bench-random@512', dimensions: 512 });
  await bulkInsert(store, { users: Array.from({ length: 19 }, (_, i) => `user-${i + 1}`), perUser: 50, embedderId: 'bench-random@512', dimensions: 512, seed: 3 });
  await bulkInsert(store, { users: ['user-0'], perUser: 10_000, embedderId: 'bench-random@512', dimensions: 512, seed: 4 });
  await store.close();
}
const dir = mkdtempSync(join(tmpdir(), 'engram-proxy-spans-'));
const dbPath = join(dir, 'proxy.db');
copyFileSync(base, dbPath);
const upstream = await startMockUpstream(benchReply, { keepRequests: false });
const entry = new URL('./proxy-spans-worker.ts', import.meta.url).href;
const loader = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
const workerData: SpansWorkerData = { dbPath, upstreamBaseURL: upstream.baseURL, userId, stubContext: stub === 'stub', idleWork: process.env.ENGRAM_BENCH_IDLE_WORK !== 'off' };
const worker = new Worker(loader, { eval: true, workerData });
const waiting = new Map<number, (reply: Done) => void>();
let next = 0;
const url = await new Promise<string>((resolve) =>
  worker.on('message', (reply: SpansReply) => {
    if (reply.type === 'ready') resolve(reply.url);
    else (waiting.get(reply.id)?.(reply), waiting.delete(reply.id));
  }),
);
const ask = (request: Ask): Promise<Done> =>
  new Promise((resolve) => {
    const id = next++;
    waiting.set(id, resolve);
    worker.postMessage({ ...request, id });
  });


const n = Number(count);
const r = rng(9);
const queries = Array.from({ length: n + 10 }, () => queryText(r));
const body = (q: string, stream: boolean, i: number) => ({ model: 'mock-model', user: userId, stream, messages: [{ role: 'system', content: 'You are helpful.' }, { role: 'user', content: `${q} #${i}` }] });
// The client as in `npm run bench -- --only proxy`: node:http keep-alive.
const client = createUpstreamFetch();
const times: Record<string, number[]> = {};
/** When each proxied call was sent, on the clock the worker's marks are turned to (time origin + now). */
const sentAt: number[] = [];
const add = (k: string, v: number): void => void (times[k] ??= []).push(v);
for (let i = -10; i < n; i++) {
  const q = queries[i + 10]!;
  const stream = i % 2 !== 0;
  const direct = () => timeChatCall(upstream.baseURL, body(q, stream, i), stream, client);
  const proxied = () => {
    sentAt.push(performance.timeOrigin + performance.now());
    return timeChatCall(`${url}/v1`, body(q, stream, i), stream, client);
  };
  // Alternate which goes first, so neither always meets a warmer machine.
  let d: number;
  let p: number;
  if (i % 4 < 2) (d = await direct()), (p = await proxied());
  else (p = await proxied()), (d = await direct());
  await ask({ type: 'idle' });
  if (i < 0) {
    await ask({ type: 'spans' });
    sentAt.length = 0;
    continue;
  }
  add('direct call', d);
  add('proxied call', p);
  add('added (per request)', p - d);
}
const final = await ask({ type: 'spans' });
const spans: Span[] = final.spans!;
/** Housekeeping that ran between a proxied call's send and its handler's start: what the request waited for. */
const waitedFor = (i: number): string => {
  const s = spans[i]!;
  const from = sentAt[i]! - final.origin!;
  const hit = final.housekeeping!.filter(([at, ms]) => at + ms > from && at < s.in!);
  return hit.map(([, ms, what]) => `${what} ${ms.toFixed(1)}`).join(' + ');
};
const byKind = new Map<string, number[]>();
for (const [, ms, what] of final.housekeeping!) byKind.set(what, [...(byKind.get(what) ?? []), ms]);
console.log(`housekeeping ms p50 / p95 / max: ${[...byKind].map(([what, xs]) => `${what} (${xs.length}) ${quantile(xs, 0.5).toFixed(2)} / ${quantile(xs, 0.95).toFixed(2)} / ${Math.max(...xs).toFixed(2)}`).join('; ')}`);
const slowTasks = final.housekeeping!.filter(([, ms]) => ms > 2);
console.log(`housekeeping tasks: ${final.housekeeping!.length}, over 2 ms: ${slowTasks.length} (${[...new Set(slowTasks.map(([, , w]) => w))].join(', ')}), longest ${Math.max(0, ...final.housekeeping!.map(([, ms]) => ms)).toFixed(1)} ms`);
for (const s of spans) {
  add('handler in → context start', s.c0! - s.in!);
  add('context build', s.c1! - s.c0!);
  add('context end → upstream call', s.f0! - s.c1!);
  add('upstream call → headers', s.f1! - s.f0!);
  add('headers → handler out', s.out! - s.f1!);
  add('handler in → out', s.out! - s.in!);
  add('recording (after the response)', s.append ?? 0);
  add('garbage collection in the handler', s.gc ?? 0);
}
// Outside the handler: from the client's send to the handler's start, and from its end to the client's last mark.
spans.forEach((s, i) => {
  add('client send → handler in', s.origin! + s.in! - sentAt[i]!);
  add('handler out → client done', sentAt[i]! + times['proxied call']![i]! - (s.origin! + s.out!));
});
const collected = spans.filter((s) => (s.gc ?? 0) > 0);
const f = (x: number): string => x.toFixed(2).padStart(7);
console.log(`${userId}${stub === 'stub' ? ', context stubbed' : ''}: ${n} requests, ms p50 / p95`);
for (const [k, xs] of Object.entries(times)) console.log(`${k.padEnd(32)} ${f(quantile(xs, 0.5))} ${f(quantile(xs, 0.95))}`);
console.log(`requests with a collection in the handler: ${collected.length} of ${spans.length}${collected.length > 0 ? `, ${(collected.reduce((sum, s) => sum + s.gc!, 0) / collected.length).toFixed(2)} ms each on average` : ''}`);
const slowest = Number(process.env.SPANS_SLOWEST ?? 0);
if (slowest > 0) {
  const added = times['added (per request)']!;
  const order = added.map((ms, i) => [ms, i] as const).sort((a, b) => b[0] - a[0]);
  const row = (i: number): string => {
    const s = spans[i]!;
    const parts = [['in→build', s.c0! - s.in!], ['build', s.c1! - s.c0!], ['→upstream', s.f0! - s.c1!], ['upstream', s.f1! - s.f0!], ['→out', s.out! - s.f1!], ['in→out', s.out! - s.in!], ['gc', s.gc ?? 0], ['send→in', s.origin! + s.in! - sentAt[i]!], ['out→done', sentAt[i]! + times['proxied call']![i]! - (s.origin! + s.out!)], ['direct', times['direct call']![i]!]] as const;
    const waited = waitedFor(i);
    return `${f(added[i]!)} added | ${parts.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}${i % 2 === 1 ? ' (streamed)' : ''}${waited ? ` | waited for ${waited}` : ''}`;
  };
  console.log(`the ${slowest} requests that added most (ms):`);
  for (const [, i] of order.slice(0, slowest)) console.log(row(i));
  console.log('five around the median:');
  const mid = Math.floor(order.length / 2);
  for (const [, i] of order.slice(mid - 2, mid + 3)) console.log(row(i));
}
await ask({ type: 'close' });
await worker.terminate();
await upstream.close();
rmSync(dir, { recursive: true, force: true });
