import { afterEach, describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';
import { ExtractionSettings, machineTimeZone } from './settings.js';

/** A user who names no zone, with no global default, gets the machine's (a person's own computer is in their zone). */
describe('the default time zone is the machine’s', () => {
  const before = process.env.TZ;
  let memory: ReturnType<typeof testMemory> | undefined;
  afterEach(async () => {
    process.env.TZ = before;
    await memory?.close();
  });

  it('follows TZ; anything Intl cannot name is UTC', () => {
    process.env.TZ = 'Asia/Shanghai';
    expect([machineTimeZone(), ExtractionSettings.parse({}).timeZone]).toEqual(['Asia/Shanghai', 'Asia/Shanghai']);
    process.env.TZ = 'America/New_York';
    expect(machineTimeZone()).toBe('America/New_York');
    process.env.TZ = 'UTC';
    expect(machineTimeZone()).toBe('UTC');
    // A set zone, the user's or the global one, still wins.
    expect(ExtractionSettings.parse({ timeZone: 'Europe/Berlin' }).timeZone).toBe('Europe/Berlin');
  });

  it.each([
    ['zh', '明天早上八点叫我起床', '2026-01-02T00:00:00.000Z'],
    ['en', 'Wake me up at 8am tomorrow', '2026-01-02T00:00:00.000Z'],
  ])('%s: "%s" said by a user with no zone on a machine in Shanghai is 08:00 there', async (_, said, due) => {
    process.env.TZ = 'Asia/Shanghai';
    memory = testMemory();
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: said }] });
    await memory.extract('u', 's');
    expect((await memory.getSettings('u')).timeZone).toBe('Asia/Shanghai');
    expect((await memory.listTodos({ userId: 'u' }))[0]?.dueAt?.toISOString()).toBe(due);
  });
});
