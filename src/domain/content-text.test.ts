import { describe, expect, it } from 'vitest';
import { ContentText, contentTextProblem, firstControl, quoted } from './content-text.js';

describe('ContentText: the words of a memory, a todo or a learning', () => {
  it.each([
    ['zh', '用户\u0000喜欢猫', 'U+0000', 3],
    ['en', 'The user \u001b[31mlikes cats', 'U+001B', 10],
    ['zh, DEL', '用户喜欢猫\u007f', 'U+007F', 6],
    ['en, C1 CSI', 'likes \u009b31m cats', 'U+009B', 7],
    ['emoji counted as one', '😺\u0007 The user likes cats', 'U+0007', 2],
  ])('%s: names the first control character and where it is', (_, text, code, position) => {
    expect(firstControl(text)).toEqual({ code, position });
    expect(ContentText.safeParse(text).success).toBe(false);
    expect(contentTextProblem(text)).toBe(`must not contain control characters: ${code} at character ${position} (tab, line feed and carriage return are kept)`);
  });

  it('keeps tab, line feed, CR, bidi marks and isolates, ZWJ sequences and zero-width spaces (zh, en)', () => {
    for (const text of ['第一行\n第二行\t第三列\r\n', 'The user\u2019s name is \u202bשרה\u202c', '用户住在\u2067北京\u2069', 'Family: 👨\u200d👩\u200d👧', '用户\u200b喜欢猫', '\u202e用户住在北京']) {
      expect(contentTextProblem(text), JSON.stringify(text)).toBeNull();
      expect(ContentText.parse(text)).toBe(text);
    }
  });

  it('refuses a lone surrogate, and a control character even where trimming would have dropped it', () => {
    expect(contentTextProblem('用户\ud800喜欢猫')).toMatch(/lone surrogates/);
    expect(firstControl('\u000cThe user likes cats')).toEqual({ code: 'U+000C', position: 1 });
    expect(firstControl('用户喜欢猫\u000b')).toEqual({ code: 'U+000B', position: 6 });
  });

  it('quoted shows every control character as \\uXXXX, C1 too, and leaves the words (zh, en)', () => {
    expect(quoted('用户对\u0000花生过敏')).toBe('"用户对\\u0000花生过敏"');
    expect(quoted('likes \u009b31m "red"\t')).toBe('"likes \\u009B31m \\"red\\"\\u0009"');
  });
});
