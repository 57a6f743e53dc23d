import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../embedders/hash-embedder.js';
import { HammingScan, Int8Scan } from './hamming-scan.js';
import { UserCodes } from './vector-codes.js';

const TEXTS = {
  Chinese: ['用户下周要去东京出差', '用户喜欢猫，养了一只叫小白的猫', '用户的项目使用 FastAPI 和 Vue', '用户对花生过敏', '用户每天早上喝绿茶', '用户的女儿在上海读小学', '用户计划明年去京都看红叶', '用户在学习日语'],
  English: ['The user travels to Tokyo next week', 'The user loves cats and has a cat named Snow', 'The project uses FastAPI and Vue', 'The user is allergic to peanuts', 'The user drinks green tea every morning', 'The user’s daughter goes to school in Shanghai', 'The user plans to see the autumn leaves in Kyoto', 'The user is learning Japanese'],
} as const;
const QUERIES = { Chinese: ['周五去东京有什么推荐？', '推荐一些宠物用品', '早餐喝什么'], English: ['Any tips for Tokyo?', 'What should I buy for my cat?', 'What to drink in the morning'] };
const embedder = createHashEmbedder({ dimensions: 256 });

/** Every component nudged off zero (deterministically), then renormalised: dense, as a model's embeddings are. */
function dense(v: Float32Array, seed: number): Float32Array {
  const out = v.map((x, j) => x + ((((j + 1) * 7919 + seed * 104729) % 1000) / 1000 - 0.4995) * 0.01);
  const norm = Math.hypot(...out);
  return out.map((x) => x / norm);
}

describe.each(['Chinese', 'English'] as const)('sign codes of dense vectors, %s', (language) => {
  it('the one-plane scan for dense vectors ranks exactly as the two-plane scan', async () => {
    const texts = TEXTS[language].flatMap((a, i) => TEXTS[language].flatMap((b, j) => (i === j ? [] : [`${a}；${b}`])));
    const vectors = (await embedder.embed(texts)).map((v, i) => dense(v, i));
    expect(vectors.every((v) => v.every((x) => x !== 0))).toBe(true);
    // The sign planes rank only where the int8 rows are not in WebAssembly: the JS codes.
    const one = new UserCodes(embedder.dimensions, 64, false);
    const two = new UserCodes(embedder.dimensions, 64, false);
    vectors.forEach((v, i) => (one.set(i + 1, 'active', v), two.set(i + 1, 'active', v)));
    // One sparse row, never searched (archived), turns the two-plane scan on for `two`.
    const sparse = new Float32Array(embedder.dimensions);
    sparse[0] = 1;
    two.set(10_000, 'archived', sparse);
    for (const [i, q] of (await embedder.embed(QUERIES[language])).entries()) {
      const query = dense(q, 1000 + i);
      const a = one.nearest(query, ['active'], 12, 12);
      expect(a).toHaveLength(12);
      expect(a).toEqual(two.nearest(query, ['active'], 12, 12));
    }
  });
});

describe.each(['Chinese', 'English'] as const)('the SIMD int8 scan (WebAssembly), %s', (language) => {
  it('picks what the JS int8 ranking of every row picks, across growth, removals and statuses', async () => {
    const texts = TEXTS[language].flatMap((a, i) => TEXTS[language].flatMap((b, j) => (i === j ? [] : [`${a}；${b}`])));
    const vectors = (await embedder.embed(texts)).map((v, i) => dense(v, i));
    const simd = new UserCodes(embedder.dimensions, 4);
    const js = new UserCodes(embedder.dimensions, 4, false);
    // 56 rows from a capacity of 4: the WebAssembly memory grows several times under written rows.
    vectors.forEach((v, i) => {
      const status = i % 5 === 0 ? 'archived' : 'active';
      simd.set(i + 1, status, v);
      js.set(i + 1, status, v);
    });
    for (const rowid of [3, 17, 40]) (simd.remove(rowid), js.remove(rowid));
    for (const [i, q] of (await embedder.embed(QUERIES[language])).entries()) {
      const query = dense(q, 1000 + i);
      for (const statuses of [['active'], ['active', 'archived']]) {
        const got = simd.nearest(query, statuses, 20, 10);
        expect(got).toHaveLength(10);
        // Every row a candidate: the JS codes then order all of them by the int8 product.
        expect(got).toEqual(js.nearest(query, statuses, 1_000, 10));
        expect(got).not.toContain(17);
      }
    }
  });
});

describe('HammingScan', () => {
  it('counts differing bits as a plain popcount does', () => {
    const rowBytes = 128;
    const scan = HammingScan.create(rowBytes, 64)!;
    expect(scan).not.toBeNull();
    let seed = 7;
    const next = (): number => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0);
    const rows = 300;
    const bits = scan.reserve(rows);
    for (let i = 0; i < bits.length; i++) bits[i] = next();
    const query = Uint32Array.from({ length: 32 }, next);
    const got = scan.scan(query, 64, rows);
    const popcount = (x: number): number => x.toString(2).replaceAll('0', '').length;
    for (let r = 0; r < rows; r++) {
      let want = 0;
      for (let w = 0; w < 16; w++) want += popcount((bits[r * 32 + w]! ^ query[w]!) >>> 0);
      expect(got[r]).toBe(want);
    }
  });

  it('is refused for rows the kernel cannot compare (the JS scan takes them)', () => {
    expect(HammingScan.create(8, 4)).toBeNull();
  });

  it('runs the bytes compiled from hamming.wat (the generated module is current)', async () => {
    const { compileWat } = await import('../../../scripts/build-wasm.mjs');
    const { WASM_BASE64 } = await import('./wasm/hamming.generated.js');
    expect(await compileWat(new URL('./wasm/hamming.wat', import.meta.url).pathname)).toBe(WASM_BASE64);
  });
});

describe('Int8Scan', () => {
  it('takes the dot products of chosen int8 rows with the query, as the float arithmetic does, across growth', () => {
    const dims = 512;
    const scan = Int8Scan.create(dims)!;
    expect(scan).not.toBeNull();
    let seed = 11;
    const next = (): number => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0);
    let rows = scan.reserve(8);
    for (let i = 0; i < rows.length; i++) rows[i] = (next() % 255) - 127;
    const kept = Int8Array.from(rows);
    // Growing keeps the rows written so far (the memory grows in place; the view is new).
    rows = scan.reserve(300);
    expect(Array.from(rows.subarray(0, kept.length))).toEqual(Array.from(kept));
    for (let i = kept.length; i < rows.length; i++) rows[i] = (next() % 255) - 127;
    const query = Float32Array.from({ length: dims }, () => (next() / 2 ** 32) * 2 - 1);
    const slots = Int32Array.from([0, 7, 299, 150, 7, 42]);
    const got = scan.dots(query, slots, slots.length);
    let norm = 0;
    for (const x of query) norm += Math.abs(x) * 127;
    slots.forEach((slot, i) => {
      let want = 0;
      for (let j = 0; j < dims; j++) want += query[j]! * rows[slot * dims + j]!;
      // The query is rounded to int16: the error is a few parts in 10^5 of Σ|q|·127.
      expect(Math.abs(got[i]! - want)).toBeLessThan(norm * 1e-4);
    });
    expect(got[1]).toBe(got[4]);
  });

  it('is refused for dimensions the kernel cannot take (the JS products take them)', () => {
    expect(Int8Scan.create(100)).toBeNull();
    expect(Int8Scan.create(5000)).toBeNull();
  });
});
