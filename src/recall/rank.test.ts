import { describe, expect, it } from 'vitest';
import { finalScore } from './rank.js';

const weights = { relevance: 0.6, recency: 0.2, importance: 0.2 };

describe('finalScore', () => {
  it('product: recency and importance scale relevance, so an unrelated memory stays at zero however recent', () => {
    expect(finalScore(0, 1, 1, { weights, combine: 'product' })).toBe(0);
    expect(finalScore(0.5, 1, 0.5, { weights, combine: 'product' })).toBeCloseTo(0.5 * 0.9, 12);
    // Between two equally related memories, the recent one still ranks first.
    expect(finalScore(0.8, 0.9, 0.5, { weights, combine: 'product' })).toBeGreaterThan(finalScore(0.8, 0.1, 0.5, { weights, combine: 'product' }));
  });

  it("sum: seed 004's weighted sum as written, where recency alone lifts an unrelated memory", () => {
    expect(finalScore(0, 1, 1, { weights, combine: 'sum' })).toBeCloseTo(0.4, 12);
    expect(finalScore(0.5, 1, 0.5, { weights, combine: 'sum' })).toBeCloseTo(0.6 * 0.5 + 0.2 + 0.1, 12);
  });
});
