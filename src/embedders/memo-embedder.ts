import type { Embedder } from './embedder.js';

/**
 * An embedder that remembers what it embedded, for one short-lived operation (one context build
 * recalls memories and episodes for the same query: the query is embedded once).
 */
export function memoEmbedder(inner: Embedder): Embedder {
  const seen = new Map<string, Promise<Float32Array>>();
  return {
    id: inner.id,
    get dimensions() {
      return inner.dimensions;
    },
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
