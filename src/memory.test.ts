import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHashEmbedder } from './embedders/hash-embedder.js';
import { EngramError } from './errors.js';
import { testMemory } from './testing/test-memory.js';

describe('memory operations', () => {
  let memory: ReturnType<typeof testMemory>;
  beforeEach(() => {
    memory = testMemory();
  });
  afterEach(() => memory.close());

  it('adds with defaults and keeps the language it was written in', async () => {
    const zh = await memory.add({ userId: 'u', content: '  用户喜欢猫  ', kind: 'preference' });
    const en = await memory.add({ userId: 'u', content: 'The user loves cats', source: 'user' });
    expect(zh).toMatchObject({ content: '用户喜欢猫', language: 'zh', kind: 'preference', importance: 0.5, status: 'active', source: 'manual', verified: true, accessCount: 0, embedderId: 'hash@1024' });
    expect(en).toMatchObject({ language: 'en', kind: 'fact' });
    expect(await memory.get('u', zh.id)).toEqual(zh);
  });

  it('rejects bad input with INVALID_INPUT naming the field', async () => {
    await expect(memory.add({ userId: 'u', content: '   ' })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('content') });
    await expect(memory.add({ userId: 'u', content: 'x', importance: 5 })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('importance') });
    await expect(memory.add({ userId: 'u', content: 'x', kind: 'feeling' as never })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(memory.get('u', 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('updates with history, soft-deletes, restores and purges', async () => {
    const m = await memory.add({ userId: 'u', content: '用户住在北京' });
    memory.clock.advanceDays(1);
    await memory.update('u', m.id, { content: '用户住在上海' }, { actor: 'user', reason: '搬家了' });
    expect((await memory.recall({ userId: 'u', query: '上海' }))[0]!.memory.id).toBe(m.id);
    expect(await memory.recall({ userId: 'u', query: '北京', recipe: 'keyword' })).toEqual([]);
    await memory.delete('u', m.id);
    expect(await memory.recall({ userId: 'u', query: '上海' })).toEqual([]);
    expect((await memory.list({ userId: 'u', statuses: ['deleted'] })).map((x) => x.id)).toEqual([m.id]);
    await memory.restore('u', m.id);
    expect((await memory.recall({ userId: 'u', query: '上海' })).map((r) => r.memory.id)).toEqual([m.id]);
    const history = await memory.history('u', m.id);
    expect(history.map((e) => e.action)).toEqual(['create', 'update', 'delete', 'restore']);
    expect(history[1]).toMatchObject({ before: { content: '用户住在北京' }, after: { content: '用户住在上海' }, reason: '搬家了', at: new Date('2026-01-02T00:00:00Z') });
    await memory.purge('u', m.id);
    await expect(memory.get('u', m.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(JSON.stringify(await memory.history('u', m.id))).not.toContain('上海');
  });

  it('lists with filters in English', async () => {
    await memory.add({ userId: 'u', kind: 'preference', content: 'The user likes tea' });
    memory.clock.advanceDays(2);
    await memory.add({ userId: 'u', kind: 'plan', content: 'The user plans to learn Go' });
    expect((await memory.list({ userId: 'u', kinds: ['plan'] })).map((m) => m.content)).toEqual(['The user plans to learn Go']);
    expect((await memory.list({ userId: 'u', createdTo: new Date('2026-01-01T12:00:00Z') })).map((m) => m.content)).toEqual(['The user likes tea']);
  });

  it('refuses a store made with another embedder, and reindex fixes it', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'engram-')), 'm.db');
    const first = testMemory({ path });
    await first.add({ userId: 'u', content: 'The user loves cats' });
    await first.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: 'I love cats' }] });
    await first.close();
    const second = testMemory({ path, embedder: createHashEmbedder({ dimensions: 64 }) });
    const error = await second.recall({ userId: 'u', query: 'cats' }).catch((e: unknown) => e);
    expect(EngramError.hasCode(error, 'EMBEDDER_MISMATCH')).toBe(true);
    expect((error as Error).message).toContain('reindex');
    expect(await second.reindex()).toMatchObject({ embedderId: 'hash@64', reembedded: 2 });
    expect((await second.recall({ userId: 'u', query: 'cats' }))[0]!.memory.embedderId).toBe('hash@64');
    expect((await second.searchMessages({ userId: 'u', query: 'cats', recipe: 'vector' })).length).toBe(1);
    await second.close();
  });
  it.each([
    ['zh', '我喜欢猫，尤其是橘猫', '猫'],
    ['en', 'I love cats, ginger ones most', 'cats'],
  ])('hands out message search results the caller may change (%s)', async (_language, content, query) => {
    const memory = testMemory();
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content }, { userId: 'u', sessionId: 's', role: 'assistant', content: 'OK' }] });
    // Enough searches for the store to hold the user's rows, then one changed by its caller.
    for (let i = 0; i < 3; i++) await memory.searchMessages({ userId: 'u', query });
    const [found] = await memory.searchMessages({ userId: 'u', query });
    expect(found!.message.content).toBe(content);
    found!.message.content = 'changed by the caller';
    found!.message.createdAt.setTime(0);
    const [again] = await memory.searchMessages({ userId: 'u', query });
    expect(again!.message.content).toBe(content);
    expect(again!.message.createdAt.getTime()).not.toBe(0);
    await memory.close();
  });
});
