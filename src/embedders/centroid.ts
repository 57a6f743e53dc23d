/**
 * The unit mean of unit vectors: what several texts point at together, without embedding their
 * joined text again. Null for no vectors, vectors of different lengths, or a mean of zero length
 * (vectors that cancel out point nowhere).
 */
export function centroid(vectors: readonly Float32Array[]): Float32Array | null {
  const first = vectors[0];
  if (!first || vectors.some((v) => v.length !== first.length)) return null;
  const sum = new Float32Array(first.length);
  for (const v of vectors) for (let i = 0; i < v.length; i++) sum[i]! += v[i]!;
  let norm = 0;
  for (const x of sum) norm += x * x;
  norm = Math.sqrt(norm);
  if (!(norm > 1e-9)) return null;
  for (let i = 0; i < sum.length; i++) sum[i]! /= norm;
  return sum;
}
