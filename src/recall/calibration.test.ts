import { describe, expect, it } from 'vitest';
import { DEFAULT_CALIBRATION, relevanceLogit, sigmoid } from './calibration.js';

describe('calibration', () => {
  it('maps absolute parts through one fixed curve', () => {
    const none = sigmoid(relevanceLogit({}, DEFAULT_CALIBRATION));
    const cosOnly = sigmoid(relevanceLogit({ vector: 0.6 }, DEFAULT_CALIBRATION));
    const both = sigmoid(relevanceLogit({ vector: 0.6, coverage: 1 }, DEFAULT_CALIBRATION));
    expect(none).toBeLessThan(0.05);
    expect(cosOnly).toBeGreaterThan(none);
    expect(both).toBeGreaterThan(cosOnly);
    expect(both).toBeLessThanOrEqual(1);
  });

  it('is monotone in each part', () => {
    let last = -Infinity;
    for (const v of [-0.2, 0, 0.2, 0.4, 0.8]) {
      const x = relevanceLogit({ vector: v, coverage: 0.3 }, DEFAULT_CALIBRATION);
      expect(x).toBeGreaterThan(last);
      last = x;
    }
  });
});
