import { countTokens as uncached } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { cachedTokenCounts, countTokens } from './tokens.js';

describe('countTokens', () => {
  it.each([
    ['Chinese', '用户喜欢猫，养了一只叫小白的猫'],
    ['English', 'The user loves cats and has a cat named Snow'],
  ])('%s: the same count the tokenizer gives, first and second time', (_, text) => {
    expect(countTokens(text)).toBe(uncached(text));
    expect(countTokens(text)).toBe(uncached(text));
    expect(countTokens(`${text}！`)).toBe(uncached(`${text}！`));
  });

  it('keeps a bounded number of counts and never caches long texts', () => {
    const before = cachedTokenCounts();
    countTokens('长'.repeat(2_001));
    expect(cachedTokenCounts()).toBe(before);
    for (let i = 0; i < 25_000; i++) countTokens(`turn ${i} 第${i}句`);
    expect(cachedTokenCounts()).toBeLessThanOrEqual(20_000);
    expect(countTokens('turn 24999 第24999句')).toBe(uncached('turn 24999 第24999句'));
  });
});
