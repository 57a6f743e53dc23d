import { describe, expect, it } from 'vitest';
import { MAX_PIECES, PIECE_CHARS, textPieces } from './text-pieces.js';

describe('textPieces', () => {
  it.each([['zh', '我喜欢猫'], ['en', 'I like cats'], ['empty', '']])('%s: a short text is one piece, itself', (_name, text) => {
    expect(textPieces(text)).toEqual([text]);
  });

  it.each([
    ['zh', '今天天气很好。我们去公园散步吧！'.repeat(300)],
    ['en', 'The weather is nice today. Let us go for a walk in the park! '.repeat(100)],
  ])('%s: a long text is cut at sentence ends, at most four pieces spread from its start to its end', (_lang, text) => {
    const pieces = textPieces(text);
    expect(pieces.length).toBe(MAX_PIECES);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(PIECE_CHARS);
    expect(text.startsWith(pieces[0]!)).toBe(true);
    expect(text.trimEnd().endsWith(pieces.at(-1)!)).toBe(true);
    expect(pieces.every((p) => /[。！!.]$/u.test(p))).toBe(true);
  });

  it('a text with no break is cut hard, never between the halves of a surrogate pair', () => {
    const text = '😀'.repeat(2_000);
    for (const p of textPieces(text)) expect(p).toMatch(/^(?:😀)+$/u);
  });
});
