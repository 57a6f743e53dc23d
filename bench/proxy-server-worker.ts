/**
 * The Engram side of the proxy benchmark, in a process of its own (forked) or a worker thread: the
 * proxy server with its store and embedder, as it runs in deployment (its own event loop and heap,
 * apart from the client's). Work the server does after a response (recording the turn) then costs
 * the client nothing, as with a client in another process; work before the response is timed in
 * full.
 *
 * Messages in: { type: 'idle' | 'context' | 'close', id, query? }; out: { type: 'ready', url } and
 * { id, ms? } answers. In a forked process the data comes as the first message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createBundledEmbedder } from '../src/embedders/bundled-embedder.js';
import type { Embedder } from '../src/embedders/embedder.js';
import { createMemory } from '../src/memory.js';
import { createChatProxy } from '../src/proxy/chat-proxy.js';
import { serveLoopback } from '../src/proxy/serve-loopback.js';
import { noIdleCollection } from '../src/util/idle-collector.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { randomEmbedder } from './synthetic.js';

export interface ProxyWorkerData {
  dbPath: string;
  upstreamBaseURL: string;
  embedder: 'random' | 'bundled';
  embedderId: string;
  dimensions: number;
  userId: string;
  /** False: the proxy leaves garbage collection to V8 alone (`noIdleCollection`), to measure what idle collection changes. */
  idleCollection?: boolean;
}
export type ProxyWorkerRequest = { type: 'idle' | 'close'; id: number } | { type: 'context'; id: number; query: string };
export type ProxyWorkerReply = { type: 'ready'; url: string } | { type: 'done'; id: number; ms?: number };

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

const bundled = data.embedder === 'bundled' ? createBundledEmbedder() : undefined;
const embedder: Embedder = bundled ? { id: data.embedderId, dimensions: data.dimensions, embed: (texts) => bundled.embed(texts) } : randomEmbedder(data.embedderId, data.dimensions);
const store = openSqliteStore({ path: data.dbPath });
const memory = createMemory({ store, embedder });
const proxy = createChatProxy({ memory, upstream: { baseURL: data.upstreamBaseURL, apiKey: 'upstream-key' }, ...(data.idleCollection === false ? { idleCollector: noIdleCollection } : {}) });
const server = await serveLoopback(proxy.fetch);
port.postMessage({ type: 'ready', url: server.url } satisfies ProxyWorkerReply);

port.on('message', (message: ProxyWorkerRequest) => {
  void (async () => {
    if (message.type === 'idle') {
      await proxy.idle();
      port.postMessage({ type: 'done', id: message.id } satisfies ProxyWorkerReply);
    } else if (message.type === 'context') {
      const started = performance.now();
      await memory.context({ userId: data.userId, query: message.query, tokenBudget: 800 });
      port.postMessage({ type: 'done', id: message.id, ms: performance.now() - started } satisfies ProxyWorkerReply);
    } else {
      await proxy.idle();
      await server.close();
      await memory.close();
      port.postMessage({ type: 'done', id: message.id } satisfies ProxyWorkerReply);
      port.close();
    }
  })();
});
