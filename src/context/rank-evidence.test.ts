import { describe, expect, it } from 'vitest';
import { ContextRanking, evidenceScore, rankEvidence, sourceLift } from './rank-evidence.js';

// The floor held strict here; its confident drop is tested on its own below.
const r = ContextRanking.parse({ floor: 0.3, keywordWeight: 1, keywordHalf: 6, confidentFloorDrop: 0 });

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

  it("lifts each source's candidates by its own ranking, ordering only: what was under its floor stays out (zh and en)", () => {
    const lift = sourceLift([2, 1, 0], 0.6);
    expect(lift).toEqual([0.6, 0.3, 0]);
    expect(sourceLift([5, 5], 0.6)).toEqual([0.6, 0.6]);
    expect(sourceLift([3, 1], 0)).toEqual([0, 0]);
    // Two excerpts the block's own scale puts the other way round; the message search ranked 我在西湖边画画 first.
    const excerpts = [
      { item: 'excerpt: 我在西湖边画画', own: 0.5, search: 0.9 },
      { item: 'excerpt: I adopted a kitten', own: 0.55, search: 0.1 },
      { item: 'excerpt: unrelated small talk', own: 0.29, search: 1.2 },
    ];
    const l = sourceLift(excerpts.map((e) => e.search), 1);
    const ranked = rankEvidence(excerpts.map((e, i) => ({ item: e.item, score: e.own + l[i]!, floor: r.floor + l[i]! })), r);
    expect(ranked.map((c) => c.item)).toEqual(['excerpt: 我在西湖边画画', 'excerpt: I adopted a kitten']);
  });

  for (const c of [
    { language: 'zh', clear: 'excerpt: 上个月我在西湖边画了一幅日落的油画', weak: 'excerpt: 那天晚霞是橙色的，我画了很久' },
    { language: 'en', clear: 'excerpt: Last month I painted a sunset over the lake', weak: 'excerpt: The sky was orange that evening, it took me hours' },
  ]) {
    it(`lowers every floor once one candidate clears its own by the confident margin (${c.language})`, () => {
      const confident = ContextRanking.parse({ floor: 0.45, memoryFloor: 0.3, confidentMargin: 0.5, confidentFloorDrop: 0.1 });
      const weak = [
        { item: c.weak, score: 0.4 },
        { item: 'memory: weak', score: 0.25, floor: 0.3 },
        { item: 'too weak', score: 0.3 },
      ];
      // A clear match (0.55 over the floor): the weaker evidence around it goes in, down to 0.35 (memories 0.2).
      expect(rankEvidence([{ item: c.clear, score: 1 }, ...weak], confident).map((x) => x.item)).toEqual([c.clear, c.weak, 'memory: weak']);
      // Nothing clear (the best only 0.44 over): the floor stays where it is.
      expect(rankEvidence([{ item: c.clear, score: 0.89 }, ...weak], confident).map((x) => x.item)).toEqual([c.clear]);
      // A drop of 0 turns it off.
      expect(rankEvidence([{ item: c.clear, score: 1 }, ...weak], { ...confident, confidentFloorDrop: 0 }).map((x) => x.item)).toEqual([c.clear]);
    });
  }
});
