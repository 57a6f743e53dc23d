import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';

describe('recall', () => {
  let memory: ReturnType<typeof testMemory>;
  beforeEach(() => {
    memory = testMemory();
  });
  afterEach(() => memory.close());

  it('finds the right Chinese memory for a Chinese message, with score parts', async () => {
    await memory.add({ userId: 'u', kind: 'event', content: '用户下周要去东京出差', importance: 0.7 });
    await memory.add({ userId: 'u', kind: 'preference', content: '用户喜欢猫' });
    await memory.add({ userId: 'u', kind: 'fact', content: '用户的项目使用 FastAPI 和 Vue' });
    const results = await memory.recall({ userId: 'u', query: '周五去东京有什么推荐？' });
    expect(results[0]!.memory.content).toBe('用户下周要去东京出差');
    const s = results[0]!.score;
    expect(s.keyword).toBeGreaterThan(0);
    expect(s.coverage).toBeGreaterThan(0);
    expect(s.relevance).toBeGreaterThan(0.5);
    expect(s.final).toBeCloseTo(s.relevance * (0.6 + 0.1 * s.recency + 0.2 * s.importance), 10);
  });

  it('finds the right English memory for an English message', async () => {
    await memory.add({ userId: 'u', kind: 'preference', content: 'The user loves cats and has a cat named Snow' });
    await memory.add({ userId: 'u', kind: 'fact', content: 'The user works as a backend engineer in Shanghai' });
    const results = await memory.recall({ userId: 'u', query: 'Any ideas for my cat?' });
    expect(results[0]!.memory.content).toContain('cats');
  });

  it('refuses a config that is not one, with a clear error, in Chinese and English queries alike', async () => {
    await memory.add({ userId: 'u', content: '用户喜欢猫' });
    for (const query of ['我该养什么宠物？', 'Which pet should I get?']) {
      await expect(memory.recall({ userId: 'u', query, config: { minRelevance: 'high' as never } })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('minRelevance') });
      await expect(memory.recall({ userId: 'u', query, config: 5 as never })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      await expect(memory.recall({ userId: 'u', query, config: null as never })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      await expect(memory.recall({ userId: 'u', query, config: { candidates: 0 } })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('candidates') });
    }
    // A valid partial config still applies over its recipe.
    const strict = await memory.recall({ userId: 'u', query: '我该养什么宠物？', config: { minRelevance: 0.99 } });
    expect(strict).toEqual([]);
  });

  it('keeps users apart', async () => {
    await memory.add({ userId: 'alice', content: '用户喜欢猫' });
    await memory.add({ userId: 'bob', content: '用户喜欢狗' });
    const results = await memory.recall({ userId: 'bob', query: '用户喜欢猫' });
    expect(results.map((r) => r.memory.userId)).toEqual(['bob']);
  });

  it('filters by kind, scope, time range and expiry', async () => {
    await memory.add({ userId: 'u', kind: 'preference', content: 'The user likes green tea', agentId: 'a1' });
    memory.clock.advanceDays(10);
    await memory.add({ userId: 'u', kind: 'fact', content: 'The user drinks tea every morning', expiresAt: '2026-01-12T00:00:00Z' });
    await memory.add({ userId: 'u', kind: 'plan', content: 'The user plans a tea tasting trip', sessionId: 's9' });
    const ids = async (o: object) => (await memory.recall({ userId: 'u', query: 'tea', ...o })).map((r) => r.memory.content);
    expect(await ids({ kinds: ['preference'] })).toEqual(['The user likes green tea']);
    expect(await ids({ agentId: 'a1' })).toEqual(['The user likes green tea']);
    expect(await ids({ sessionId: 's9' })).toEqual(['The user plans a tea tasting trip']);
    expect(await ids({ from: '2026-01-05T00:00:00Z' })).toHaveLength(2);
    memory.clock.advanceDays(5);
    expect(await ids({})).not.toContain('The user drinks tea every morning');
    expect(await ids({ includeExpired: true })).toContain('The user drinks tea every morning');
  });

  it('ranks by recency and importance when relevance ties', async () => {
    await memory.add({ userId: 'u', content: 'The user likes jazz', importance: 0.2 });
    await memory.add({ userId: 'u', kind: 'preference', content: 'The user likes jazz', importance: 0.9 });
    const results = await memory.recall({ userId: 'u', query: 'jazz', recipe: 'keyword' });
    expect(results[0]!.memory.importance).toBe(0.9);
  });

  it('updates access but never importance', async () => {
    const m = await memory.add({ userId: 'u', content: '用户喜欢拉面', importance: 0.5 });
    memory.clock.advanceDays(1);
    await memory.recall({ userId: 'u', query: '拉面' });
    await memory.recall({ userId: 'u', query: '拉面' });
    const after = await memory.get('u', m.id);
    expect(after.accessCount).toBe(2);
    expect(after.importance).toBe(0.5);
    expect(after.lastAccessedAt).toEqual(memory.clock.now());
  });

  it('never throws on FTS5 syntax in the query', async () => {
    await memory.add({ userId: 'u', content: 'The user said "hello" (twice)' });
    for (const q of ['"hello', 'hello*', 'a NEAR b', 'NEAR(a b)', '-hello', '(hello', 'hello)', 'AND', 'OR NOT', '"', '*', '^hello', 'col:hello', '「你好」*']) {
      await expect(memory.recall({ userId: 'u', query: q })).resolves.toBeInstanceOf(Array);
    }
  });

  it('offers keyword-only and vector-only recipes', async () => {
    await memory.add({ userId: 'u', content: '用户养了一只叫小白的猫' });
    expect((await memory.recall({ userId: 'u', query: '小白', recipe: 'keyword' }))[0]!.score.vector).toBeUndefined();
    expect((await memory.recall({ userId: 'u', query: '小白', recipe: 'vector' }))[0]!.score.keyword).toBeUndefined();
  });

  it('keeps the recipe when a partial config overrides one number', async () => {
    await memory.add({ userId: 'u', content: 'The user likes green tea' });
    const [r] = await memory.recall({ userId: 'u', query: 'tea', recipe: 'keyword', config: { candidates: 5 } });
    expect(r!.score.vector).toBeUndefined();
  });

  it('rejects bad input with a clear error', async () => {
    await expect(memory.recall({ userId: '', query: 'x' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(memory.recall({ userId: 'u', query: 'x', limit: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
