import { afterEach, describe, expect, it } from 'vitest';
import { testMemory } from './testing/test-memory.js';
import { MAX_STORED_USER_ID_LENGTH } from './domain/user-id.js';

let engine: ReturnType<typeof testMemory> | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});
const open = () => (engine = testMemory());
const invalid = { code: 'INVALID_INPUT' };

describe('user ids are checked in one place', () => {
  const bad = ['', '   ', '*', 'x'.repeat(MAX_STORED_USER_ID_LENGTH + 1), 'a\ud800b', 'tab\there', 'nul\u0000', '\u0085next'];

  it.each(bad)('refuses %j in every kind of method', async (userId) => {
    const memory = open();
    await expect(memory.add({ userId, content: '用户喜欢猫' })).rejects.toMatchObject(invalid);
    await expect(memory.list({ userId })).rejects.toMatchObject(invalid);
    await expect(memory.get(userId, 'm1')).rejects.toMatchObject(invalid);
    await expect(memory.recall({ userId, query: 'cats' })).rejects.toMatchObject(invalid);
    await expect(memory.context({ userId, query: '猫' })).rejects.toMatchObject(invalid);
    await expect(memory.appendMessages({ messages: [{ userId, sessionId: 's', role: 'user', content: 'hi' }] })).rejects.toMatchObject(invalid);
    await expect(memory.exportUser(userId)).rejects.toMatchObject(invalid);
    await expect(memory.forget({ userId })).rejects.toMatchObject(invalid);
    await expect(memory.forgetTopic(userId, 'cats')).rejects.toMatchObject(invalid);
    await expect(memory.forgetRequest({ userId, content: '忘掉我前女友的事' })).rejects.toMatchObject(invalid);
  });

  it('forgetRequest: content that is no string is INVALID_INPUT; a message that asks nothing answers undefined (zh, en)', async () => {
    const memory = open();
    await expect(memory.forgetRequest({ userId: 'u', content: 42 as unknown as string })).rejects.toMatchObject(invalid);
    await expect(memory.forgetRequest({ userId: 'u', content: '我喜欢猫' })).resolves.toBeUndefined();
    await expect(memory.forgetRequest({ userId: 'u', content: 'I love cats' })).resolves.toBeUndefined();
    // A topic nothing is known about is no request to announce.
    await expect(memory.forgetRequest({ userId: 'u', content: '忘掉我前女友的事' })).resolves.toBeUndefined();
    await expect(memory.forgetRequest({ userId: 'u', content: 'forget my ex' })).resolves.toBeUndefined();
    await memory.add({ userId: 'u', content: '用户的前女友叫小美' });
    await memory.add({ userId: 'u', content: "The user's ex is named Sarah" });
    await expect(memory.forgetRequest({ userId: 'u', content: '忘掉我前女友的事' })).resolves.toEqual({ topic: '前女友' });
    await expect(memory.forgetRequest({ userId: 'u', content: 'forget my ex' })).resolves.toEqual({ topic: 'ex' });
  });

  it('keeps the global defaults when someone tries to forget "*"', async () => {
    const memory = open();
    await memory.setSettings('*', { timeZone: 'Asia/Shanghai' });
    await expect(memory.forget({ userId: '*' })).rejects.toMatchObject(invalid);
    expect((await memory.getSettings('li-ming')).timeZone).toBe('Asia/Shanghai');
  });

  it('accepts Chinese, English and long-but-valid ids', async () => {
    const memory = open();
    for (const userId of ['李明', 'alice@example.com', 'x'.repeat(256), `t:${'t'.repeat(64)}:${'x'.repeat(256)}`, '用户 😀']) {
      const m = await memory.add({ userId, content: `${userId} likes tea` });
      expect((await memory.get(userId, m.id)).userId).toBe(userId);
    }
  });
});

describe('typed INVALID_INPUT for malformed arguments (issue 14 item 15)', () => {
  it.each([Number.NaN, Number.POSITIVE_INFINITY, 2.5, -1])('limit and offset %s', async (n) => {
    const memory = open();
    await expect(memory.list({ userId: 'u', limit: n })).rejects.toMatchObject(invalid);
    await expect(memory.list({ userId: 'u', offset: n })).rejects.toMatchObject(invalid);
    await expect(memory.recall({ userId: 'u', query: '猫', limit: n })).rejects.toMatchObject(invalid);
    await expect(memory.searchMessages({ userId: 'u', query: 'cats', limit: n })).rejects.toMatchObject(invalid);
    await expect(memory.listTodos({ userId: 'u', limit: n })).rejects.toMatchObject(invalid);
    await expect(memory.workingWindow('u', 's', n)).rejects.toMatchObject(invalid);
  });

  it('dueBefore as a string, recalledIds null, forget({})', async () => {
    const memory = open();
    await expect(memory.listTodos({ userId: 'u', dueBefore: '2026-01-01' as unknown as Date })).rejects.toMatchObject(invalid);
    await expect(memory.reportReply({ userId: 'u', message: '我喜欢猫', reply: 'Cats!', recalledIds: null as unknown as string[] })).rejects.toMatchObject(invalid);
    await expect(memory.forget({} as { userId: string })).rejects.toMatchObject(invalid);
    await expect((memory.forget as (o?: unknown) => Promise<unknown>)()).rejects.toMatchObject(invalid);
  });

  it('circular or BigInt structuredData, on add and on update (Chinese and English)', async () => {
    const memory = open();
    const loop: Record<string, unknown> = { city: '东京' };
    loop.self = loop;
    await expect(memory.add({ userId: 'u', content: '用户下周去东京', structuredData: { trip: loop } })).rejects.toMatchObject(invalid);
    await expect(memory.add({ userId: 'u', content: 'The user owns shares', structuredData: { count: 10n } })).rejects.toMatchObject(invalid);
    const m = await memory.add({ userId: 'u', content: 'The user owns shares' });
    await expect(memory.update('u', m.id, { structuredData: { count: 10n } })).rejects.toMatchObject(invalid);
    await expect(memory.update('u', m.id, { structuredData: { trip: loop } })).rejects.toMatchObject(invalid);
    expect((await memory.get('u', m.id)).structuredData).toBeUndefined();
  });
});
