import { relevanceLogit, sigmoid } from './calibration.js';
import { fuse, type MethodScores } from './fusion.js';
import type { RecallConfig } from './recall-config.js';

export interface CandidateScore {
  /** What ranking adds to and borrows from: the calibrated log-odds, or the z-score / RRF sum. */
  fused: number;
  /** Relevance on [0, 1]: absolute with calibrated fusion, min-max over the candidates otherwise. */
  relevance: number;
  /** The calibrated relevance whatever the fusion: comparable across queries. */
  absolute: number;
}

/**
 * The ranking core shared by memory recall and message search: one score per candidate from
 * its vector and keyword parts, as the config's fusion says. Methods the config does not use
 * contribute nothing.
 */
export function scoreCandidates(input: {
  ids: Iterable<string>;
  vectorScores: MethodScores;
  keywordScores: MethodScores;
  coverage: MethodScores;
  /** Log-odds added to a candidate's score from matches beyond the two methods (dates); none when absent. */
  bonus?: MethodScores;
  config: RecallConfig;
}): Map<string, CandidateScore> {
  const { config, vectorScores, keywordScores, coverage } = input;
  const ids = [...new Set(input.ids)];
  const n = ids.length;
  const useVector = config.methods.includes('vector');
  const useKeyword = config.methods.includes('keyword');
  const bonus = new Float64Array(n);
  const absolute = new Float64Array(n);
  const logits = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    bonus[i] = input.bonus?.get(id) ?? 0;
    logits[i] = relevanceLogit({ vector: useVector ? vectorScores.get(id) : undefined, coverage: useKeyword ? coverage.get(id) : undefined }, config.calibration) + bonus[i]!;
    absolute[i] = sigmoid(logits[i]!);
  }
  const out = new Map<string, CandidateScore>();
  if (config.fusion === 'calibrated') {
    for (let i = 0; i < n; i++) out.set(ids[i]!, { fused: logits[i]!, relevance: absolute[i]!, absolute: absolute[i]! });
    return out;
  }
  const method = (scores: MethodScores, weight: number): { weight: number; has: Uint8Array; scores: Float64Array } => {
    const has = new Uint8Array(n);
    const values = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const s = scores.get(ids[i]!);
      if (s !== undefined) (has[i] = 1), (values[i] = s);
    }
    return { weight, has, scores: values };
  };
  const vector = method(vectorScores, useVector ? config.methodWeights.vector : 0);
  const keyword = method(keywordScores, useKeyword ? config.methodWeights.keyword : 0);
  // Fused in the order the methods found them: the vector's candidates, then the keyword's others.
  const order: number[] = [];
  for (let i = 0; i < n; i++) if (vector.has[i] === 1) order.push(i);
  for (let i = 0; i < n; i++) if (vector.has[i] === 0 && keyword.has[i] === 1) order.push(i);
  const fusedInOrder = fuse([vector, keyword], Int32Array.from(order), config.fusion, config.rrfK);
  // An id neither method scored counts as the lowest fused score.
  let floor = order.length > 0 ? Infinity : 0;
  for (const f of fusedInOrder) floor = Math.min(floor, f);
  const fused = new Float64Array(n).fill(floor);
  order.forEach((i, u) => (fused[i] = fusedInOrder[u]!));
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    fused[i] = fused[i]! + bonus[i]!;
    lo = Math.min(lo, fused[i]!);
    hi = Math.max(hi, fused[i]!);
  }
  // Relevance: min-max over the candidates (all 1 when they tie).
  const span = hi - lo;
  for (let i = 0; i < n; i++) out.set(ids[i]!, { fused: fused[i]!, relevance: span > 0 ? (fused[i]! - lo) / span : 1, absolute: absolute[i]! });
  return out;
}
