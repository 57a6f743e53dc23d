import { describe, expect, it } from 'vitest';
import type { Logger } from '../deps.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';
import { errorCode, todoUser, wallMinute } from '../testing/todo-user.js';

const HOUR = 3_600_000;
/** A test engine, closed after the test. */
const open = closesAfterEach(testMemory, (m) => m.close());
const at = wallMinute;
const code = errorCode;
const user = (options: Parameters<typeof testMemory>[0] = {}) => todoUser(open, options);

describe('a reminder lead said with the todo, offline', () => {
  it.each([
    ['zh', '明天下午三点开会，提前半小时提醒我', '开会', '2026-01-02 15:00', '2026-01-02 14:30'],
    ['zh', '下周五交报告，前一天晚上提醒我', '交报告', '2026-01-09 09:00', '2026-01-08 20:00'],
    ['en', 'I have a dentist appointment tomorrow at 10am, remind me 30 minutes before', 'a dentist appointment', '2026-01-02 10:00', '2026-01-02 09:30'],
    ['en', 'The report is due Friday, remind me the day before', 'the report', '2026-01-02 09:00', '2026-01-01 09:00'],
  ])('%s: %s → one todo, reminded as far ahead as asked, and the reminder goes out then', async (_, said, content, due, reminder) => {
    const { memory, sent, todos, say, deliverAt } = await user();
    expect(await say(said)).toMatchObject({ status: 'applied', added: 1 });
    const list = await todos();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ content });
    expect([at(list[0]!.dueAt), at(list[0]!.remindAt)]).toEqual([due, reminder]);
    // One memory: the todo's (the statement it was made of is not a plan beside it).
    expect((await memory.list({ userId: 'u' })).map((m) => m.kind)).toEqual(['todo']);
    expect((await deliverAt(new Date(list[0]!.remindAt!.getTime() - 60_000))).delivered).toEqual([]);
    expect((await deliverAt(list[0]!.remindAt!)).delivered).toEqual([list[0]!.id]);
    expect(sent.map((r) => at(r.remindAt))).toEqual([reminder]);
  });

  it('a series keeps its lead from one occurrence to the next (zh, en)', async () => {
    for (const said of ['每天早上八点吃药，提前十分钟提醒我', 'Remind me every day at 8am to take my pills, 10 minutes before']) {
      const { say, todo, deliverAt } = await user();
      await say(said);
      const t = await todo();
      expect([at(t.dueAt), at(t.remindAt)]).toEqual(['2026-01-02 08:00', '2026-01-02 07:50']);
      expect((await deliverAt(t.remindAt!)).delivered).toEqual([t.id]);
      const next = await todo();
      expect([at(next.dueAt), at(next.remindAt)]).toEqual(['2026-01-03 08:00', '2026-01-03 07:50']);
    }
  });
});

describe('moving a reminder by saying so, offline', () => {
  it.each([
    ['zh', '明天下午三点提醒我开会', '明天的会改到下午四点，提前半小时提醒我', '2026-01-02 16:00', '2026-01-02 15:30'],
    ['en', 'Remind me tomorrow at 3pm to call the dentist', 'Move the dentist call to 4pm, remind me 15 minutes before', '2026-01-02 16:00', '2026-01-02 15:45'],
  ])('%s: a move with its lead: the new time, reminded as far ahead as said', async (_, asked, moved, due, reminder) => {
    const { say, todo } = await user();
    await say(asked);
    const t = await todo();
    expect(await say(moved)).toMatchObject({ status: 'applied', updated: 1, added: 0 });
    const after = await todo();
    expect(after.id).toBe(t.id);
    expect([at(after.dueAt), at(after.remindAt)]).toEqual([due, reminder]);
  });

  it.each([
    ['zh', '明天下午三点提醒我开会', '把开会的提醒改成提前一天', '2026-01-01 15:00'],
    ['zh', '明天下午三点提醒我开会', '开会的提醒改到前一天晚上', '2026-01-01 20:00'],
    ['en', 'Remind me tomorrow at 3pm to call the dentist', 'Change the dentist call reminder to 10 minutes before', '2026-01-02 14:50'],
  ])('%s: only the reminder moves: "%s" then "%s"; the todo’s time and words stay', async (_, asked, moved, reminder) => {
    const { memory, say, todo } = await user();
    await say(asked);
    const t = await todo();
    const words = (await memory.get('u', t.memoryId!)).content;
    expect(await say(moved)).toMatchObject({ status: 'applied', updated: 1, added: 0 });
    const after = await todo();
    expect(at(after.dueAt)).toBe(at(t.dueAt));
    expect(at(after.remindAt)).toBe(reminder);
    expect(after.content).toBe(t.content);
    expect((await memory.get('u', t.memoryId!)).content).toBe(words);
  });
});

