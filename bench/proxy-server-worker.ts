/**
 * The Engram side of the proxy benchmark, in a worker thread of its own: the proxy server with its
 * store and embedder, as it runs in deployment (its own event loop, apart from the client's). Work
 * the server does after a response (recording the turn) then costs the client nothing, as with a
 * client in another process; work before the response is timed in full.
 *
 * Messages in: { type: 'idle' | 'context' | 'close', id, query? }; out: { type: 'ready', url } and
 * { id, ms? } answers.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createBundledEmbedder } from '../src/embedders/bundled-embedder.js';
import type { Embedder } from '../src/embedders/embedder.js';
import { createMemory } from '../src/memory.js';
import { createChatProxy } from '../src/proxy/chat-proxy.js';
import { serveLoopback } from '../src/proxy/serve-loopback.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { randomEmbedder } from './synthetic.js';

export interface ProxyWorkerData {
  dbPath: string;
  upstreamBaseURL: string;
  embedder: 'random' | 'bundled';
  embedderId: string;
  dimensions: number;
  userId: string;
}
export type ProxyWorkerRequest = { type: 'idle' | 'close'; id: number } | { type: 'context'; id: number; query: string };
export type ProxyWorkerReply = { type: 'ready'; url: string } | { type: 'done'; id: number; ms?: number };

const data = workerData as ProxyWorkerData;
const port = parentPort;
if (!port) throw new Error('bench/proxy-server-worker.ts runs as a worker thread');

const bundled = data.embedder === 'bundled' ? createBundledEmbedder() : undefined;
const embedder: Embedder = bundled ? { id: data.embedderId, dimensions: data.dimensions, embed: (texts) => bundled.embed(texts) } : randomEmbedder(data.embedderId, data.dimensions);
const store = openSqliteStore({ path: data.dbPath });
const memory = createMemory({ store, embedder });
const proxy = createChatProxy({ memory, upstream: { baseURL: data.upstreamBaseURL, apiKey: 'upstream-key' } });
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
