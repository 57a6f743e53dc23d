/**
 * The proxy of `proxy-spans.ts` in its worker thread: as `proxy-server-worker.ts`, with the fetch
 * handler, `memory.context`, the upstream call and the turn's recording timed per request.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { createMemory } from '../src/memory.js';
import { createChatProxy } from '../src/proxy/chat-proxy.js';
import type { TurnMemory } from '../src/proxy/memory-turn.js';
import { serveLoopback } from '../src/proxy/serve-loopback.js';
import { createUpstreamFetch, type UpstreamFetch } from '../src/proxy/upstream-fetch.js';
import { createActivity, type Activity } from '../src/util/activity.js';
import { idleCollection } from '../src/util/idle-collector.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { randomEmbedder } from './synthetic.js';

export interface SpansWorkerData {
  dbPath: string;
  upstreamBaseURL: string;
  userId: string;
  /** Answer an empty block at once: what forwarding alone adds. */
  stubContext: boolean;
  /** False: young GC and access writes whenever they come, not held for idle moments (see proxy-server-worker.ts). */
  idleWork: boolean;
}
/** performance.now() marks of one proxied request (the thread's time origin with them, to compare with the client's), the recording's ms, and the ms of garbage collection between `in` and `out`. */
export type Span = Partial<Record<'in' | 'c0' | 'c1' | 'f0' | 'f1' | 'out' | 'append' | 'gc' | 'origin', number>>;
export type SpansRequest = { type: 'idle' | 'spans' | 'close'; id: number };
export type SpansReply = { type: 'ready'; url: string } | { type: 'done'; id: number; spans?: Span[]; housekeeping?: Array<[number, number, string]>; origin?: number };

const data = workerData as SpansWorkerData;
/** Garbage collections in this thread: [start, duration] in performance.now() time. */
const collections: Array<[number, number]> = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) collections.push([e.startTime, e.duration]);
}).observe({ entryTypes: ['gc'] });
const port = parentPort;
if (!port) throw new Error('bench/proxy-spans-worker.ts runs as a worker thread');
/** Housekeeping run in idle moments (young GC, access writes, cache refreshes): [start, duration, what] in performance.now() time. */
const housekeeping: Array<[number, number, string]> = [];
const timedTask = (what: string, task: () => void) => () => {
  const t = performance.now();
  task();
  housekeeping.push([t, performance.now() - t, what]);
};
const collect = idleCollection();
const inner = createActivity(data.idleWork ? { onIdle: timedTask('young GC', collect) } : {});
const activity: Activity = { begin: () => inner.begin(), whenIdle: (task, maxWaitMs) => inner.whenIdle(timedTask(task.name || 'task', task), maxWaitMs) };
// WAL checkpoints in a worker thread, as `npm start` runs them (ENGRAM_BENCH_CHECKPOINT=auto: by the commits on the proxy's thread).
const checkpoint = process.env.ENGRAM_BENCH_CHECKPOINT === 'auto' ? 'auto' : 'background';
const store = openSqliteStore({ path: data.dbPath, ...(data.idleWork ? { activity } : {}), checkpoint });
const memory = createMemory({ store, embedder: randomEmbedder('bench-random@512', 512) });
// The store's own idle work runs under its lock, after the task that starts it has returned: timed where it runs.
const internals = store as unknown as { memories: { flushAccesses(limit: number): number }; refreshCaches(): void };
const timeMethod = <K extends string>(owner: Record<K, (...args: never[]) => unknown>, key: K, what: string): void => {
  const original = owner[key].bind(owner);
  owner[key] = ((...args: never[]) => {
    const t = performance.now();
    try {
      return original(...args);
    } finally {
      housekeeping.push([t, performance.now() - t, what]);
    }
  }) as (typeof owner)[K];
};
timeMethod(internals.memories, 'flushAccesses', 'access write');
timeMethod(internals, 'refreshCaches', 'cache refresh');
let current: Span = {};
const spans: Span[] = [];
const timed: TurnMemory = {
  context: async (o) => {
    current.c0 = performance.now();
    const block = data.stubContext ? { text: '', tokens: 0, included: [] } : await memory.context(o);
    current.c1 = performance.now();
    return block;
  },
  appendMessages: async (o) => {
    const t = performance.now();
    const result = await memory.appendMessages(o);
    current.append = performance.now() - t;
    return result;
  },
  reportReply: (o) => memory.reportReply(o),
};
const transport = createUpstreamFetch();
const upstreamFetch: UpstreamFetch = async (url, init) => {
  current.f0 = performance.now();
  const res = await transport(url, init);
  current.f1 = performance.now();
  return res;
};
const proxy = createChatProxy({ activity, memory: timed, upstream: { baseURL: data.upstreamBaseURL, apiKey: 'upstream-key' }, fetch: upstreamFetch });
const server = await serveLoopback(async (request) => {
  const span: Span = { in: performance.now(), origin: performance.timeOrigin };
  current = span;
  spans.push(span);
  const res = await proxy.fetch(request);
  span.out = performance.now();
  return res;
});
port.postMessage({ type: 'ready', url: server.url } satisfies SpansReply);

port.on('message', (message: SpansRequest) => {
  void (async () => {
    if (message.type === 'idle') {
      // The turn recorded, then the idle moment's housekeeping done, as a chat client's pause between turns allows.
      await proxy.idle();
      await new Promise<void>((resolve) => activity.whenIdle(resolve));
      port.postMessage({ type: 'done', id: message.id } satisfies SpansReply);
    } else if (message.type === 'spans') {
      for (const span of spans) span.gc = collections.filter(([at, ms]) => at + ms > span.in! && at < span.out!).reduce((sum, [, ms]) => sum + ms, 0);
      collections.length = 0;
      port.postMessage({ type: 'done', id: message.id, spans: spans.splice(0), housekeeping: housekeeping.splice(0), origin: performance.timeOrigin } satisfies SpansReply);
    } else {
      await proxy.idle();
      await server.close();
      await memory.close();
      port.postMessage({ type: 'done', id: message.id } satisfies SpansReply);
      port.close();
    }
  })();
});
