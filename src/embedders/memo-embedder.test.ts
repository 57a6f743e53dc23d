import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from './hash-embedder.js';
import { memoEmbedder } from './memo-embedder.js';

describe('memoEmbedder', () => {
  it('embeds each text once, Chinese and English, and keeps the order', async () => {
    const inner = createHashEmbedder({ dimensions: 32 });
    const calls: string[][] = [];
    const memo = memoEmbedder({ ...inner, embed: (t) => (calls.push([...t]), inner.embed(t)) });
    const [a, b] = await memo.embed(['我喜欢猫', 'I love cats']);
    const [c, d] = await memo.embed(['I love cats', '我喜欢猫']);
    expect(calls).toEqual([['我喜欢猫', 'I love cats']]);
    expect([c, d]).toEqual([b, a]);
    expect(memo.id).toBe(inner.id);
  });
});

describe('memoEmbedder with known vectors', () => {
  it('answers a known text without the inner embedder and embeds the rest (zh, en)', async () => {
    const inner = createHashEmbedder({ dimensions: 32 });
    const calls: string[][] = [];
    const known = new Float32Array(32).fill(0.5);
    const memo = memoEmbedder({ ...inner, embed: (t) => (calls.push([...t]), inner.embed(t)) }, new Map([['我喜欢猫\nI love cats', known]]));
    const [a, b] = await memo.embed(['我喜欢猫\nI love cats', '我喜欢狗']);
    expect(a).toBe(known);
    expect(b).toEqual((await inner.embed(['我喜欢狗']))[0]);
    expect(calls).toEqual([['我喜欢狗']]);
  });
});
