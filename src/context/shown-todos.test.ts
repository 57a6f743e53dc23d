import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';

const TZ = 'Asia/Shanghai';
const open = closesAfterEach(testMemory, (m) => m.close());

/** A Shanghai user's engine (no notifier: reminders stay queued) and their block for a query. */
async function user() {
  const memory = open();
  await memory.setSettings('u', { timeZone: TZ });
  const block = async (query: string) => (await memory.context({ userId: 'u', query, tokenBudget: 2000 })).text;
  return { memory, block };
}

/** The lines under the due-todos heading. */
const dueSection = (text: string, heading: string): string => {
  const start = text.indexOf(`### ${heading}`);
  if (start < 0) return '';
  const rest = text.slice(start + heading.length + 4);
  const end = rest.search(/\n###|\n<\/memories>/);
  return end < 0 ? rest : rest.slice(0, end);
};

describe('the block lists what is coming: overdue marked, long overdue gone, a series at its next time', () => {
  it.each([
    ['zh', '开会', '近期待办', '已逾期，截止 2026-01-06 09:00', '截止'],
    ['en', 'Go to the board meeting', 'Due soon', 'overdue, was due 2026-01-06 09:00', 'due'],
  ])('%s: a one-off past due is marked overdue, and leaves the block after a week', async (_lang, content, heading, overdue, due) => {
    const { memory, block } = await user();
    await memory.add({ userId: 'u', kind: 'todo', content, dueAt: '2026-01-06T01:00:00Z' });
    memory.clock.set('2026-01-05T01:00:00Z');
    expect(dueSection(await block(content), heading)).toContain(`(${due} 2026-01-06 09:00`);
    memory.clock.set('2026-01-08T01:00:00Z');
    expect(dueSection(await block(content), heading)).toContain(overdue);
    memory.clock.set('2026-01-13T00:59:00Z');
    expect(dueSection(await block(content), heading)).toContain(content);
    memory.clock.set('2026-01-13T01:01:00Z');
    expect(dueSection(await block(content), heading)).not.toContain(content);
    memory.clock.set('2027-02-06T01:00:00Z');
    expect(dueSection(await block(content), heading)).not.toContain(content);
  });

  it.each([
    ['zh', '吃药', '近期待办', '下次'],
    ['en', 'Take my pills', 'Due soon', 'next'],
  ])('%s: a series whose reminders stopped shows its next time still ahead, never a passed one', async (_lang, content, heading, next) => {
    const { memory, block } = await user();
    await memory.add({ userId: 'u', kind: 'todo', content, dueAt: '2026-01-09T00:00:00Z', repeat: { every: 'day' } });
    memory.clock.set('2026-01-08T01:00:00Z');
    expect(dueSection(await block(content), heading)).toContain(`${next} 2026-01-09 08:00`);
    // A year on, 14:00 in Shanghai: tomorrow's 08:00, though the stored occurrence is still the first.
    memory.clock.set('2027-01-09T06:00:00Z');
    const shown = dueSection(await block(content), heading);
    expect(shown).toContain(`${next} 2027-01-10 08:00`);
    expect(shown).not.toContain('2026-01-09');
    expect((await memory.listTodos({ userId: 'u' }))[0]!.dueAt!.toISOString()).toBe('2026-01-09T00:00:00.000Z');
  });
});
