import { afterEach, describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../embedders/hash-embedder.js';
import type { Embedder } from '../embedders/embedder.js';
import type { LanguageModelPort } from '../models/language-model.js';
import { testMemory } from '../testing/test-memory.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});
const track = <T extends ReturnType<typeof testMemory>>(m: T): T => (engines.push(m), m);

describe('extraction failures say what failed (issue 12.9)', () => {
  it.each([['zh', '我叫李明'], ['en', 'My name is Alice']])('%s: a model throwing a plain error is MODEL_FAILED, not STORE_FAILED', async (_, text) => {
    const model = { generate: async () => { throw new Error('socket hang up'); } } as unknown as LanguageModelPort;
    const memory = track(testMemory({ model }));
    await memory.appendMessages({ messages: [{ id: 'm1', userId: 'u', sessionId: 's', role: 'user', content: text }] });
    const report = await memory.extract('u', 's');
    expect(report.error).toEqual({ code: 'MODEL_FAILED', message: 'the extractor failed: socket hang up' });
  });

  it.each([['zh', '我叫李明'], ['en', 'My name is Alice']])('%s: an embedder failing during extraction is EMBEDDING_FAILED', async (_, text) => {
    const hash = createHashEmbedder({ dimensions: 1024 });
    let broken = false;
    const embedder: Embedder = { id: hash.id, dimensions: hash.dimensions, embed: async (texts) => { if (broken) throw new Error('connection refused'); return hash.embed(texts); } };
    const memory = track(testMemory({ embedder }));
    await memory.appendMessages({ messages: [{ id: 'm1', userId: 'u', sessionId: 's', role: 'user', content: text }] });
    broken = true;
    const report = await memory.extract('u', 's');
    expect(report.error?.code).toBe('EMBEDDING_FAILED');
  });
});

describe('the context block (issue 12.9)', () => {
  it.each([
    ['zh', '用户叫李明', '我叫什么名字？'],
    ['en', "The user's name is Alice", 'What is my name?'],
  ])('%s: the profile and the memory it states are not both in one block', async (_, fact, query) => {
    const memory = track(testMemory());
    const m = await memory.add({ userId: 'u', kind: 'identity', content: fact, importance: 0.9 });
    await memory.updateProfile('u', { force: true });
    const block = await memory.context({ userId: 'u', query, tokenBudget: 2000 });
    expect(block.included.map((i) => i.type)).toContain('profile');
    expect(block.included.map((i) => i.id)).not.toContain(m.id);
    expect(block.text.split(fact).length - 1).toBe(1);
  });

  it.each([['zh', '用户喜欢猫', '推荐宠物'], ['en', 'The user likes cats', 'pet ideas']])('%s: a budget smaller than the header says why the block is empty', async (_, fact, query) => {
    const memory = track(testMemory());
    await memory.add({ userId: 'u', content: fact });
    const block = await memory.context({ userId: 'u', query: `${query} ${fact}`, tokenBudget: 10 });
    expect(block.text).toBe('');
    expect(block.note).toMatch(/^token budget 10 is smaller than the block's header/);
    expect((await memory.context({ userId: 'u', query: `${query} ${fact}`, tokenBudget: 2000 })).note).toBeUndefined();
  });

  it.each([
    ['zh', '[2026-01-01] 聊了面试和游戏', '上次我们聊了什么？'],
    ['en', '[2026-01-01] Talked about the interview and games', 'What did we talk about last time?'],
  ])('%s: an episode archived after 14 days still answers "last time" (the long-term trail)', async (_, summary, query) => {
    const memory = track(testMemory());
    const episode = await memory.add({ userId: 'u', kind: 'episode', content: summary, happenedAt: '2026-01-01T00:00:00Z' });
    memory.clock.advanceDays(30);
    await memory.runLifecycle();
    expect((await memory.get('u', episode.id)).status).toBe('archived');
    const block = await memory.context({ userId: 'u', query, tokenBudget: 2000 });
    expect(block.included.map((i) => i.id)).toContain(episode.id);
  });
});
