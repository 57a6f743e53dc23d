import type { Embedder } from './embedder.js';

export interface RecentEmbeddingsOptions {
  /** Texts whose vectors are kept; the least recently used goes first. @default 512 */
  size?: number;
  /** Longer texts are embedded afresh each time (keys stay small; long texts seldom repeat). @default 4000 */
  maxChars?: number;
}

/**
 * An embedder that keeps the vectors of the last texts it embedded, across operations. One chat
 * turn embeds the same two texts twice: the user's message for its memory block and again when
 * the turn is recorded, the reply when it is recorded and again when its use of memories is
 * judged. With the bundled model each embedding is about 10 ms of the server's only thread,
 * which another user's request waits behind; with a remote model, a paid call.
 *
 * The embedder's vectors for a text do not change (its `id` names the model and its settings),
 * so a kept vector is the one a new call would give. Failures are not kept. Each caller gets its
 * own copy, so one that writes to its vector cannot change another's.
 */
export function recentEmbeddings(inner: Embedder, options: RecentEmbeddingsOptions = {}): Embedder {
  const size = options.size ?? 512;
  const maxChars = options.maxChars ?? 4000;
  const kept = new Map<string, Float32Array>();
  const keep = (text: string, vector: Float32Array): void => {
    if (text.length > maxChars || size <= 0) return;
    kept.delete(text);
    if (kept.size >= size) kept.delete(kept.keys().next().value!);
    kept.set(text, vector.slice());
  };
  const recall = (text: string): Float32Array | undefined => {
    const v = kept.get(text);
    if (v === undefined) return undefined;
    // Used again: now the most recent.
    kept.delete(text);
    kept.set(text, v);
    return v.slice();
  };
  const wrapped: Embedder = {
    id: inner.id,
    get dimensions() {
      return inner.dimensions;
    },
    async embed(texts) {
      const out: Array<Float32Array | undefined> = texts.map(recall);
      const missing = [...new Set(texts.filter((_, i) => out[i] === undefined))];
      if (missing.length === 0) return out as Float32Array[];
      const vectors = await inner.embed(missing);
      const fresh = new Map(missing.map((t, i) => [t, vectors[i]!]));
      for (const [text, vector] of fresh) keep(text, vector);
      return texts.map((t, i) => out[i] ?? fresh.get(t)!.slice());
    },
  };
  if (inner.warm) wrapped.warm = () => inner.warm!();
  if (inner.close) wrapped.close = () => inner.close!();
  return wrapped;
}