describe('a reminder lead from a model', () => {
  it.each([
    ['zh', '明天下午三点开会，提前半小时提醒我', { content: '开会', dueText: '明天下午三点', remindText: '提前半小时' }, '2026-01-02 14:30'],
    ['en', 'Dentist tomorrow at 10am, remind me the day before', { content: 'dentist', dueText: 'tomorrow at 10am', remindText: 'the day before' }, '2026-01-01 10:00'],
  ])('%s: todo.remindText sets the reminder', async (_, said, spec, reminder) => {
    const model = scriptedModel(() => ({ operations: [{ op: 'add', kind: 'todo', content: said, importance: 0.7, todo: spec, sourceMessageIds: ['m1'] }], reason: 'todo' }));
    const { memory, todo } = await user({ model });
    await memory.appendMessages({ messages: [{ id: 'm1', userId: 'u', sessionId: 's', role: 'user', content: said }] });
    await memory.extract('u', 's');
    expect(at((await todo()).remindAt)).toBe(reminder);
  });

  it('an update with todo.remindText alone moves the reminder only; one that says none is logged and changes nothing', async () => {
    const warnings: unknown[] = [];
    const logger: Logger = { debug() {}, info() {}, error() {}, warn: (_m, data) => void warnings.push(data) };
    let turn = 0;
    const model = scriptedModel((_promptId, input) => {
      turn++;
      if (turn === 1) return { operations: [{ op: 'add', kind: 'todo', content: '用户明天下午三点开会', importance: 0.7, todo: { content: '开会', dueText: '明天下午三点' }, sourceMessageIds: ['m1'] }], reason: 'todo' };
      const target = (input as { existing: Array<{ alias: string; kind: string }> }).existing.find((m) => m.kind === 'todo')!.alias;
      const remindText = turn === 2 ? '提前一天' : 'whenever';
      return { operations: [{ op: 'update', target, content: '用户明天下午三点开会', todo: { remindText }, reason: 'reminder' }], reason: 'reminder' };
    });
    const { memory, todo } = await user({ model, logger });
    const say = async (id: string, content: string) => {
      await memory.appendMessages({ messages: [{ id, userId: 'u', sessionId: 's', role: 'user', content }] });
      await memory.extract('u', 's');
    };
    await say('m1', '明天下午三点提醒我开会');
    const t = await todo();
    expect(t.dueAt!.getTime() - t.remindAt!.getTime()).toBe(HOUR);
    await say('m2', '提醒改成提前一天');
    const moved = await todo();
    expect([at(moved.dueAt), at(moved.remindAt)]).toEqual(['2026-01-02 15:00', '2026-01-01 15:00']);
    await say('m3', '随便什么时候提醒都行');
    expect(await todo()).toEqual(moved);
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'TODO_REMINDER_UNREAD', todoId: t.id, remindText: 'whenever' }));
  });
});

describe('a reminder lead by hand: editTodo { remind }', () => {
  it('the lead as said, alone or with a new time; the todo’s words and time stay (zh, en)', async () => {
    const { memory, todo } = await user();
    await memory.add({ userId: 'u', kind: 'todo', content: '明天下午三点开会' });
    const t = await todo();
    const a = await memory.editTodo('u', t.id, { remind: '提前半小时' });
    expect([at(a.dueAt), at(a.remindAt), a.content]).toEqual(['2026-01-02 15:00', '2026-01-02 14:30', t.content]);
    const b = await memory.editTodo('u', t.id, { remind: 'the night before' });
    expect(at(b.remindAt)).toBe('2026-01-01 20:00');
    const c = await memory.editTodo('u', t.id, { when: '下午四点', remind: '10 minutes before' });
    expect([at(c.dueAt), at(c.remindAt)]).toEqual(['2026-01-02 16:00', '2026-01-02 15:50']);
    expect((await memory.get('u', t.memoryId!)).content).toBe('2026年1月2日16:00开会');
  });

  it('refuses a lead that says none, a todo with no time, and a lead with a reminder time besides', async () => {
    const { memory, todo } = await user();
    await memory.add({ userId: 'u', kind: 'todo', content: '明天下午三点开会' });
    const t = await todo();
    for (const remind of ['尽快', 'whenever']) {
      const error = await memory.editTodo('u', t.id, { remind }).catch((e: unknown) => e);
      expect(code(error)).toBe('INVALID_INPUT');
    }
    expect(code(await memory.editTodo('u', t.id, { remind: '提前一天', remindAt: new Date() }).catch((e: unknown) => e))).toBe('INVALID_INPUT');
    await memory.add({ userId: 'u', kind: 'todo', content: '买牛奶' });
    const untimed = (await memory.listTodos({ userId: 'u' })).find((x) => x.content === '买牛奶')!;
    expect(untimed.dueAt).toBeUndefined();
    expect(code(await memory.editTodo('u', untimed.id, { remind: '提前一天' }).catch((e: unknown) => e))).toBe('INVALID_INPUT');
    expect(await todo()).toEqual(t);
  });
});

