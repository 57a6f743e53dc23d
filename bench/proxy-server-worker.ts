/**
 * The Engram side of the proxy benchmark, in a process of its own (forked) or a worker thread: the
 * proxy server with its store and embedder, as it runs in deployment (its own event loop and heap,
 * apart from the client's). Work the server does after a response (recording the turn) then costs
 * the client nothing, as with a client in another process; work before the response is timed in
 * full.
 *
 * As in the server, one activity counts the requests in flight, and the young generation's
 * collection and the store's delayed access writes wait for moments without one.
 *
 * Messages in: { type: 'idle' | 'close', id }; out: { type: 'ready', url } and { id, ms? }
 * answers, `ms` being the context build of the last proxied request (timed inside it, so the
 * figure costs no extra build between requests). In a forked process the data comes as the first
 * message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createBundledEmbedder } from '../src/embedders/bundled-embedder.js';
import { createThreadedEmbedder } from '../src/embedders/embedder-thread.js';
import type { Embedder } from '../src/embedders/embedder.js';
import { createMemory } from '../src/memory.js';
import { createChatProxy } from '../src/proxy/chat-proxy.js';
import type { MemoryEngine } from '../src/memory-engine.js';
import { DEFAULT_TENANT } from '../src/server/auth.js';
import { createApp } from '../src/server/app.js';
import { mountDoors } from '../src/server/doors.js';
import { keyStoreOf } from '../src/server/keys/key-store-of.js';
import { serveLoopback } from '../src/proxy/serve-loopback.js';
import { createActivity } from '../src/util/activity.js';
import { idleCollection } from '../src/util/idle-collector.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { randomEmbedder } from './synthetic.js';

export interface ProxyWorkerData {
  dbPath: string;
  upstreamBaseURL: string;
  embedder: 'random' | 'bundled';
  embedderId: string;
  dimensions: number;
  userId: string;
  /**
   * False: garbage collection is left to V8 alone and access records are written on their timer
   * whatever is in flight (as before the activity), to measure what the idle moments change.
   */
  idleWork?: boolean;
  /**
   * 'proxy': the chat proxy alone (`createChatProxy`). 'server': the whole HTTP app as `npm start`
   * serves it (`createApp` with the doors mounted): request id, metrics, body limit, JSON guard,
   * API-key auth (a key of the default tenant, sent by the client) and the rate limiter (its
   * limit raised past the bench's rate). @default 'proxy'
   */
  surface?: 'proxy' | 'server';
}
export type ProxyWorkerRequest = { type: 'idle' | 'close'; id: number };
export type ProxyWorkerReply = { type: 'ready'; url: string; headers: Record<string, string> } | { type: 'done'; id: number; ms?: number };

/** The parent's side: a worker thread's port, or a forked process's IPC channel. */
interface Channel {
  postMessage(message: ProxyWorkerReply): void;
  on(event: 'message', listener: (message: ProxyWorkerRequest) => void): void;
  close(): void;
}

function forkedChannel(): Channel {
  const send = process.send?.bind(process);
  if (!send) throw new Error('bench/proxy-server-worker.ts runs as a worker thread or a forked process');
  return { postMessage: (m) => void send(m), on: (_e, listener) => void process.on('message', listener), close: () => process.disconnect() };
}

const port: Channel = parentPort ?? forkedChannel();
const data = parentPort ? (workerData as ProxyWorkerData) : await new Promise<ProxyWorkerData>((resolve) => process.once('message', resolve));

// The bundled model in a worker thread, as `npm start` runs it (ENGRAM_BENCH_EMBEDDER_THREAD=off: in the server's thread).
const inThread = process.env.ENGRAM_BENCH_EMBEDDER_THREAD === 'off';
const bundled = data.embedder === 'bundled' ? (inThread ? createBundledEmbedder() : createThreadedEmbedder({ kind: 'bundled' })) : undefined;
const embedder: Embedder = bundled
  ? { id: data.embedderId, dimensions: data.dimensions, embed: (texts) => bundled.embed(texts), ...(bundled.close ? { close: () => bundled.close!() } : {}) }
  : randomEmbedder(data.embedderId, data.dimensions);
const idleWork = data.idleWork !== false;
const activity = createActivity(idleWork ? { onIdle: idleCollection() } : {});
// WAL checkpoints in a worker thread, as `npm start` runs them (ENGRAM_BENCH_CHECKPOINT=auto: by the commits on the server's thread).
const checkpoint = process.env.ENGRAM_BENCH_CHECKPOINT === 'auto' ? 'auto' : 'background';
const store = openSqliteStore({ path: data.dbPath, ...(idleWork ? { activity } : {}), checkpoint });
const memory = createMemory({ store, embedder });
let contextMs: number | undefined;
const timedContext: MemoryEngine['context'] = async (o) => {
  const started = performance.now();
  try {
    return await memory.context(o);
  } finally {
    contextMs = performance.now() - started;
  }
};

/** The app under test, what the client sends with each call, and what waits for its recordings. */
async function surface(): Promise<{ fetch: (request: Request) => Response | Promise<Response>; headers: Record<string, string>; idle: () => Promise<void> }> {
  if (data.surface !== 'server') {
    const proxy = createChatProxy({ memory: { ...memory, context: timedContext }, upstream: { baseURL: data.upstreamBaseURL, apiKey: 'upstream-key' }, activity });
    return { fetch: proxy.fetch, headers: {}, idle: () => proxy.idle() };
  }
  const keys = keyStoreOf(store);
  const { key } = await keys.create({ tenantId: DEFAULT_TENANT, name: 'bench' });
  const engine: MemoryEngine = { ...memory, context: timedContext };
  const doors = mountDoors({ memory: engine, env: { ENGRAM_LLM_BASE_URL: data.upstreamBaseURL, ENGRAM_LLM_API_KEY: 'upstream-key' }, activity });
  const app = createApp({ memory: engine, keys, activity, mount: doors.mount, rateLimit: { perMinute: 1_000_000 } });
  return { fetch: app.fetch, headers: { authorization: `Bearer ${key}` }, idle: doors.idle };
}
const under = await surface();
const server = await serveLoopback(under.fetch);
port.postMessage({ type: 'ready', url: server.url, headers: under.headers } satisfies ProxyWorkerReply);

port.on('message', (message: ProxyWorkerRequest) => {
  void (async () => {
    if (message.type === 'idle') {
      // The turn recorded, then the idle moment's housekeeping done, as a chat client's pause between turns allows.
      await under.idle();
      await new Promise<void>((resolve) => activity.whenIdle(resolve));
      port.postMessage({ type: 'done', id: message.id, ...(contextMs === undefined ? {} : { ms: contextMs }) } satisfies ProxyWorkerReply);
      contextMs = undefined;
    } else {
      await under.idle();
      await server.close();
      await memory.close();
      port.postMessage({ type: 'done', id: message.id } satisfies ProxyWorkerReply);
      port.close();
    }
  })();
});
