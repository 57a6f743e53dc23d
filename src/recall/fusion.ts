import type { FusionMethod } from './recall-config.js';

export type MethodScores = Map<string, number>;

/**
 * Fuses per-method scores of candidates held by position (`has[i]` says whether method scored
 * candidate i, `scores[i]` its score) into one score per fused candidate, in `order` (positions):
 * every candidate some method scored. With z-score fusion every method is standardised over the
 * fused candidates; a candidate a method did not score counts as that method's "no match" value,
 * min(0, its lowest score): below everything it did score. With RRF each method adds
 * weight / (k + rank). Arrays by position rather than maps keyed by id: a message search fuses
 * hundreds of turns per context build.
 */
export function fuse(
  perMethod: ReadonlyArray<{ weight: number; has: Uint8Array; scores: Float64Array }>,
  order: Int32Array,
  method: FusionMethod,
  rrfK: number,
): Float64Array {
  const fused = new Float64Array(order.length);
  for (const { weight, has, scores } of perMethod) {
    let count = 0;
    let missing = 0;
    for (const i of order) {
      if (has[i] === 0) continue;
      count++;
      missing = Math.min(missing, scores[i]!);
    }
    if (count === 0 || weight === 0) continue;
    if (method === 'rrf') {
      // Best first; equal scores keep the candidates' own order (a stable sort over positions).
      const at = new Int32Array(has.length);
      order.forEach((i, u) => (at[i] = u));
      const ranked: number[] = [];
      for (let i = 0; i < has.length; i++) if (has[i] === 1) ranked.push(i);
      ranked.sort((a, b) => scores[b]! - scores[a]!);
      ranked.forEach((i, rank) => (fused[at[i]!] = fused[at[i]!]! + weight / (rrfK + rank + 1)));
      continue;
    }
    const value = (u: number): number => (has[order[u]!] === 1 ? scores[order[u]!]! : missing);
    let sum = 0;
    for (let u = 0; u < order.length; u++) sum += value(u);
    const mean = sum / order.length;
    let squares = 0;
    for (let u = 0; u < order.length; u++) squares += (value(u) - mean) ** 2;
    const sd = Math.sqrt(squares / order.length) || 1;
    for (let u = 0; u < order.length; u++) fused[u] = fused[u]! + weight * ((value(u) - mean) / sd);
  }
  return fused;
}