describe('a reminder at a time of its own, apart from the todo’s', () => {
  it.each([
    ['zh', '我要在三月前续签护照，下周提醒我', '续签护照', '2026-03-01 09:00', '2026-01-05 09:00'],
    ['en', 'I need to renew my passport before March, remind me on Monday', 'renew my passport', '2026-03-01 09:00', '2026-01-05 09:00'],
  ])('%s offline: "%s" → the todo due as said, reminded then, and the reminder goes out then', async (_, said, content, due, reminder) => {
    const { memory, todos, say, deliverAt } = await user();
    expect(await say(said)).toMatchObject({ status: 'applied', added: 1 });
    const [t, ...rest] = await todos();
    expect(rest).toEqual([]);
    expect([t!.content, at(t!.dueAt), at(t!.remindAt)]).toEqual([content, due, reminder]);
    expect((await memory.list({ userId: 'u' })).map((m) => m.kind)).toEqual(['todo']);
    expect((await deliverAt(t!.remindAt!)).delivered).toEqual([t!.id]);
  });

  it.each([
    ['zh', '二十分钟后叫我', '（没说提醒什么）', '2026-01-01 08:20'],
    ['en', 'remind me in an hour', 'a reminder (nothing said of what)', '2026-01-01 09:00'],
  ])('%s offline: "%s" with nothing said of what is still a reminder, then', async (_, said, content, due) => {
    const { say, todo } = await user();
    await say(said);
    const t = await todo();
    expect([t.content, at(t.dueAt), at(t.remindAt)]).toEqual([content, due, due]);
  });

  it.each([
    ['zh', '三月前续签护照，下周一提醒我', { content: '续签护照', dueText: '三月前', remindText: '下周一' }],
    ['en', 'Renew the passport before March, remind me next Monday', { content: 'renew the passport', dueText: 'before March', remindText: 'next Monday' }],
  ])('%s: a model’s todo.remindText may be a time', async (_, said, spec) => {
    const model = scriptedModel(() => ({ operations: [{ op: 'add', kind: 'todo', content: said, importance: 0.7, todo: spec, sourceMessageIds: ['m1'] }], reason: 'todo' }));
    const { memory, todo } = await user({ model });
    await memory.appendMessages({ messages: [{ id: 'm1', userId: 'u', sessionId: 's', role: 'user', content: said }] });
    await memory.extract('u', 's');
    expect([at((await todo()).dueAt), at((await todo()).remindAt)]).toEqual(['2026-03-01 09:00', '2026-01-05 09:00']);
  });

  it('by hand: editTodo { remind } takes a time; one after the todo’s own is refused; a todo with no time gets one (zh, en)', async () => {
    const { memory, todo, todos } = await user();
    await memory.add({ userId: 'u', kind: 'todo', content: '下周五下午三点开会' });
    const t = await todo();
    expect(at(t.dueAt)).toBe('2026-01-09 15:00');
    expect(at((await memory.editTodo('u', t.id, { remind: '下周一早上' })).remindAt)).toBe('2026-01-05 09:00');
    expect(at((await memory.editTodo('u', t.id, { remind: 'Wednesday at 6pm' })).remindAt)).toBe('2026-01-07 18:00');
    for (const remind of ['下下周一', 'in two weeks']) {
      expect(code(await memory.editTodo('u', t.id, { remind }).catch((e: unknown) => e))).toBe('INVALID_INPUT');
    }
    expect(at((await todo()).remindAt)).toBe('2026-01-07 18:00');
    await memory.add({ userId: 'u', kind: 'todo', content: 'buy milk' });
    const untimed = (await todos()).find((x) => x.content === 'buy milk')!;
    const reminded = await memory.editTodo('u', untimed.id, { remind: 'tomorrow at 6pm' });
    expect([reminded.dueAt, at(reminded.remindAt)]).toEqual([undefined, '2026-01-02 18:00']);
  });
});
