import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { relevanceLogit, sigmoid } from './calibration.js';
import { RecallConfig } from './recall-config.js';
import { scoreCandidates, type CandidateScore } from './score-candidates.js';

type Scores = Map<string, number>;

/**
 * The map-based implementation scoreCandidates replaced (arrays by position since), kept as the
 * oracle: the rewrite must give exactly its numbers, ties and order included.
 */
function reference(input: { ids: string[]; vectorScores: Scores; keywordScores: Scores; coverage: Scores; bonus?: Scores; config: RecallConfig }): Map<string, CandidateScore> {
  const { config, ids } = input;
  const useVector = config.methods.includes('vector');
  const useKeyword = config.methods.includes('keyword');
  const logits = new Map(ids.map((id) => [id, relevanceLogit({ vector: useVector ? input.vectorScores.get(id) : undefined, coverage: useKeyword ? input.coverage.get(id) : undefined }, config.calibration) + (input.bonus?.get(id) ?? 0)]));
  if (config.fusion === 'calibrated') return new Map(ids.map((id) => [id, { fused: logits.get(id)!, relevance: sigmoid(logits.get(id)!), absolute: sigmoid(logits.get(id)!) }]));
  const only = (s: Scores): Scores => new Map(ids.flatMap((id) => (s.has(id) ? [[id, s.get(id)!] as const] : [])));
  const perMethod = [
    { weight: useVector ? config.methodWeights.vector : 0, scores: only(input.vectorScores) },
    { weight: useKeyword ? config.methodWeights.keyword : 0, scores: only(input.keywordScores) },
  ];
  const union = new Set<string>();
  for (const m of perMethod) for (const id of m.scores.keys()) union.add(id);
  const fused = new Map<string, number>([...union].map((id) => [id, 0]));
  for (const { weight, scores } of perMethod) {
    if (scores.size === 0 || weight === 0) continue;
    if (config.fusion === 'rrf') {
      [...scores].sort((a, b) => b[1] - a[1]).forEach(([id], rank) => fused.set(id, fused.get(id)! + weight / (config.rrfK + rank + 1)));
      continue;
    }
    const missing = Math.min(0, ...scores.values());
    const values = [...union].map((id) => scores.get(id) ?? missing);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length) || 1;
    for (const id of union) fused.set(id, fused.get(id)! + weight * (((scores.get(id) ?? missing) - mean) / sd));
  }
  const floor = fused.size > 0 ? Math.min(...fused.values()) : 0;
  for (const id of ids) fused.set(id, (fused.get(id) ?? floor) + (input.bonus?.get(id) ?? 0));
  const lo = Math.min(...fused.values());
  const span = Math.max(...fused.values()) - lo;
  return new Map(ids.map((id) => [id, { fused: fused.get(id)!, relevance: span > 0 ? (fused.get(id)! - lo) / span : 1, absolute: sigmoid(logits.get(id)!) }]));
}

const score = fc.oneof(fc.double({ min: -1, max: 20, noNaN: true }), fc.constantFrom(0, 1, 0.5, 3));

describe('scoreCandidates', () => {
  it('gives exactly the map-based numbers for every fusion, method set, tie and bonus (ids 猫/cat and others)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.oneof(fc.constantFrom('猫', 'cat', '用户喜欢猫', 'user likes cats'), fc.string({ minLength: 1, maxLength: 4 })), { minLength: 0, maxLength: 30 }),
        fc.array(fc.tuple(fc.boolean(), score, fc.boolean(), score, score, fc.boolean(), score), { minLength: 30, maxLength: 30 }),
        fc.constantFrom('calibrated', 'zscore', 'rrf'),
        fc.constantFrom(['vector', 'keyword'], ['vector'], ['keyword']),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (ids, parts, fusion, methods, weight) => {
          const vectorScores: Scores = new Map();
          const keywordScores: Scores = new Map();
          const coverage: Scores = new Map();
          const bonus: Scores = new Map();
          ids.forEach((id, i) => {
            const [v, vs, k, ks, cov, b, bs] = parts[i]!;
            if (v) vectorScores.set(id, vs);
            if (k) (keywordScores.set(id, ks), coverage.set(id, cov));
            if (b) bonus.set(id, bs);
          });
          const config = RecallConfig.parse({ fusion, methods, methodWeights: { vector: weight, keyword: 1 - weight } });
          const input = { ids, vectorScores, keywordScores, coverage, bonus, config };
          const got = scoreCandidates(input);
          const want = reference(input);
          expect([...got.keys()]).toEqual([...want.keys()]);
          for (const [id, s] of want) expect(got.get(id)).toStrictEqual(s);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
