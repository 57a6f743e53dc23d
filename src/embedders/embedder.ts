/**
 * The embedding port. Every vector the store keeps is tagged with `id`, so a store never mixes
 * vectors from two embedders. Vectors are L2-normalised, so a dot product is the cosine.
 */
export interface Embedder {
  /** Stable identity of the model and its settings, e.g. "use-lite-cedict@1" or "openai:text-embedding-3-small". */
  readonly id: string;
  readonly dimensions: number;
  /** Embeds texts in order; may batch internally. Throws EngramError EMBEDDING_FAILED on failure. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  if (norm === 0) return vector;
  for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}
