import type { Embedder } from './embedder.js';

/**
 * An embedder that remembers what it embedded, for one short-lived operation (one context build
 * recalls memories and episodes for the same query: the query is embedded once). `known` vectors
 * are answered without calling `inner` (a batch searched by its stored vectors, extract-session.ts).
 */
export function memoEmbedder(inner: Embedder, known: ReadonlyMap<string, Float32Array> = new Map()): Embedder {
  const seen = new Map<string, Promise<Float32Array>>([...known].map(([text, vector]) => [text, Promise.resolve(vector)]));
  return {
    id: inner.id,
    get dimensions() {
      return inner.dimensions;
    },
    ...(inner.bridge ? { bridge: (texts: readonly string[]) => inner.bridge!(texts) } : {}),
    async embed(texts) {
      const missing = [...new Set(texts.filter((t) => !seen.has(t)))];
      if (missing.length > 0) {
        const batch = inner.embed(missing);
        missing.forEach((t, i) => seen.set(t, batch.then((vs) => vs[i]!)));
      }
      return Promise.all(texts.map((t) => seen.get(t)!));
    },
  };
}
