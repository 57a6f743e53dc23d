import { describe, expect, it } from 'vitest';
import { callbackNotifier, type Reminder } from '../notify/notifier.js';
import { fixedClock } from '../testing/clock.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';
import type { Logger } from '../deps.js';

const TZ = 'America/New_York';
const MINUTE = 60_000;
const open = closesAfterEach(testMemory, (m) => m.close());

/** A New York user's engine from `start`, with what was sent and what was logged. */
async function user(start: string) {
  const sent: Reminder[] = [];
  const logged: Array<Record<string, unknown>> = [];
  const logger: Logger = { debug() {}, info: (_m, data) => void logged.push(data ?? {}), warn() {}, error() {} };
  const memory = open({ clock: fixedClock(start), notifier: callbackNotifier((r) => void sent.push(r)), logger });
  await memory.setSettings('u', { timeZone: TZ });
  const todo = async (content: string) => (await memory.listTodos({ userId: 'u' })).find((t) => t.content === content)!;
  const at = async (when: string) => {
    memory.clock.set(when);
    return memory.deliverReminders();
  };
  return { memory, sent, logged, todo, at };
}

describe('after downtime, a stale occurrence of a series is skipped, not sent as current', () => {
  it.each([
    ['en', 'Take my pills'],
    ['zh', '吃药'],
  ])('%s: daily at 8, delivered every 15 minutes for 6 days, then 10 days down', async (_lang, content) => {
    const { memory, sent, logged, todo, at } = await user('2026-03-06T15:30:00Z');
    await memory.add({ userId: 'u', kind: 'todo', content, dueAt: '2026-03-07T13:00:00Z', repeat: { every: 'day' } });
    for (let i = 0; i < 6 * 96; i++) {
      memory.clock.advance(15 * MINUTE);
      await memory.deliverReminders();
    }
    expect(sent.map((r) => r.dueAt!.toISOString())).toEqual(['2026-03-07T13:00:00.000Z', '2026-03-08T12:00:00.000Z', '2026-03-09T12:00:00.000Z', '2026-03-10T12:00:00.000Z', '2026-03-11T12:00:00.000Z', '2026-03-12T12:00:00.000Z']);
    const t = await todo(content);
    expect(t.dueAt!.toISOString()).toBe('2026-03-13T12:00:00.000Z');

    // The first run after the gap, 2026-03-22 11:30 in New York: nothing sent, the series on tomorrow's 08:00.
    const report = await at('2026-03-22T15:30:00Z');
    expect(report).toMatchObject({ delivered: [], skipped: [{ todoId: t.id, dueAt: new Date('2026-03-13T12:00:00Z') }] });
    expect(sent).toHaveLength(6);
    expect((await todo(content)).dueAt!.toISOString()).toBe('2026-03-23T12:00:00.000Z');
    expect(logged).toContainEqual(expect.objectContaining({ code: 'REMINDER_SKIPPED', todoId: t.id }));
    // Recorded as a delivery is: the skipped occurrence's id is settled.
    expect((await memory.deliverReminders()).skipped).toEqual([]);

    expect((await at('2026-03-23T11:00:00Z')).delivered).toEqual([t.id]);
    expect(sent.at(-1)!.dueAt!.toISOString()).toBe('2026-03-23T12:00:00.000Z');
  });

  it('back at 08:30 after the gap, today\'s 08:00 is still sent (once), the older ones are not (en)', async () => {
    const { memory, sent, todo, at } = await user('2026-03-12T15:30:00Z');
    await memory.add({ userId: 'u', kind: 'todo', content: 'Take my pills', dueAt: '2026-03-13T12:00:00Z', repeat: { every: 'day' } });
    const t = await todo('Take my pills');
    expect(await at('2026-03-22T12:30:00Z')).toMatchObject({ delivered: [t.id], skipped: [] });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ dueAt: new Date('2026-03-22T12:00:00Z'), deliveryId: `${t.id}@${new Date('2026-03-22T11:00:00Z').getTime()}` });
    expect((await todo('Take my pills')).dueAt!.toISOString()).toBe('2026-03-23T12:00:00.000Z');
    expect((await memory.deliverReminders()).delivered).toEqual([]);
  });

  it('weekly: 每周一早上九点开例会, its Monday occurrence not sent on Sunday (zh)', async () => {
    const { memory, sent, todo, at } = await user('2026-03-15T15:00:00Z');
    await memory.add({ userId: 'u', kind: 'todo', content: '开例会', dueAt: '2026-03-16T13:00:00Z', repeat: { every: 'week', weekdays: [1] } });
    const t = await todo('开例会');
    expect(await at('2026-03-22T15:30:00Z')).toMatchObject({ delivered: [], skipped: [{ todoId: t.id }] });
    expect(sent).toEqual([]);
    expect((await todo('开例会')).dueAt!.toISOString()).toBe('2026-03-23T13:00:00.000Z');
    expect((await at('2026-03-23T12:00:00Z')).delivered).toEqual([t.id]);
  });

  it.each([
    ['en', 'Renew the passport'],
    ['zh', '续签护照'],
  ])('%s: a one-off todo is still delivered late (late is better than never)', async (_lang, content) => {
    const { memory, sent, todo, at } = await user('2026-03-12T15:30:00Z');
    await memory.add({ userId: 'u', kind: 'todo', content, dueAt: '2026-03-13T12:00:00Z' });
    const t = await todo(content);
    expect(await at('2026-03-22T15:30:00Z')).toMatchObject({ delivered: [t.id], skipped: [] });
    expect(sent[0]!.dueAt!.toISOString()).toBe('2026-03-13T12:00:00.000Z');
  });
});
