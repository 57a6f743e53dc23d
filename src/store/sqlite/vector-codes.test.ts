import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../embedders/hash-embedder.js';
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
    const one = new UserCodes(embedder.dimensions);
    const two = new UserCodes(embedder.dimensions);
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
