import { relevanceLogit, sigmoid } from './calibration.js';
import { fuse, minMax, type MethodScores } from './fusion.js';
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
  const { config } = input;
  const ids = [...input.ids];
  const useVector = config.methods.includes('vector');
  const useKeyword = config.methods.includes('keyword');
  const logits = new Map(
    ids.map((id) => [
      id,
      relevanceLogit({ vector: useVector ? input.vectorScores.get(id) : undefined, coverage: useKeyword ? input.coverage.get(id) : undefined }, config.calibration) +
        (input.bonus?.get(id) ?? 0),
    ]),
  );
  if (config.fusion === 'calibrated') {
    return new Map(ids.map((id) => [id, { fused: logits.get(id)!, relevance: sigmoid(logits.get(id)!), absolute: sigmoid(logits.get(id)!) }]));
  }
  const only = (s: MethodScores): MethodScores => new Map(ids.flatMap((id) => (s.has(id) ? [[id, s.get(id)!] as const] : [])));
  const fused = fuse(
    [
      { weight: useVector ? config.methodWeights.vector : 0, scores: only(input.vectorScores) },
      { weight: useKeyword ? config.methodWeights.keyword : 0, scores: only(input.keywordScores) },
    ],
    config.fusion,
    config.rrfK,
  );
  // An id neither method scored counts as the lowest fused score.
  const floor = fused.size > 0 ? Math.min(...fused.values()) : 0;
  for (const id of ids) fused.set(id, (fused.get(id) ?? floor) + (input.bonus?.get(id) ?? 0));
  const relevance = minMax(fused);
  return new Map(ids.map((id) => [id, { fused: fused.get(id)!, relevance: relevance.get(id)!, absolute: sigmoid(logits.get(id)!) }]));
}
