import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../embedders/hash-embedder.js';
import { dotAt } from '../../embedders/embedder.js';
import { FloatDots } from './float-dots.js';
import { UserCodes } from './vector-codes.js';

/** Deterministic dense rows with components of every sign and size (a seeded LCG). */
function rows(count: number, dims: number, seed: number): Float32Array {
  let x = seed;
  return Float32Array.from({ length: count * dims }, () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return (x / 2 ** 31 - 0.5) * (1 + (x % 7));
  });
}

describe('FloatDots (the exact stage in WebAssembly)', () => {
  it('gives the same numbers as dotAt in JS, to the last bit, for any rows in any order', () => {
    const dims = 512;
    const floats = rows(300, dims, 7);
    const query = rows(1, dims, 99);
    const kernel = FloatDots.create(dims)!;
    expect(kernel).not.toBeNull();
    const offsets = [299, 0, 17, 17, 150, 3].map((r) => r * dims);
    const dots = [...kernel.dots(query, floats, offsets)];
    expect(dots).toEqual(offsets.map((o) => dotAt(query, floats, o, dims)));
    // A larger call grows its memory; a smaller one after it reads only its own rows.
    const all = Array.from({ length: 300 }, (_, r) => r * dims);
    expect([...kernel.dots(query, floats, all)]).toEqual(all.map((o) => dotAt(query, floats, o, dims)));
    expect([...kernel.dots(query, floats, [dims])]).toEqual([dotAt(query, floats, dims, dims)]);
  });

  it('is not made for dimensions it cannot take (not a multiple of 4)', () => {
    expect(FloatDots.create(6)).toBeNull();
  });
});

describe.each([
  ['Chinese', ['用户喜欢猫', '用户下周要去东京出差', '用户对花生过敏', '用户的女儿在上海读小学'], '推荐一些宠物用品'],
  ['English', ['The user loves cats', 'The user travels to Tokyo next week', 'The user is allergic to peanuts', "The user's daughter goes to school in Shanghai"], 'What should I buy for my cat?'],
] as const)('UserCodes.dotsOf, %s', (_language, texts, question) => {
  it('equals dotOf row by row (kernel and JS alike), leaving out removed and unknown rows', async () => {
    const embedder = createHashEmbedder({ dimensions: 256 });
    const vectors = await embedder.embed(Array.from({ length: 80 }, (_, i) => `${texts[i % texts.length]} ${i}`));
    const [query] = await embedder.embed([question]);
    const codes = new UserCodes(embedder.dimensions, 128, true, 1_000);
    vectors.forEach((v, i) => codes.set(i + 1, 'active', v));
    codes.remove(5);
    const many = Array.from({ length: 82 }, (_, i) => i + 1);
    const expected = new Map(many.flatMap((r) => (codes.dotOf(r, query!) === undefined ? [] : [[r, codes.dotOf(r, query!)!] as const])));
    expect(expected.has(5)).toBe(false);
    expect(expected.has(81)).toBe(false);
    expect(codes.dotsOf(many, query!)).toEqual(expected);
    // A few rows: scored in JS, the same numbers.
    expect(codes.dotsOf([1, 2, 3], query!)).toEqual(new Map([1, 2, 3].map((r) => [r, codes.dotOf(r, query!)!])));
  });
});
