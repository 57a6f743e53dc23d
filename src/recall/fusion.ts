import type { FusionMethod } from './recall-config.js';

export type MethodScores = Map<string, number>;

function zScores(scores: MethodScores): Map<string, number> {
  const values = [...scores.values()];
  if (values.length === 0) return new Map();
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1);
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(values.length, 1);
  const sd = Math.sqrt(variance) || 1;
  return new Map([...scores].map(([id, s]) => [id, (s - mean) / sd]));
}

/**
 * Fuses per-method candidate scores into one score per id. With z-score fusion every method is
 * standardised over the whole candidate set; an id a method did not return counts as that
 * method's "no match" value, min(0, its lowest score): below everything it did return.
 */
export function fuse(perMethod: ReadonlyArray<{ weight: number; scores: MethodScores }>, method: FusionMethod, rrfK: number): Map<string, number> {
  const ids = new Set<string>();
  for (const m of perMethod) for (const id of m.scores.keys()) ids.add(id);
  const fused = new Map<string, number>([...ids].map((id) => [id, 0]));
  for (const { weight, scores } of perMethod) {
    if (scores.size === 0 || weight === 0) continue;
    if (method === 'rrf') {
      const ranked = [...scores].sort((a, b) => b[1] - a[1]);
      ranked.forEach(([id], rank) => fused.set(id, fused.get(id)! + weight / (rrfK + rank + 1)));
    } else {
      const missing = Math.min(0, ...scores.values());
      const z = zScores(new Map([...ids].map((id) => [id, scores.get(id) ?? missing])));
      for (const id of ids) fused.set(id, fused.get(id)! + weight * z.get(id)!);
    }
  }
  return fused;
}

/** Maps scores to [0, 1] by min-max over the candidate set (a single candidate gets 1). */
export function minMax(scores: Map<string, number>): Map<string, number> {
  const values = [...scores.values()];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo;
  return new Map([...scores].map(([id, s]) => [id, span > 0 ? (s - lo) / span : 1]));
}
