import { describe, expect, it } from 'vitest';
import { zonedMinute } from '../domain/zoned-time.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { fixedClock } from '../testing/clock.js';
import { testMemory } from '../testing/test-memory.js';

/** A test engine at `now`, closed after the test. */
const open = closesAfterEach((now: string) => testMemory({ clock: fixedClock(now) }), (m) => m.close());

/**
 * A weekday said on that weekday, at an hour already past, is next week's on the user's own
 * calendar, wherever the UTC date lies (README: Reminders). At 2026-11-28T01:28Z it is Saturday in
 * UTC, Shanghai and Berlin, but still Friday evening in New York (20:28) and Los Angeles (17:28).
 */
describe('a todo for a weekday, in zones behind and ahead of UTC', () => {
  const NOW = '2026-11-28T01:28:00Z';
  const cases: Array<[string, string, string, string]> = [
    ['America/New_York', 'en', 'call mom on Friday at 6pm', '2026-12-04 18:00'],
    ['America/New_York', 'zh', '周五下午六点给妈妈打电话', '2026-12-04 18:00'],
    ['America/Los_Angeles', 'en', 'call mom on Friday at 4pm', '2026-12-04 16:00'],
    ['America/Los_Angeles', 'zh', '周五下午四点给妈妈打电话', '2026-12-04 16:00'],
    ['America/Los_Angeles', 'en', 'call mom on Friday at 7pm', '2026-11-27 19:00'],
    ['Asia/Shanghai', 'en', 'call mom on Friday at 6pm', '2026-12-04 18:00'],
    ['Asia/Shanghai', 'zh', '周六晚上八点给妈妈打电话', '2026-11-28 20:00'],
    ['Europe/Berlin', 'en', 'call mom on Friday at 6pm', '2026-12-04 18:00'],
    ['UTC', 'zh', '周五下午六点给妈妈打电话', '2026-12-04 18:00'],
  ];

  it.each(cases)('%s (%s): add "%s" → due %s on the wall clock, reminded an hour before', async (zone, _, content, due) => {
    const memory = open(NOW);
    await memory.setSettings('u', { timeZone: zone });
    await memory.add({ userId: 'u', kind: 'todo', content });
    const [todo] = await memory.listTodos({ userId: 'u' });
    expect(zonedMinute(todo!.dueAt!, zone)).toBe(due);
    expect(todo!.remindAt!.getTime()).toBe(todo!.dueAt!.getTime() - 3_600_000);
    expect(todo!.dueAt!.getTime()).toBeGreaterThan(memory.clock.now().getTime());
  });

  it.each([
    ['America/New_York', 'remind me to call mom on Friday at 6pm', '2026-12-04 18:00'],
    ['America/New_York', '提醒我周五下午六点给妈妈打电话', '2026-12-04 18:00'],
    ['America/Los_Angeles', 'remind me to call mom on Friday at 4pm', '2026-12-04 16:00'],
    ['America/Los_Angeles', '提醒我周五下午四点给妈妈打电话', '2026-12-04 16:00'],
    ['Europe/Berlin', 'remind me to call mom on Friday at 6pm', '2026-12-04 18:00'],
  ])('%s: said in chat, "%s" → a todo due %s, not in the past', async (zone, said, due) => {
    const memory = open(NOW);
    await memory.setSettings('u', { timeZone: zone });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: said }] });
    await memory.extract('u', 's');
    const [todo] = await memory.listTodos({ userId: 'u' });
    expect(zonedMinute(todo!.dueAt!, zone)).toBe(due);
    expect(todo!.remindAt!.getTime()).toBeGreaterThan(memory.clock.now().getTime());
  });
});
