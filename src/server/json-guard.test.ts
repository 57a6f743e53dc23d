import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8 } from './json-guard.js';

const at = (...parts: Array<string | number[]>): number => firstInvalidUtf8(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))));

describe('firstInvalidUtf8: where a strict decoder stops', () => {
  it('finds nothing in well-formed text, Chinese, English and four-byte characters', () => {
    expect(at('用户喜欢猫 The user likes cats 😺 𠀀')).toBe(-1);
    expect(at('')).toBe(-1);
  });

  it('points at the first refused byte: stray, cut short, overlong, surrogate or past U+10FFFF (zh/en)', () => {
    expect(at('bad ', [0xff, 0xfe], ' utf8')).toBe(4);
    expect(at('喜欢', [0x80])).toBe(6); // a continuation byte alone
    expect(at('用户', [0xe7, 0x8c])).toBe(6); // 猫 cut short at the end
    expect(at('用户', [0xe7, 0x8c], 'x')).toBe(6); // cut short before ASCII
    expect(at('a', [0xc0, 0xaf])).toBe(1); // overlong "/"
    expect(at('a', [0xe0, 0x80, 0xaf])).toBe(1); // overlong, three bytes
    expect(at('a', [0xed, 0xa0, 0x80])).toBe(1); // U+D800
    expect(at('a', [0xf4, 0x90, 0x80, 0x80])).toBe(1); // U+110000
    expect(at('a', [0xf5, 0x80, 0x80, 0x80])).toBe(1);
  });

  it('agrees with the strict TextDecoder on every lead byte followed by the edges of the continuation ranges', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    const valid = (bytes: Uint8Array): boolean => {
      try {
        strict.decode(bytes);
        return true;
      } catch {
        return false;
      }
    };
    const disagree: string[] = [];
    const check = (bytes: Uint8Array): void => void (valid(bytes) !== (firstInvalidUtf8(bytes) === -1) && disagree.push(Buffer.from(bytes).toString('hex')));
    const edges = [0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0];
    for (let a = 0; a < 256; a++) {
      check(new Uint8Array([a]));
      for (const b of edges) {
        check(new Uint8Array([a, b]));
        if (a >= 0xc0) for (const c of edges) for (const d of [...edges, undefined]) check(new Uint8Array(d === undefined ? [a, b, c] : [a, b, c, d]));
      }
    }
    expect(disagree).toEqual([]);
  });
});
