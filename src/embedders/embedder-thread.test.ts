import { describe, expect, it } from 'vitest';
import { createBundledEmbedder } from './bundled-embedder.js';
import { createThreadedEmbedder } from './embedder-thread.js';
import { createHashEmbedder } from './hash-embedder.js';

const TEXTS = ['我喜欢猫，养了一只叫小白的猫', 'I love cats and have one named Snow', ''];

describe('an embedder in a worker thread', () => {
  it('gives the vectors the same embedder gives in this thread, with its id and dimensions (zh/en)', async () => {
    const threaded = createThreadedEmbedder({ kind: 'hash', dimensions: 64 });
    const local = createHashEmbedder({ dimensions: 64 });
    try {
      expect([threaded.id, threaded.dimensions]).toEqual([local.id, 64]);
      expect((await threaded.embed(TEXTS)).map((v) => [...v])).toEqual((await local.embed(TEXTS)).map((v) => [...v]));
      expect(await threaded.embed([])).toEqual([]);
      // A hash embedder has no words across languages to give.
      expect(threaded.bridge).toBeUndefined();
    } finally {
      await threaded.close();
    }
  });

  it('keeps this thread free while the model works: timers fire between the calls of a batch', async () => {
    const threaded = createThreadedEmbedder({ kind: 'bundled' });
    const local = createBundledEmbedder();
    try {
      await threaded.warm!();
      let ticks = 0;
      const timer = setInterval(() => ticks++, 1);
      const vectors = await threaded.embed(Array.from({ length: 40 }, (_, i) => `${TEXTS[i % 2]} #${i}`));
      clearInterval(timer);
      expect(vectors).toHaveLength(40);
      expect(ticks).toBeGreaterThan(5);
      const [a, b] = [await threaded.embed(TEXTS.slice(0, 2)), await local.embed(TEXTS.slice(0, 2))];
      expect(a.map((v) => [...v])).toEqual(b.map((v) => [...v]));
      // The same identity: an upgrade from @3 keeps the short texts' vectors either way.
      expect([threaded.id, threaded.supersedes, threaded.unchangedUpTo]).toEqual([local.id, local.supersedes, local.unchangedUpTo]);
      expect(local.unchangedUpTo).toEqual({ 'use-lite-cedict@3': 1200 });
      // The words it reads Chinese by, from the same glosser (forgetting a topic across languages).
      expect(await threaded.bridge!(['用户对花生过敏', 'The user loves cats'])).toEqual(await local.bridge!(['用户对花生过敏', 'The user loves cats']));
      expect((await threaded.bridge!(['用户对花生过敏']))[0]).toMatch(/peanut/u);
    } finally {
      await threaded.close();
    }
  }, 60_000);

  it("answers a chat's query before an import queued ahead of it is done, with the same vectors (zh/en)", async () => {
    const threaded = createThreadedEmbedder({ kind: 'hash', dimensions: 32 });
    const local = createHashEmbedder({ dimensions: 32 });
    try {
      const imported = Array.from({ length: 2000 }, (_, i) => (i % 2 ? `导入的记忆 ${i}：用户喜欢猫` : `imported memory ${i}: the user likes cats`));
      const finished: string[] = [];
      const importing = threaded.embed(imported).then((v) => (finished.push('import'), v));
      const queries = ['我养了什么宠物？', 'What pets do I have?'].map((q) => threaded.embed([q]).then((v) => (finished.push(q), v)));
      const [importVectors, zh, en] = await Promise.all([importing, ...queries]);
      expect(finished).toEqual(['我养了什么宠物？', 'What pets do I have?', 'import']);
      expect([...zh![0]!, ...en![0]!]).toEqual([...(await local.embed(['我养了什么宠物？']))[0]!, ...(await local.embed(['What pets do I have?']))[0]!]);
      expect(importVectors!.map((v) => [...v])).toEqual((await local.embed(imported)).map((v) => [...v]));
    } finally {
      await threaded.close();
    }
  });

  it('fails the calls in flight when its worker dies, clearly, and starts a new one for the next call', async () => {
    const threaded = createThreadedEmbedder({ kind: 'hash', dimensions: 32 });
    try {
      await threaded.embed(['warm']);
      // Fails whether or not the worker would have answered first (a hash embedding takes microseconds).
      const inFlight = expect(threaded.embed(['用户喜欢猫 the user likes cats'])).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
      await threaded.close();
      await inFlight;
      expect((await threaded.embed(['用户喜欢猫 the user likes cats']))[0]).toHaveLength(32);
    } finally {
      await threaded.close();
    }
  });
});
