import { describe, expect, it } from 'vitest';
import { splitHidden, visibleText } from './visible-text';

describe('visibleText: the page shows what is stored', () => {
  it('shows bidi overrides, embeddings and isolates as markers, so "\\u202E用户住在北京" is not shown as 京北在住户用 (zh, en)', () => {
    expect(visibleText('\u202E用户住在北京\u200B\uFEFF')).toBe('⟨U+202E⟩用户住在北京⟨U+200B⟩⟨U+FEFF⟩');
    expect(visibleText('The user \u202Dlikes\u202C \u2067cats\u2069')).toBe('The user ⟨U+202D⟩likes⟨U+202C⟩ ⟨U+2067⟩cats⟨U+2069⟩');
    for (const c of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069']) expect(visibleText(`a${c}b`)).not.toContain(c);
  });

  it('shows NUL and other controls as markers; tab, newline and carriage return stay', () => {
    expect(visibleText('nul \u0000 x\u0007\u001B[31m\u007F\u0085')).toBe('nul ⟨U+0000⟩ x⟨U+0007⟩⟨U+001B⟩[31m⟨U+007F⟩⟨U+0085⟩');
    expect(visibleText('第一行\n第二行\tand\r\nmore')).toBe('第一行\n第二行\tand\r\nmore');
  });

  it('leaves what scripts and emoji need: ZWJ, ZWNJ, LRM/RLM, Arabic and Hebrew, flags', () => {
    for (const s of ['👨‍👩‍👧 family', 'می‌خواهم', 'abc\u200Eדף\u200F', 'المستخدم يحب القطط', '🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scotland', '用户喜欢猫 😺']) expect(visibleText(s)).toBe(s);
  });

  it('cuts the text into runs and named markers', () => {
    expect(splitHidden('\u202E用户\u0000x')).toEqual([{ code: 'U+202E', name: 'RIGHT-TO-LEFT OVERRIDE' }, '用户', { code: 'U+0000', name: 'NULL' }, 'x']);
    expect(splitHidden('plain 文本')).toEqual(['plain 文本']);
    expect(splitHidden('')).toEqual([]);
  });
});
