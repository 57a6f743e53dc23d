/**
 * The embedding port. Every vector the store keeps is tagged with `id`, so a store never mixes
 * vectors from two embedders. Vectors are L2-normalised, so a dot product is the cosine.
 */
export interface Embedder {
  /** Stable identity of the model and its settings, e.g. "use-lite-cedict@1" or "openai:text-embedding-3-small". */
  readonly id: string;
  readonly dimensions: number;
  /**
   * Ids of earlier versions of this embedder whose vectors it replaces without being asked: a
   * store bound to one of them is re-embedded on first use instead of refused (the bundled
   * embedder after a change to its glossing, say). Any other id is refused with EMBEDDER_MISMATCH.
   */
  readonly supersedes?: readonly string[];
  /**
   * Of the versions it supersedes, those whose vectors it left unchanged for short texts: the
   * longest such text in UTF-8 bytes, per version. An upgrade from one keeps those vectors and
   * embeds only the longer texts again (`use-lite-cedict@4` changed only texts over 1,200
   * characters: a store of @3 was re-embedded whole, minutes for a big one, on its first use).
   */
  readonly unchangedUpTo?: Readonly<Record<string, number>>;
  /** Embeds texts in order; may batch internally. Throws EngramError EMBEDDING_FAILED on failure. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /**
   * Each text in the words this embedder reads it by across languages: the bundled embedder's
   * English glosses of Chinese ("用户对花生过敏" → "user to peanut allergic"), a text without Chinese
   * as it is. Forgetting a topic matches its words through them in memories of the other language.
   * Optional: an embedder that reads both languages itself has no words to give.
   */
  bridge?(texts: readonly string[]): Promise<string[]>;
  /**
   * Loads what the first `embed` would otherwise load (a local model), so the first real call is
   * as fast as the rest. Optional: an embedder behind an HTTP endpoint has nothing to load and no
   * reason to spend a call. Throws like `embed`.
   */
  warm?(): Promise<void>;
  /** Releases what the embedder holds (a worker thread); the engine calls it on close. Optional. */
  close?(): Promise<void>;
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
  return dotAt(a, b, 0, Math.min(a.length, b.length));
}

/**
 * a[0, n) · b[offset, offset + n), in four sums: one dependent sum ran at about half the speed,
 * and a context build scores hundreds of cached vectors this way. Every float product in the
 * engine goes through here, so two paths scoring the same pair give the same number.
 */
export function dotAt(a: Float32Array, b: Float32Array, offset: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = 0;
  for (; j + 3 < n; j += 4) {
    s0 += a[j]! * b[offset + j]!;
    s1 += a[j + 1]! * b[offset + j + 1]!;
    s2 += a[j + 2]! * b[offset + j + 2]!;
    s3 += a[j + 3]! * b[offset + j + 3]!;
  }
  for (; j < n; j++) s0 += a[j]! * b[offset + j]!;
  return s0 + s1 + s2 + s3;
}
