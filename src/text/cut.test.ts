import { describe, expect, it } from 'vitest';
import { cutAtBreaks } from './cut.js';
import { words } from './segment.js';

describe('cutAtBreaks', () => {
  it.each([
    ['zh', '今天天气很好，我们去公园散步吧。'.repeat(500)],
    ['en', 'The weather is nice today, let us go for a walk. '.repeat(300)],
    ['no breaks', '猫'.repeat(5_000)],
    ['surrogates', '😀'.repeat(3_000)],
  ])('%s: the pieces join back to the text, each at most the size, cut at a mark where there is one', (name, text) => {
    const pieces = cutAtBreaks(text, 2_000);
    expect(pieces.join('')).toBe(text);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(2_000);
    if (name === 'zh' || name === 'en') for (const p of pieces.slice(0, -1)) expect(p).toMatch(/[，。,.]\s*$/u);
    if (name === 'surrogates') for (const p of pieces) expect(p).toMatch(/^(?:😀)+$/u);
  });

  it('a text of at most the size is itself', () => {
    expect(cutAtBreaks('我喜欢猫', 2_000)).toEqual(['我喜欢猫']);
  });
});

describe('words: a long text is segmented in pieces, with the words its sentences have', () => {
  it.each([
    ['zh', '我喜欢猫，也喜欢狗。', 800],
    ['en', 'I like cats, and I like dogs too. ', 300],
  ])('%s', (_lang, sentence, times) => {
    const text = sentence.repeat(times);
    expect(text.length).toBeGreaterThan(2_000);
    const one = words(sentence);
    expect(words(text)).toEqual(Array.from({ length: times }, () => one).flat());
  });
});
