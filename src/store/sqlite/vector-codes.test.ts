import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../embedders/hash-embedder.js';
import { Int8Scan, limitWasmMemories } from './int8-scan.js';
import { UserCodes, WASM_MIN_ROWS } from './vector-codes.js';

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

/** Enough dense rows (every ordered pair of texts, five times over) that a user's codes move to WebAssembly. */
async function manyRows(language: 'Chinese' | 'English'): Promise<Float32Array[]> {
  const texts = TEXTS[language].flatMap((a, i) => TEXTS[language].flatMap((b, j) => (i === j ? [] : [0, 1, 2, 3, 4].map((k) => `${a}；${b} #${k}`))));
  return (await embedder.embed(texts)).map((v, i) => dense(v, i));
}

describe.each(['Chinese', 'English'] as const)('the SIMD int8 scan (WebAssembly), %s', (language) => {
  it('picks what the JS int8 ranking of every row picks, across growth, removals and statuses', async () => {
    const vectors = await manyRows(language);
    expect(vectors.length).toBeGreaterThan(WASM_MIN_ROWS);
    const simd = new UserCodes(embedder.dimensions, 4);
    const js = new UserCodes(embedder.dimensions, 4, false);
    // From a capacity of 4: JS while small, WebAssembly past WASM_MIN_ROWS, whose memory then grows under written rows.
    vectors.forEach((v, i) => {
      const status = i % 5 === 0 ? 'archived' : 'active';
      simd.set(i + 1, status, v);
      js.set(i + 1, status, v);
      if (i === 10) expect(simd.scansEveryRow).toBe(false);
    });
    expect(simd.scansEveryRow).toBe(true);
    expect(js.scansEveryRow).toBe(false);
    for (const rowid of [3, 17, 40, 200]) (simd.remove(rowid), js.remove(rowid));
    for (const [i, q] of (await embedder.embed(QUERIES[language])).entries()) {
      const query = dense(q, 1000 + i);
      for (const statuses of [['active'], ['active', 'archived']]) {
        const got = simd.nearest(query, statuses, 20, 10);
        expect(got).toHaveLength(10);
        // Every row a candidate: the JS codes then order all of them by the int8 product.
        expect(got).toEqual(js.nearest(query, statuses, 10_000, 10));
        expect(got).not.toContain(17);
      }
    }
  });

  it('keeps the rows in JS, with the same results, when no WebAssembly memory can be had', async () => {
    const vectors = await manyRows(language);
    const global = globalThis as unknown as { WebAssembly: { Memory: unknown } };
    const real = global.WebAssembly.Memory;
    // What V8 does past its address-space reservations: the constructor throws a RangeError.
    global.WebAssembly.Memory = function refused() {
      throw new RangeError('WebAssembly.Memory(): could not allocate memory');
    };
    let refused: UserCodes;
    try {
      refused = new UserCodes(embedder.dimensions, vectors.length);
      vectors.forEach((v, i) => refused.set(i + 1, 'active', v));
    } finally {
      global.WebAssembly.Memory = real;
    }
    const previous = limitWasmMemories(0);
    let limited: UserCodes;
    try {
      limited = new UserCodes(embedder.dimensions, vectors.length);
      vectors.forEach((v, i) => limited.set(i + 1, 'active', v));
    } finally {
      limitWasmMemories(previous);
    }
    const wasm = new UserCodes(embedder.dimensions, vectors.length);
    vectors.forEach((v, i) => wasm.set(i + 1, 'active', v));
    expect([refused.scansEveryRow, limited.scansEveryRow, wasm.scansEveryRow]).toEqual([false, false, true]);
    for (const [i, q] of (await embedder.embed(QUERIES[language])).entries()) {
      const query = dense(q, 1000 + i);
      const want = wasm.nearest(query, ['active'], 10_000, 10);
      expect(refused.nearest(query, ['active'], 10_000, 10)).toEqual(want);
      expect(limited.nearest(query, ['active'], 10_000, 10)).toEqual(want);
    }
  });
});

describe('Int8Scan', () => {
  it('takes the dot product of every int8 row with the query, as the float arithmetic does, across growth', () => {
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
    const { sums, unit } = scan.dotsAll(query, 300);
    expect(sums).toHaveLength(300);
    let norm = 0;
    for (const x of query) norm += Math.abs(x) * 127;
    for (let r = 0; r < 300; r++) {
      let want = 0;
      for (let j = 0; j < dims; j++) want += query[j]! * rows[r * dims + j]!;
      // The query is rounded to int16: the error is a few parts in 10^5 of Σ|q|·127.
      expect(Math.abs(sums[r]! * unit - want)).toBeLessThan(norm * 1e-4);
    }
  });

  it('is refused for dimensions the kernel cannot take (the JS stages take them)', () => {
    expect(Int8Scan.create(100)).toBeNull();
    expect(Int8Scan.create(5000)).toBeNull();
  });

  it('runs the bytes compiled from int8.wat (the generated module is current)', async () => {
    const { compileWat } = await import('../../../scripts/build-wasm.mjs');
    const { WASM_BASE64 } = await import('./wasm/int8.generated.js');
    expect(await compileWat(new URL('./wasm/int8.wat', import.meta.url).pathname)).toBe(WASM_BASE64);
  });
});
