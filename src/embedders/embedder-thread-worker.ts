/**
 * The worker side of `createThreadedEmbedder` (embedder-thread.ts): builds the embedder its spec
 * names and answers `{ id, texts }` with `{ id, vectors }` (buffers transferred) or
 * `{ id, error }`, one request at a time in arrival order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { EngramError } from '../errors.js';
import { createBundledEmbedder } from './bundled-embedder.js';
import type { Embedder } from './embedder.js';
import { createHashEmbedder } from './hash-embedder.js';
import type { EmbedderThreadReply, EmbedderThreadRequest, ThreadedEmbedderSpec } from './embedder-thread.js';

const port = parentPort;
if (!port) throw new Error('embedder-thread-worker runs as a worker thread');
const spec = workerData as ThreadedEmbedderSpec;
const embedder: Embedder = spec.kind === 'bundled' ? createBundledEmbedder() : createHashEmbedder(spec.dimensions === undefined ? {} : { dimensions: spec.dimensions });

port.on('message', (request: EmbedderThreadRequest) => {
  void (async () => {
    try {
      if (request.texts === 'warm') {
        await embedder.warm?.();
        port.postMessage({ id: request.id, vectors: [] } satisfies EmbedderThreadReply);
        return;
      }
      if (request.bridge) {
        const bridged = embedder.bridge ? await embedder.bridge(request.texts) : request.texts;
        port.postMessage({ id: request.id, bridged } satisfies EmbedderThreadReply);
        return;
      }
      const vectors = await embedder.embed(request.texts);
      // Each buffer once: an embedder may hand out views of one buffer, and a transfer list naming a buffer twice throws.
      port.postMessage({ id: request.id, vectors } satisfies EmbedderThreadReply, [...new Set(vectors.map((v) => v.buffer as ArrayBuffer))]);
    } catch (error) {
      const code = EngramError.isInstance(error) ? error.code : 'EMBEDDING_FAILED';
      port.postMessage({ id: request.id, error: { code, message: error instanceof Error ? error.message : String(error) } } satisfies EmbedderThreadReply);
    }
  })();
});
