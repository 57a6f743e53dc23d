import { Worker } from 'node:worker_threads';
import { EngramError, type ErrorCode } from '../errors.js';
import { BUNDLED_EMBEDDER_ID, BUNDLED_SUPERSEDES, BUNDLED_UNCHANGED_UP_TO } from './bundled-embedder.js';
import { createEmbedQueue } from './embed-queue.js';
import type { Embedder } from './embedder.js';
import { createHashEmbedder } from './hash-embedder.js';
import { workerEntry } from '../util/worker-entry.js';

/** An embedder built inside the worker: specs cross threads, functions do not. */
export type ThreadedEmbedderSpec = { kind: 'bundled' } | { kind: 'hash'; dimensions?: number };
export type EmbedderThreadRequest = { id: number; texts: string[] | 'warm'; bridge?: true };
export type EmbedderThreadReply = { id: number; vectors: Float32Array[] } | { id: number; bridged: string[] } | { id: number; error: { code: ErrorCode; message: string } };

const BUNDLED_DIMENSIONS = 512;
type Answer = Exclude<EmbedderThreadReply, { error: unknown }>;

/**
 * An embedder whose model runs in a worker thread of its own. The bundled model takes about 10 ms
 * of CPU per text; on the server's thread every request in flight waits that long for each text
 * of every chat turn (the message before the reply, both turns after it). In a worker the server's
 * thread goes on answering, and a context build reads the store while its query is embedded.
 *
 * Calls share the worker a chunk at a time, the shortest first (`createEmbedQueue`): a chat's
 * query is not held up behind an import's thousand texts.
 *
 * The worker starts on the first call (or `warm`), keeps the process alive only while a call is
 * pending, and is started again after it died (the call whose chunk was in flight then fails with
 * EMBEDDING_FAILED; the calls waiting go on in the new worker). `close` ends it, and fails every
 * call waiting or in flight.
 */
export function createThreadedEmbedder(
  spec: ThreadedEmbedderSpec,
  options: {
    /** What one chunk of a call should take (`EmbedQueueOptions.chunkMs`). @default 50 */
    chunkMs?: number;
  } = {},
): Embedder & { close(): Promise<void> } {
  const identity = spec.kind === 'bundled' ? { id: BUNDLED_EMBEDDER_ID, dimensions: BUNDLED_DIMENSIONS, supersedes: BUNDLED_SUPERSEDES, unchangedUpTo: BUNDLED_UNCHANGED_UP_TO } : createHashEmbedder(spec.dimensions === undefined ? {} : { dimensions: spec.dimensions });
  const pending = new Map<number, { resolve: (reply: Answer) => void; reject: (e: unknown) => void }>();
  let worker: Worker | undefined;
  let next = 0;

  const failAll = (message: string, cause?: unknown): void => {
    for (const { reject } of pending.values()) reject(new EngramError('EMBEDDING_FAILED', message, cause === undefined ? {} : { cause }));
    pending.clear();
  };
  const start = (): Worker => {
    const [entry, options] = workerEntry(import.meta.url, 'embedder-thread-worker');
    const w = new Worker(entry, { ...options, workerData: spec });
    w.unref();
    w.on('message', (reply: EmbedderThreadReply) => {
      const call = pending.get(reply.id);
      if (!call) return;
      pending.delete(reply.id);
      if (pending.size === 0) w.unref();
      if ('error' in reply) call.reject(new EngramError(reply.error.code, reply.error.message));
      else call.resolve(reply);
    });
    w.on('error', (error) => {
      if (worker === w) worker = undefined;
      failAll(`The embedder's worker thread failed: ${error.message}`, error);
    });
    w.on('exit', (code) => {
      if (worker === w) worker = undefined;
      if (pending.size > 0) failAll(`The embedder's worker thread exited (code ${code})`);
    });
    return w;
  };
  const ask = (texts: string[] | 'warm', bridge?: true): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const w = (worker ??= start());
      const id = next++;
      pending.set(id, { resolve, reject });
      w.ref();
      w.postMessage({ id, texts, ...(bridge ? { bridge } : {}) } satisfies EmbedderThreadRequest);
    });
  const send = async (texts: string[] | 'warm'): Promise<Float32Array[]> => {
    const answer = await ask(texts);
    if (!('vectors' in answer)) throw new EngramError('EMBEDDING_FAILED', "The embedder's worker thread answered an embedding with no vectors");
    return answer.vectors;
  };
  const queue = createEmbedQueue({ run: (texts) => send(texts), ...(options.chunkMs === undefined ? {} : { chunkMs: options.chunkMs }) });

  return {
    id: identity.id,
    dimensions: identity.dimensions,
    ...(identity.supersedes ? { supersedes: identity.supersedes } : {}),
    ...('unchangedUpTo' in identity ? { unchangedUpTo: identity.unchangedUpTo } : {}),
    embed: (texts) => queue.embed(texts),
    warm: async () => void (await send('warm')),
    // Words, not vectors: the texts a forgotten topic is looked for in, asked apart from the queue.
    ...(spec.kind === 'bundled'
      ? {
          bridge: async (texts: readonly string[]) => {
            if (texts.length === 0) return [];
            const answer = await ask([...texts], true);
            if (!('bridged' in answer)) throw new EngramError('EMBEDDING_FAILED', "The embedder's worker thread answered a bridge with no words");
            return answer.bridged;
          },
        }
      : {}),
    close: async () => {
      const w = worker;
      worker = undefined;
      // Failed now, whether or not the worker would have answered before it stops: a call in flight
      // at close() always fails (its answer could otherwise win the race with the termination).
      queue.failAll(new EngramError('EMBEDDING_FAILED', 'The embedder was closed before this call was done'));
      failAll('The embedder was closed with this call in flight');
      if (w) await w.terminate();
    },
  };
}
