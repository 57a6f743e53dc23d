import { countTokens as uncached } from 'gpt-tokenizer';
import fc from 'fast-check';
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

  it('counts a text of many lines (a prompt block) exactly as the tokenizer counts it whole, in Chinese and English', () => {
    const block = [
      '## What you remember about the user',
      '<memories>',
      '### 事实',
      '- "用户喜欢猫" (2025-01-04)',
      '- "The user\'s team uses PostgreSQL" (2025-01-01)',
      '',
      '### Earlier conversation',
      '> [2025-01-02] user: /help 我想养猫。',
      '  assistant: OK!\n\n',
      '/slash at a line start',
      '</memories>',
    ].join('\n');
    expect(countTokens(block)).toBe(uncached(block));
    const piece = fc.constantFrom('用户', '喜欢', '猫', 'The', ' user', "'s", ' cats', ' ', '  ', '\t', '\n', '\n\n', ' \n', '。', '，', '!', '?', '/', '//', '-', '"', '(', ')', '2025', '12', '<memories>', '###', '> ', 'é', '😀', '\r\n');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(countTokens(text)).toBe(uncached(text));
      }),
      { numRuns: 3000 },
    );
  });
});
