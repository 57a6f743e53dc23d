import { EngramError } from '../errors.js';

export interface EmbedQueueOptions {
  /** Embeds one chunk of texts, one vector per text in order. The queue keeps one chunk in flight at a time. */
  run(texts: string[]): Promise<Float32Array[]>;
  /**
   * What one chunk should take, in milliseconds: a call that arrives while a long one is being
   * embedded waits about this long for the chunk in flight, not for the whole call. Chunks are
   * sized from the time texts have taken so far. @default 50 (`npm run bench -- --only embedder`:
   * the bundled model, 400 texts, a query every 150–250 ms; queries waited p50 / max 14 / 28 ms with
   * 25 ms chunks, 31 / 46 with 50, 64 / 106 with 100, and the whole import, 3.8 s, in one batch; the
   * import took 22 %, 17 % and 0 % longer than in one batch)
   */
  chunkMs?: number;
  /** Most texts in one chunk (a fast embedder's chunks, and the model's own batch). @default 32 */
  maxChunk?: number;
  /**
   * A call left waiting this long since it was last served goes next whatever its size, so a
   * long call still finishes while short ones keep arriving. @default 1000
   */
  maxWaitMs?: number;
  /** Milliseconds of a monotonic clock. @default performance.now */
  now?: () => number;
}

export interface EmbedQueue {
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Rejects every call waiting or in flight with `error`. Later calls are served as usual. */
  failAll(error: unknown): void;
  /** Calls waiting or in flight. */
  readonly pending: number;
}

interface Call {
  texts: readonly string[];
  vectors: Float32Array[];
  /** Texts embedded so far. */
  done: number;
  /** When it arrived, or was last served. */
  servedAt: number;
  resolve(vectors: Float32Array[]): void;
  reject(error: unknown): void;
}

/** The first guess at a text's cost, before any was measured: about what the bundled model takes. */
const FIRST_MS_PER_TEXT = 10;
/** Weight of the newest chunk in the running cost per text. */
const SMOOTHING = 0.3;

/**
 * One embedder shared by every caller, served a chunk at a time, the call with the fewest texts
 * left first. Without it, a model that embeds in arrival order (a worker thread) made a chat's
 * one-text query wait for a whole import or re-embedding queued before it: 2.7 s behind 400
 * texts with the bundled model, longer than the proxy waits for memory. Now the query waits for
 * the chunk in flight (about `chunkMs`); the long call goes on between short ones, and after
 * `maxWaitMs` without a turn it goes first.
 */
export function createEmbedQueue(options: EmbedQueueOptions): EmbedQueue {
  const chunkMs = options.chunkMs ?? 50;
  const maxChunk = options.maxChunk ?? 32;
  const maxWaitMs = options.maxWaitMs ?? 1000;
  const now = options.now ?? (() => performance.now());
  const calls: Call[] = [];
  let inFlight = false;
  let msPerText = FIRST_MS_PER_TEXT;

  const left = (c: Call): number => c.texts.length - c.done;
  const remove = (c: Call): boolean => {
    const at = calls.indexOf(c);
    if (at === -1) return false;
    calls.splice(at, 1);
    return true;
  };
  /** The call served next: one kept waiting too long (the longest first), else the one with the fewest texts left (the earliest of equals). */
  const pick = (): Call | undefined => {
    const t = now();
    let starved: Call | undefined;
    for (const c of calls) if (t - c.servedAt >= maxWaitMs && (!starved || c.servedAt < starved.servedAt)) starved = c;
    if (starved) return starved;
    let best = calls[0];
    for (const c of calls) if (left(c) < left(best!)) best = c;
    return best;
  };
  const pump = (): void => {
    if (inFlight) return;
    const call = pick();
    if (!call) return;
    const size = Math.max(1, Math.min(maxChunk, Math.floor(chunkMs / msPerText)));
    const chunk = call.texts.slice(call.done, call.done + size);
    const started = now();
    inFlight = true;
    let answer: Promise<Float32Array[]>;
    try {
      answer = options.run(chunk);
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer
      .then(
        (vectors) => {
          msPerText = (1 - SMOOTHING) * msPerText + (SMOOTHING * (now() - started)) / chunk.length;
          // Failed (failAll) while its chunk was in flight: the answer has no one left to go to.
          if (!calls.includes(call)) return;
          if (vectors.length !== chunk.length) {
            remove(call);
            call.reject(new EngramError('EMBEDDING_FAILED', `The embedder returned ${vectors.length} vectors for ${chunk.length} texts`));
            return;
          }
          call.vectors.push(...vectors);
          call.done += chunk.length;
          call.servedAt = now();
          if (left(call) === 0) {
            remove(call);
            call.resolve(call.vectors);
          }
        },
        (error: unknown) => {
          if (remove(call)) call.reject(error);
        },
      )
      .finally(() => {
        inFlight = false;
        pump();
      });
  };

  return {
    embed(texts) {
      if (texts.length === 0) return Promise.resolve([]);
      return new Promise<Float32Array[]>((resolve, reject) => {
        calls.push({ texts: [...texts], vectors: [], done: 0, servedAt: now(), resolve, reject });
        pump();
      });
    },
    failAll(error) {
      for (const c of calls.splice(0)) c.reject(error);
    },
    get pending() {
      return calls.length;
    },
  };
}
