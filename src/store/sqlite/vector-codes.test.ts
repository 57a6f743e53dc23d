import { describe, expect, it } from 'vitest';
import { createBundledEmbedder } from '../../embedders/bundled-embedder.js';
import { UserCodes } from './vector-codes.js';

const TEXTS = {
  Chinese: ['用户下周要去东京出差', '用户喜欢猫，养了一只叫小白的猫', '用户的项目使用 FastAPI 和 Vue', '用户对花生过敏', '用户每天早上喝绿茶', '用户的女儿在上海读小学', '用户计划明年去京都看红叶', '用户在学习日语'],
  English: ['The user travels to Tokyo next week', 'The user loves cats and has a cat named Snow', 'The project uses FastAPI and Vue', 'The user is allergic to peanuts', 'The user drinks green tea every morning', 'The user’s daughter goes to school in Shanghai', 'The user plans to see the autumn leaves in Kyoto', 'The user is learning Japanese'],
} as const;
const embedder = createBundledEmbedder();
const QUERIES = { Chinese: ['周五去东京有什么推荐？', '推荐一些宠物用品', '早餐喝什么'], English: ['Any tips for Tokyo?', 'What should I buy for my cat?', 'What to drink in the morning'] };

describe.each(['Chinese', 'English'] as const)('sign codes of dense embeddings, %s', (language) => {
  it('the one-plane scan for dense vectors ranks exactly as the two-plane scan', async () => {
    const texts = TEXTS[language].flatMap((a, i) => TEXTS[language].flatMap((b, j) => (i === j ? [] : [`${a}；${b}`])));
    const vectors = await embedder.embed(texts);
    expect(vectors.every((v) => v.every((x) => x !== 0))).toBe(true);
    const dense = new UserCodes(embedder.dimensions);
    const mixed = new UserCodes(embedder.dimensions);
    vectors.forEach((v, i) => (dense.set(i + 1, 'active', v), mixed.set(i + 1, 'active', v)));
    // One sparse row, never searched (archived), turns the two-plane scan on for `mixed`.
    const sparse = new Float32Array(embedder.dimensions);
    sparse[0] = 1;
    mixed.set(10_000, 'archived', sparse);
    for (const q of await embedder.embed(QUERIES[language])) {
      const a = dense.nearest(q, ['active'], 12, 12);
      expect(a).toEqual(mixed.nearest(q, ['active'], 12, 12));
      // And the int8 step puts the exact best first.
      const best = vectors.map((v, i) => ({ rowid: i + 1, score: v.reduce((s, x, j) => s + x * q[j]!, 0) })).sort((x, y) => y.score - x.score)[0]!;
      expect(dense.nearest(q, ['active'], vectors.length, 1)).toEqual([best.rowid]);
    }
  }, 60_000);
});
