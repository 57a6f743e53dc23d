import { describe, expect, it } from 'vitest';
import { zonedMinute } from '../domain/zoned-time.js';
import { callbackNotifier, type Reminder } from '../notify/notifier.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';

const TZ = 'Asia/Shanghai';
const HOUR = 3_600_000;
/** A test engine, closed after the test. */
const open = closesAfterEach(testMemory, (m) => m.close());

/** A Shanghai user who asked for a repeating reminder offline (the heuristic extractor); what was sent. */
async function asked(text: string) {
  const sent: Reminder[] = [];
  // 2026-01-01T00:00Z is Thursday 08:00 in Shanghai.
  const memory = open({ notifier: callbackNotifier((r) => void sent.push(r)) });
  await memory.setSettings('u', { timeZone: TZ });
  await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: text }] });
  await memory.extract('u', 's');
  const todo = async () => (await memory.listTodos({ userId: 'u' }))[0]!;
  const at = (d: Date | undefined): string | undefined => (d ? zonedMinute(d, TZ) : undefined);
  return { memory, sent, todo, at };
}

describe('repeating todos: said once, reminded every time', () => {
  it.each([
    ['zh', '每天早上八点提醒我吃药', '2026-01-02 08:00', '2026-01-03 08:00', '每天'],
    ['en', 'Remind me every morning at 8 to take my pills', '2026-01-02 08:00', '2026-01-03 08:00', 'every day'],
  ])('%s: each delivered reminder moves the todo to its next time, with a new delivery id', async (lang, text, first, second, repeats) => {
    const { memory, sent, todo, at } = await asked(text);
    const t = await todo();
    expect(t.repeat).toMatchObject({ every: 'day', interval: 1, timeZone: TZ });
    expect(at(t.dueAt)).toBe(first);
    expect(t.dueAt!.getTime() - t.remindAt!.getTime()).toBe(HOUR);
    // The block says it repeats, in the user's language.
    const block = await memory.context({ userId: 'u', query: lang === 'zh' ? '吃药' : 'pills', tokenBudget: 1000 });
    expect(block.text).toContain(repeats);
    expect(block.text).toContain(`${lang === 'zh' ? '下次' : 'next'} ${first} (${TZ})`);

    memory.clock.advance(t.remindAt!.getTime() - memory.clock.now().getTime());
    expect((await memory.deliverReminders()).delivered).toEqual([t.id]);
    expect(sent[0]).toMatchObject({ todoId: t.id, deliveryId: `${t.id}@${t.remindAt!.getTime()}`, repeat: { every: 'day' } });
    const moved = await todo();
    expect(at(moved.dueAt)).toBe(second);
    expect(moved).toMatchObject({ completed: false, reminded: false });
    expect((await memory.deliverReminders()).delivered).toEqual([]);

    memory.clock.advanceDays(1);
    expect((await memory.deliverReminders()).delivered).toEqual([t.id]);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.deliveryId).not.toBe(sent[0]!.deliveryId);
    expect(at(sent[1]!.dueAt)).toBe(second);
  });

  it('occurrences missed while the scheduler was down are skipped, not sent late; the series goes on from today (zh)', async () => {
    const { memory, sent, todo, at } = await asked('每天晚上十点提醒我关窗');
    const t = await todo();
    expect(at(t.dueAt)).toBe('2026-01-01 22:00');
    memory.clock.advanceDays(5);
    expect(await memory.deliverReminders()).toMatchObject({ delivered: [], skipped: [{ todoId: t.id }] });
    expect((await memory.deliverReminders()).skipped).toEqual([]);
    expect(sent).toHaveLength(0);
    expect(at((await todo()).dueAt)).toBe('2026-01-06 22:00');
  });

  it('weekly on the days said, in English: Monday and Thursday', async () => {
    const { memory, todo, at } = await asked('Every Monday and Thursday at 7pm, remind me to go to the gym');
    const t = await todo();
    expect(t.repeat).toMatchObject({ every: 'week', weekdays: [1, 4] });
    expect(at(t.dueAt)).toBe('2026-01-01 19:00');
    memory.clock.advance(t.remindAt!.getTime() - memory.clock.now().getTime());
    await memory.deliverReminders();
    expect(at((await todo()).dueAt)).toBe('2026-01-05 19:00');
  });

  it('done for this time: the occurrence nearest to now; the whole series ends only when asked (zh, en)', async () => {
    for (const text of ['每天早上八点提醒我吃药', 'Remind me every morning at 8 to take my pills']) {
      const { memory, sent, todo, at } = await asked(text);
      const t = await todo();
      // Thursday 20:00: the next time (Friday 08:00) is nearer than the last (Thursday 08:00, before the series began): it is skipped.
      memory.clock.advance(12 * HOUR);
      const skipped = await memory.completeTodo('u', t.id);
      expect(skipped).toMatchObject({ completed: false, reminded: false });
      expect(at(skipped.dueAt)).toBe('2026-01-03 08:00');
      // Done twice is done once: Friday's 08:00, now the nearest, was the one skipped.
      expect(at((await memory.completeTodo('u', t.id)).dueAt)).toBe('2026-01-03 08:00');
      // Saturday 07:00: reminded, moved to Sunday; "took them" at 08:10 is Saturday's: nothing moves again.
      memory.clock.advance(11 * HOUR + 24 * HOUR);
      expect((await memory.deliverReminders()).delivered).toEqual([t.id]);
      memory.clock.advance(70 * 60_000);
      const same = await memory.completeTodo('u', t.id);
      expect(at(same.dueAt)).toBe('2026-01-04 08:00');
      expect(sent).toHaveLength(1);
      // The todo's memory stays in the block while the series runs.
      const [m] = await memory.list({ userId: 'u', kinds: ['todo'] });
      expect(m!.status).toBe('active');

      const ended = await memory.completeTodo('u', t.id, { series: true });
      expect(ended.completed).toBe(true);
      expect((await memory.get('u', m!.id))!.status).toBe('archived');
      memory.clock.advanceDays(3);
      expect((await memory.deliverReminders()).delivered).toEqual([]);
    }
  });

  it('a repeat given by hand: add() with repeat, or read from the content (zh, en)', async () => {
    const memory = open();
    await memory.setSettings('u', { timeZone: TZ });
    await memory.add({ userId: 'u', kind: 'todo', content: '交房租', repeat: { every: 'month', day: 5 } });
    await memory.add({ userId: 'u', kind: 'todo', content: 'Water the plants every other day' });
    const todos = await memory.listTodos({ userId: 'u' });
    const rent = todos.find((x) => x.content === '交房租')!;
    expect(rent.repeat).toEqual({ every: 'month', interval: 1, day: 5, timeZone: TZ });
    expect(zonedMinute(rent.dueAt!, TZ)).toBe('2026-01-05 09:00');
    expect(todos.find((x) => x.content.startsWith('Water'))!.repeat).toMatchObject({ every: 'day', interval: 2 });
    await expect(memory.add({ userId: 'u', kind: 'fact', content: 'likes tea', repeat: { every: 'day' } })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    // Refused before anything is written: the same words again do not reinforce the first one.
    const [first] = await memory.list({ userId: 'u', kinds: ['todo'] });
    for (const content of [first!.content, 'Water the plants every other day']) {
      await expect(memory.add({ userId: 'u', kind: 'todo', content, dueAt: '2026-02-01T00:00:00Z', remindAt: '2026-02-02T00:00:00Z' })).rejects.toMatchObject({ code: 'INVALID_INPUT', details: { field: 'remindAt' } });
    }
    expect((await memory.list({ userId: 'u', kinds: ['todo'] })).map((m) => m.importance)).toEqual((await memory.list({ userId: 'u', kinds: ['todo'] })).map(() => first!.importance));
    await expect(memory.add({ userId: 'u', kind: 'todo', content: 'x', repeat: { every: 'day', weekdays: [1] } })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('the memory of a running series does not fade; a memory like it with no series does (zh, en)', async () => {
    const memory = open();
    await memory.setSettings('u', { timeZone: TZ });
    const report = await memory.add({ userId: 'u', kind: 'todo', content: '每周一早上九点交周报', importance: 0.3 });
    const standup = await memory.add({ userId: 'u', kind: 'todo', content: 'Join the standup every weekday at 9am', importance: 0.3 });
    const oneOff = await memory.add({ userId: 'u', kind: 'todo', content: '交季度报告', importance: 0.3 });
    memory.clock.advanceDays(200);
    await memory.runLifecycle({ userId: 'u' });
    expect((await memory.get('u', report.id))!.status).toBe('active');
    expect((await memory.get('u', standup.id))!.status).toBe('active');
    expect((await memory.get('u', oneOff.id))!.status).toBe('archived');
  });

  it('an export carries the repeat, and an import restores a running series (zh, en)', async () => {
    const source = open();
    const target = open();
    await source.setSettings('u', { timeZone: TZ });
    await source.add({ userId: 'u', kind: 'todo', content: '每天早上八点吃药' });
    await source.add({ userId: 'u', kind: 'todo', content: 'Pay the rent on the 1st of every month' });
    const data = JSON.parse(JSON.stringify(await source.exportUser('u'))) as unknown;
    await target.importUser(data);
    const repeats = async (m: typeof source) => (await m.listTodos({ userId: 'u' })).map((t) => [t.content, t.dueAt?.toISOString(), t.repeat]);
    expect(await repeats(target)).toEqual(await repeats(source));
    expect((await repeats(target)).map(([, , r]) => (r as { every: string }).every)).toEqual(['month', 'day']); // the rent's 1st is today at 09:00, the pills' 08:00 is tomorrow's
  });

  it.each([
    ['zh', '以后每周一和周四晚上七点提醒我去健身', '用户每周一和周四晚上七点要去健身', { content: '去健身', dueText: '每周一和周四晚上七点' }],
    ['en', 'From now on remind me every Monday and Thursday at 7pm to go to the gym', 'The user goes to the gym every Monday and Thursday at 7pm', { content: 'go to the gym', dueText: 'every Monday and Thursday at 7pm' }],
  ])('%s: a model’s todo with its repeat in dueText becomes a series', async (_, said, content, todo) => {
    const model = scriptedModel(() => ({ operations: [{ op: 'add', kind: 'todo', content, importance: 0.7, todo, sourceMessageIds: ['m1'] }], reason: 'todo' }));
    const memory = open({ model });
    await memory.setSettings('u', { timeZone: TZ });
    await memory.appendMessages({ messages: [{ id: 'm1', userId: 'u', sessionId: 's', role: 'user', content: said }] });
    expect(await memory.extract('u', 's')).toMatchObject({ status: 'applied', added: 1 });
    const [t] = await memory.listTodos({ userId: 'u' });
    expect(t).toMatchObject({ content: todo.content, repeat: { every: 'week', weekdays: [1, 4], timeZone: TZ } });
    expect(zonedMinute(t!.dueAt!, TZ)).toBe('2026-01-01 19:00'); // Thursday
  });
});

describe('repeating todos with an end', () => {
  it.each([
    ['zh', '下周每天早上八点提醒我吃药', { content: '吃药', dueText: '下周每天早上八点' }],
    ['en', 'Remind me every morning next week at 8 to take my pills', { content: 'take my pills', dueText: 'every morning next week at 8' }],
  ])('%s: a model’s dueText with the repeat’s span starts and ends the series then', async (_, said, todo) => {
    const model = scriptedModel(() => ({ operations: [{ op: 'add', kind: 'todo', content: said, importance: 0.7, todo, sourceMessageIds: ['m1'] }], reason: 'todo' }));
    const memory = open({ model });
    await memory.setSettings('u', { timeZone: TZ });
    await memory.appendMessages({ messages: [{ id: 'm1', userId: 'u', sessionId: 's', role: 'user', content: said }] });
    await memory.extract('u', 's');
    const [t] = await memory.listTodos({ userId: 'u' });
    // Said on Thursday 2026-01-01: next week is Monday the 5th to Sunday the 11th.
    expect([zonedMinute(t!.dueAt!, TZ), t!.repeat?.until]).toEqual(['2026-01-05 08:00', '2026-01-11']);
  });

  it.each([
    ['zh', '每天早上八点提醒我吃药，到周六为止', '每天，到1月3日'],
    ['en', 'Remind me every day at 8am until Saturday to take my pills', 'every day until Jan 3'],
  ])('%s: reminded each day up to its last, then no more; done on the last day, it is done', async (lang, text, repeats) => {
    const { memory, sent, todo, at } = await asked(text);
    const t = await todo();
    expect(t.repeat).toMatchObject({ every: 'day', until: '2026-01-03' });
    expect(at(t.dueAt)).toBe('2026-01-02 08:00');
    const block = await memory.context({ userId: 'u', query: lang === 'zh' ? '吃药' : 'pills', tokenBudget: 1000 });
    expect(block.text).toContain(repeats);
    const deliverAt = async (wall: string) => {
      memory.clock.advance(new Date(`${wall}+08:00`).getTime() - memory.clock.now().getTime());
      return (await memory.deliverReminders()).delivered;
    };
    expect(await deliverAt('2026-01-02T07:00:00')).toEqual([t.id]);
    expect(at((await todo()).dueAt)).toBe('2026-01-03 08:00');
    expect(await deliverAt('2026-01-03T07:00:00')).toEqual([t.id]);
    // The last day's reminder went out: nothing moves it on, nothing more is sent.
    const last = await todo();
    expect([at(last.dueAt), last.reminded, last.completed]).toEqual(['2026-01-03 08:00', true, false]);
    expect(await deliverAt('2026-01-04T07:00:00')).toEqual([]);
    expect(await deliverAt('2026-01-05T07:00:00')).toEqual([]);
    expect(sent.map((r) => at(r.remindAt))).toEqual(['2026-01-02 07:00', '2026-01-03 07:00']);
    // Done for this time on its last day, there is no next time: the todo is done.
    expect((await memory.completeTodo('u', t.id)).completed).toBe(true);
  });

  it('a series that ended no longer keeps its memory from fading; one that runs does (zh, en)', async () => {
    const memory = open();
    await memory.setSettings('u', { timeZone: TZ });
    const ended = await memory.add({ userId: 'u', kind: 'todo', content: '每天早上九点交日报，到周六为止', importance: 0.3 });
    const endedEn = await memory.add({ userId: 'u', kind: 'todo', content: 'Send the daily report every day at 9am until Saturday', importance: 0.3 });
    const runs = await memory.add({ userId: 'u', kind: 'todo', content: '每天早上九点交日报', importance: 0.3 });
    expect((await memory.listTodos({ userId: 'u' })).map((t) => t.repeat?.until)).toEqual(['2026-01-03', '2026-01-03', undefined]);
    memory.clock.advanceDays(200);
    await memory.runLifecycle({ userId: 'u' });
    expect((await memory.get('u', ended.id))!.status).toBe('archived');
    expect((await memory.get('u', endedEn.id))!.status).toBe('archived');
    expect((await memory.get('u', runs.id))!.status).toBe('active');
  });

  it('an end said later sets the last day of a running series, by hand in words or outright; its time stays (zh, en)', async () => {
    const memory = open();
    await memory.setSettings('u', { timeZone: TZ });
    await memory.add({ userId: 'u', kind: 'todo', content: '每天早上八点吃药' });
    await memory.add({ userId: 'u', kind: 'todo', content: 'Stretch every morning at 7' });
    const [pills, stretch] = await memory.listTodos({ userId: 'u' });
    const ended = await memory.editTodo('u', pills!.id, { when: '到周六为止' });
    expect([ended.dueAt, ended.repeat?.until]).toEqual([pills!.dueAt, '2026-01-03']);
    const endedEn = await memory.editTodo('u', stretch!.id, { when: 'until Monday' });
    expect([endedEn.dueAt, endedEn.repeat?.until]).toEqual([stretch!.dueAt, '2026-01-05']);
    // With a new time besides: both.
    const both = await memory.editTodo('u', pills!.id, { when: '晚上九点，到下周三为止' });
    expect([zonedMinute(both.dueAt!, TZ), both.repeat?.until]).toEqual(['2026-01-02 21:00', '2026-01-07']);
    // Given outright.
    expect((await memory.editTodo('u', stretch!.id, { repeat: { every: 'day', until: '2026-01-10' } })).repeat).toMatchObject({ every: 'day', until: '2026-01-10' });
  });

  it('a series given with an end before its first time is refused, by add and editTodo, naming repeat.until (zh, en)', async () => {
    const memory = open();
    await memory.setSettings('u', { timeZone: TZ });
    // 2026-01-01T00:00Z is 08:00 in Shanghai: a daily 08:00 series starts on 2 January, and cannot end on the 1st.
    for (const content of ['每天早上八点吃药', 'take the pills at 8am']) {
      await expect(memory.add({ userId: 'u', kind: 'todo', content, repeat: { every: 'day', until: '2026-01-01' } })).rejects.toMatchObject({ code: 'INVALID_INPUT', details: { field: 'repeat.until' } });
    }
    expect(await memory.listTodos({ userId: 'u' })).toEqual([]);
    expect(await memory.list({ userId: 'u' })).toEqual([]);
    await memory.add({ userId: 'u', kind: 'todo', content: 'Call the bank', dueAt: new Date('2026-01-03T01:00:00Z') });
    const [bank] = await memory.listTodos({ userId: 'u' });
    // Its 09:00 (the todo's time of day) first falls on 1 January; an end on 31 December is before it.
    await expect(memory.editTodo('u', bank!.id, { repeat: { every: 'month', until: '2025-12-31' } })).rejects.toMatchObject({ code: 'INVALID_INPUT', details: { field: 'repeat.until' } });
    expect(await memory.listTodos({ userId: 'u' })).toEqual([bank]);
  });
});
