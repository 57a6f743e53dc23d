import { describe, expect, it } from 'vitest';
import { ContextRanking, evidenceScore, rankEvidence } from './rank-evidence.js';

const r = ContextRanking.parse({ floor: 0.3, keywordWeight: 1, keywordHalf: 6 });

describe('one ranking for memories and excerpts', () => {
  it('scores cosine plus a bounded keyword part, the same for either kind', () => {
    expect(evidenceScore({ vector: 0.4 }, r)).toBeCloseTo(0.4);
    expect(evidenceScore({ vector: 0.4, keyword: 6 }, r)).toBeCloseTo(0.9);
    expect(evidenceScore({ keyword: 1e9 }, r)).toBeLessThan(1 + 1e-6);
    expect(evidenceScore({}, r)).toBe(0);
  });

  it('merges both sources best first and stops at the floor', () => {
    const ranked = rankEvidence(
      [
        { item: 'memory: 用户喜欢猫', score: 0.5 },
        { item: 'memory: unrelated', score: 0.29 },
        { item: 'excerpt: I adopted a kitten', score: 0.8 },
        { item: 'excerpt: 我在西湖边画画', score: 0.5 },
      ],
      r,
    );
    expect(ranked.map((c) => c.item)).toEqual(['excerpt: I adopted a kitten', 'memory: 用户喜欢猫', 'excerpt: 我在西湖边画画']);
  });
});
