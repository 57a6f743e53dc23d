import { afterEach, describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});
const make = () => {
  const e = testMemory();
  engines.push(e);
  return e;
};

describe('settings are per-user overrides over the global defaults, key by key', () => {
  it('a user who changed one key still follows later global changes of every other key', async () => {
    const memory = make();
    await memory.setSettings('li-ming', { extractionEnabled: false });
    await memory.setSettings('*', { silentMinutes: 7, timeZone: 'Asia/Shanghai' });
    const s = await memory.getSettings('li-ming');
    expect(s.extractionEnabled).toBe(false);
    expect(s.silentMinutes).toBe(7);
    expect(s.timeZone).toBe('Asia/Shanghai');
    // another user sees the global values and keeps extraction on
    expect(await memory.getSettings('alice')).toMatchObject({ extractionEnabled: true, silentMinutes: 7 });
  });

  it('the user override wins over the global value for the same key', async () => {
    const memory = make();
    await memory.setSettings('*', { silentMinutes: 5 });
    await memory.setSettings('alice', { silentMinutes: 1 });
    await memory.setSettings('*', { silentMinutes: 9 });
    expect((await memory.getSettings('alice')).silentMinutes).toBe(1);
  });

  it("a user's retentionDays decides when their raw messages expire (Chinese and English)", async () => {
    const memory = make();
    await memory.setSettings('li-ming', { retentionDays: 2 });
    await memory.setSettings('*', { retentionDays: 10 });
    const now = memory.clock.now().getTime();
    const { appended } = await memory.appendMessages({
      messages: [
        { userId: 'li-ming', sessionId: 's1', role: 'user', content: '我下周要去东京出差' },
        { userId: 'alice', sessionId: 's2', role: 'user', content: 'I am flying to Tokyo next week' },
      ],
    });
    const byUser = new Map(appended.map((m) => [m.userId, m]));
    expect(byUser.get('li-ming')!.expiresAt!.getTime() - now).toBe(2 * 86_400_000);
    expect(byUser.get('alice')!.expiresAt!.getTime() - now).toBe(10 * 86_400_000);
  });

  it('rejects unknown keys and wrong types without storing anything', async () => {
    const memory = make();
    await expect(memory.setSettings('u', { silentMinutes: 'soon' } as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(memory.setSettings('u', { nope: 1 } as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect((await memory.getSettings('u')).silentMinutes).toBe(2);
  });
});
