import { describe, expect, it } from 'vitest';
import { LABELLED_EN, LABELLED_ZH } from '../../../test/fixtures/extraction-labelled.js';
import { LABELLED_EN_MORE } from '../../../test/fixtures/extraction-labelled-more.js';
import { scoreExtraction } from '../../../test/fixtures/score-extraction.js';

// Floors on the labelled set (test/fixtures/extraction-labelled.ts): precision first. The Chinese
// turns were written alongside the patterns, so its recall floor is higher than a fresh set would
// reach; the English turns are LoCoMo's, where most turns are reactions with nothing to keep.
describe('heuristic extractor on the labelled set', () => {
  it('has 200 Chinese and 200 English turns', () => {
    expect(LABELLED_ZH).toHaveLength(200);
    expect(LABELLED_EN).toHaveLength(200);
  });

  it('Chinese: precision ≥ 0.9, recall ≥ 0.85', () => {
    const s = scoreExtraction(LABELLED_ZH);
    expect(s.wrong.length / Math.max(s.extracted, 1), JSON.stringify(s.wrong, null, 1)).toBeLessThanOrEqual(0.1);
    expect(s.precision).toBeGreaterThanOrEqual(0.9);
    expect(s.recall).toBeGreaterThanOrEqual(0.85);
  });

  it('English: precision ≥ 0.9, recall ≥ 0.35', () => {
    const s = scoreExtraction(LABELLED_EN);
    expect(s.precision, JSON.stringify(s.wrong, null, 1)).toBeGreaterThanOrEqual(0.9);
    expect(s.recall).toBeGreaterThanOrEqual(0.35);
  });

  it('English, the second sample (labelled before the patterns were widened): precision ≥ 0.9, recall ≥ 0.3', () => {
    expect(LABELLED_EN_MORE).toHaveLength(60);
    const s = scoreExtraction(LABELLED_EN_MORE);
    expect(s.precision, JSON.stringify(s.wrong, null, 1)).toBeGreaterThanOrEqual(0.9);
    expect(s.recall).toBeGreaterThanOrEqual(0.3);
  });

  it('scores a wrong extraction as wrong and a missed one as missed', () => {
    const s = scoreExtraction([
      { text: '我喜欢猫', expect: [['喜欢狗']] },
      { text: 'Thanks, see you!', expect: [['see you']] },
    ]);
    expect(s).toMatchObject({ extracted: 1, correct: 0, found: 0, precision: 0, recall: 0 });
  });
});
