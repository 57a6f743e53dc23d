import { describe, expect, it } from 'vitest';
import type { Logger } from '../deps.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';
import { errorCode, TODO_USER_ZONE as TZ, todoUser, wallMinute } from '../testing/todo-user.js';

const HOUR = 3_600_000;
/** A test engine, closed after the test. */
const open = closesAfterEach(testMemory, (m) => m.close());
const at = wallMinute;
const code = errorCode;
const user = (options: Parameters<typeof testMemory>[0] = {}) => todoUser(open, options);

describe('moving a todo by hand: editTodo', () => {
  it.each([
    ['zh', '明天下午三点开会', '下午四点', '2026-01-02 16:00', '2026年1月2日16:00开会', '待办改到2026年1月2日16:00'],
    ['en', 'call the dentist tomorrow at 3pm', '4pm', '2026-01-02 16:00', 'call the dentist on 2026-01-02 at 16:00', 'todo moved on 2026-01-02 at 16:00'],
  ])('%s: the time as said moves the todo, its reminder and its memory, with a history entry', async (_, content, when, due, words, reason) => {
    const { memory, todo } = await user();
    const m = await memory.add({ userId: 'u', kind: 'todo', content });
    const before = await todo();
    const after = await memory.editTodo('u', before.id, { when });
    expect(at(after.dueAt)).toBe(due);
    expect(after.dueAt!.getTime() - after.remindAt!.getTime()).toBe(HOUR);
    expect(after.content).toBe(words);
    expect(await todo()).toMatchObject({ content: words, dueAt: after.dueAt, remindAt: after.remindAt, reminded: false });
    const now = await memory.get('u', m.id);
    expect(now.content).toBe(words);
    expect(now.happenedAt).toEqual(after.dueAt);
    expect((await memory.history('u', m.id)).at(-1)).toMatchObject({ action: 'update', actor: 'user', reason, before: { content }, after: { content: words } });
    // Recall finds the memory by its new words: it was embedded again.
    expect((await memory.recall({ userId: 'u', query: words, limit: 1 }))[0]?.memory.id).toBe(m.id);
  });

  it('a reminder already sent is sent again for the new time, with a new delivery id (zh, en)', async () => {
    for (const [content, when] of [['明天下午三点开会', '周六下午三点'], ['call the dentist tomorrow at 3pm', 'Saturday at 3pm']] as const) {
      const { memory, sent, todo } = await user();
      await memory.add({ userId: 'u', kind: 'todo', content });
      const t = await todo();
      memory.clock.advance(t.remindAt!.getTime() - memory.clock.now().getTime());
      expect((await memory.deliverReminders()).delivered).toEqual([t.id]);
      expect((await todo()).reminded).toBe(true);
      const moved = await memory.editTodo('u', t.id, { when });
      expect(moved).toMatchObject({ reminded: false, deliveryAttempts: 0 });
      expect(at(moved.dueAt)).toBe('2026-01-03 15:00');
      expect((await memory.deliverReminders()).delivered).toEqual([]);
      memory.clock.advance(moved.remindAt!.getTime() - memory.clock.now().getTime());
      expect((await memory.deliverReminders()).delivered).toEqual([t.id]);
      expect(sent.map((r) => r.deliveryId)).toEqual([`${t.id}@${t.remindAt!.getTime()}`, `${t.id}@${moved.remindAt!.getTime()}`]);
    }
  });

  it('a reminder on its way for the old time does not settle the moved todo', async () => {
    let release!: () => void;
    const { memory, todo } = await user({ notifier: { notify: () => new Promise<void>((resolve) => (release = resolve)) } });
    await memory.add({ userId: 'u', kind: 'todo', content: 'call the dentist tomorrow at 3pm' });
    const t = await todo();
    memory.clock.advance(t.remindAt!.getTime() - memory.clock.now().getTime());
    const delivering = memory.deliverReminders();
    await new Promise((r) => setTimeout(r, 10));
    const moved = await memory.editTodo('u', t.id, { when: 'Saturday at 3pm' });
    release();
    expect((await delivering).delivered).toEqual([t.id]);
    // The old reminder is recorded as sent; the todo keeps its new one, not reminded yet.
    expect(await todo()).toMatchObject({ reminded: false, remindAt: moved.remindAt });
  });

  it('a series moves the occurrence at hand and goes on at the new time; a new repeat, or none', async () => {
    const { memory, todo } = await user();
    await memory.add({ userId: 'u', kind: 'todo', content: '每天早上八点提醒我吃药' });
    const t = await todo();
    expect(at(t.dueAt)).toBe('2026-01-02 08:00');
    const evening = await memory.editTodo('u', t.id, { when: '晚上九点' });
    expect(at(evening.dueAt)).toBe('2026-01-02 21:00');
    expect(evening.repeat).toMatchObject({ every: 'day' });
    expect(evening.content).toBe('每天21:00提醒我吃药');
    memory.clock.advance(evening.remindAt!.getTime() - memory.clock.now().getTime());
    await memory.deliverReminders();
    expect(at((await todo()).dueAt)).toBe('2026-01-03 21:00');

    const weekly = await memory.editTodo('u', t.id, { repeat: { every: 'week', interval: 1, weekdays: [1, 4] } });
    expect(weekly.repeat).toMatchObject({ every: 'week', weekdays: [1, 4], timeZone: TZ });
    expect(at(weekly.dueAt)).toBe('2026-01-05 21:00'); // the first Monday, at the series' time of day
    const once = await memory.editTodo('u', t.id, { repeat: null });
    expect(once.repeat).toBeUndefined();
    expect(once.dueAt).toEqual(weekly.dueAt);
  });

  it('times given outright: the due time keeps the reminder lead; a reminder of its own; none at all', async () => {
    const { memory, todo } = await user();
    await memory.add({ userId: 'u', kind: 'todo', content: 'Submit the report on Friday at 5pm' });
    const t = await todo();
    const due = new Date('2026-01-06T09:00:00Z');
    expect(await memory.editTodo('u', t.id, { dueAt: due })).toMatchObject({ dueAt: due, remindAt: new Date(due.getTime() - HOUR) });
    const remindAt = new Date('2026-01-05T01:00:00Z');
    expect(await memory.editTodo('u', t.id, { remindAt })).toMatchObject({ dueAt: due, remindAt });
    const none = await memory.editTodo('u', t.id, { dueAt: null });
    expect(none.dueAt).toBeUndefined();
    expect(none.remindAt).toBeUndefined();
  });

  it('new words change the words only, for the todo and its memory alike (zh, en)', async () => {
    for (const [content, words] of [['明天下午三点开会', '明天下午三点和老板开会'], ['call the dentist tomorrow at 3pm', 'call Dr. Lee tomorrow at 3pm']] as const) {
      const { memory, todo } = await user();
      const m = await memory.add({ userId: 'u', kind: 'todo', content });
      const t = await todo();
      // A day later the same "明天" would be another day: words alone never move the todo.
      memory.clock.advanceDays(1);
      const edited = await memory.editTodo('u', t.id, { content: words });
      expect(edited).toMatchObject({ content: words, dueAt: t.dueAt, remindAt: t.remindAt });
      expect((await memory.get('u', m.id)).content).toBe(words);
    }
  });

  it('a todo’s memory reworded by hand rewords the todo made with the same words; its time stays (zh, en)', async () => {
    for (const [content, words] of [['明天下午三点开会', '明天下午三点和老板开会'], ['call the dentist tomorrow at 3pm', 'call Dr. Lee tomorrow at 3pm']] as const) {
      const { memory, todo } = await user();
      const m = await memory.add({ userId: 'u', kind: 'todo', content });
      const t = await todo();
      await memory.update('u', m.id, { content: words });
      expect(await todo()).toMatchObject({ content: words, dueAt: t.dueAt, remindAt: t.remindAt });
    }
    // One the extractor made says the task alone ("开会"), not the memory's sentence: it stays.
    const { memory, todo, say } = await user();
    await say('明天下午三点提醒我开会');
    const t = await todo();
    await memory.update('u', t.memoryId!, { content: '用户有待办事项：明天下午三点和老板开会' });
    expect((await todo()).content).toBe('开会');
  });

  it('refuses what cannot be: no time in the words, a reminder after the time, a done todo, another user’s todo, nothing to change', async () => {
    const { memory, todo } = await user();
    await memory.add({ userId: 'u', kind: 'todo', content: '明天下午三点开会' });
    const t = await todo();
    await expect(memory.editTodo('u', t.id, { when: '会议室B' })).rejects.toSatisfy((e) => code(e) === 'INVALID_INPUT');
    await expect(memory.editTodo('u', t.id, { when: 'somewhere nice' })).rejects.toSatisfy((e) => code(e) === 'INVALID_INPUT');
    await expect(memory.editTodo('u', t.id, { remindAt: new Date(t.dueAt!.getTime() + HOUR) })).rejects.toSatisfy((e) => code(e) === 'INVALID_INPUT');
    await expect(memory.editTodo('u', t.id, {})).rejects.toSatisfy((e) => code(e) === 'INVALID_INPUT');
    await expect(memory.editTodo('u', t.id, { when: '下午四点', dueAt: new Date() })).rejects.toSatisfy((e) => code(e) === 'INVALID_INPUT');
    await expect(memory.editTodo('someone-else', t.id, { when: '下午四点' })).rejects.toSatisfy((e) => code(e) === 'NOT_FOUND');
    // Nothing was changed by any of them.
    expect(await todo()).toEqual(t);
    await memory.completeTodo('u', t.id);
    await expect(memory.editTodo('u', t.id, { when: '下午四点' })).rejects.toSatisfy((e) => code(e) === 'INVALID_INPUT');
  });
});

describe('moving a todo by saying so', () => {
  it.each([
    ['zh', '明天下午三点提醒我开会', '明天的会改到下午四点', '2026-01-02 16:00', '用户有待办事项：2026年1月2日16:00开会'],
    ['zh', '提醒我周五交房租', '把交房租的提醒改到周六上午十点', '2026-01-03 10:00', '用户有待办事项：2026年1月3日10:00交房租'],
    ['en', 'Remind me tomorrow at 3pm to call the dentist', 'Move the dentist call to 4pm', '2026-01-02 16:00', 'The user has a to-do: call the dentist on 2026-01-02 at 16:00'],
    ['en', 'Remind me on Friday to pay rent', 'Can you push the rent reminder to Monday?', '2026-01-05 09:00', 'The user has a to-do: pay rent on 2026-01-05 at 09:00'],
  ])('%s, offline: "%s", then "%s"', async (_, asked, moved, due, words) => {
    const { memory, todo, say } = await user();
    await say(asked);
    const t = await todo();
    const report = await say(moved);
    expect(report).toMatchObject({ updated: 1, added: 0 });
    const after = await todo();
    expect(after.id).toBe(t.id);
    expect(at(after.dueAt)).toBe(due);
    expect(after.dueAt!.getTime() - after.remindAt!.getTime()).toBe(t.dueAt!.getTime() - t.remindAt!.getTime());
    const m = await memory.get('u', after.memoryId!);
    expect(m.content).toBe(words);
    // Its history says it came from the message that moved it.
    expect((await memory.history('u', m.id)).at(-1)).toMatchObject({ action: 'update', actor: 'extraction' });
    // The block lists it at the new time.
    const block = await memory.context({ userId: 'u', query: moved, tokenBudget: 1000, todoHorizonHours: 24 * 7 });
    expect(block.text).toContain(`${due} (${TZ})`);
  });

  it.each([
    ['zh', '每天早上八点提醒我吃药', '吃药改到晚上九点', '2026-01-02 21:00', { every: 'day' }],
    ['zh', '每周一和周四晚上七点提醒我去健身', '健身改成每周三', '2026-01-07 19:00', { every: 'week', weekdays: [3] }],
    ['en', 'Remind me every weekday at 9am to join the standup', 'The standup is moved to 10am', '2026-01-01 10:00', { every: 'week', weekdays: [1, 2, 3, 4, 5] }],
  ])('%s, offline: a series moved ("%s", then "%s")', async (_, asked, moved, due, repeat) => {
    const { todo, say } = await user();
    await say(asked);
    await say(moved);
    const after = await todo();
    expect(at(after.dueAt)).toBe(due);
    expect(after.repeat).toMatchObject(repeat);
  });

  it('words about other things are not a move (zh, en)', async () => {
    for (const [asked, other] of [['明天下午三点提醒我开会', '我把头发改成短发了'], ['Remind me tomorrow at 3pm to call the dentist', 'I moved the couch to the living room']] as const) {
      const { todo, say } = await user();
      await say(asked);
      const t = await todo();
      await say(other);
      expect(await todo()).toEqual(t);
    }
  });

  it('what a move says besides is still remembered: with no such todo, that alone, unremarked', async () => {
    const { memory, todo, say } = await user();
    const report = await say('I moved my dentist appointment to Friday');
    expect(report).toMatchObject({ added: 1, updated: 0 });
    expect(report.reason).not.toContain('no to-do found');
    expect(await memory.listTodos({ userId: 'u' })).toEqual([]);
    // With the todo, it moves too.
    await say('Remind me tomorrow at 3pm to call the dentist');
    const t = await todo();
    expect(await say('I moved the dentist call to Saturday')).toMatchObject({ updated: 1 });
    expect(at((await todo()).dueAt)).toBe('2026-01-03 15:00');
    expect(t.id).toBe((await todo()).id);
  });

  it('a move naming no todo the user has changes nothing and says why (zh, en)', async () => {
    for (const [asked, other, why] of [['明天下午三点提醒我开会', '牙医改到下午四点', '没有找到要改时间的待办'], ['Remind me tomorrow at 3pm to call the dentist', 'Move the yoga class to 4pm', 'no to-do found to move']] as const) {
      const { todo, say } = await user();
      await say(asked);
      const t = await todo();
      const report = await say(other);
      expect(report).toMatchObject({ updated: 0, added: 0 });
      expect(JSON.stringify(report)).toContain(why);
      expect(await todo()).toEqual(t);
    }
  });

  it('the next open todos are shown to the extractor, though recall would not bring them (zh, en)', async () => {
    for (const [todoWords, said, near] of [['周五交房租', '那就改到周六上午十点吧', (i: number) => `用户周六上午十点要去游泳，第${i}次`], ['pay rent on Friday', "Let's make it Saturday at 10am then", (i: number) => `The user swims on Saturday at 10am, lesson ${i}`]] as const) {
      const shown: string[][] = [];
      const model = scriptedModel((_promptId, input) => {
        shown.push((input as { existing: Array<{ content: string }> }).existing.map((m) => m.content));
        return { operations: [{ op: 'skip', reason: 'nothing' }], reason: 'nothing' };
      });
      const { memory } = await user({ model });
      await memory.add({ userId: 'u', kind: 'todo', content: todoWords });
      // Twelve memories closer in words to what is said next than the todo is: recall's ten are theirs.
      for (let i = 0; i < 12; i++) await memory.add({ userId: 'u', kind: 'fact', content: near(i) });
      await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: said }] });
      await memory.extract('u', 's');
      expect(shown[0]!.filter((c) => c !== todoWords)).toHaveLength(10);
      expect(shown[0]).toContain(todoWords);
    }
  });

  it.each([
    ['zh', '明天下午三点提醒我开会', '明天的会改到下午四点吧', '用户明天下午四点要开会', '下午四点', '2026-01-02 16:00'],
    ['en', 'Remind me tomorrow at 3pm to call the dentist', 'Please move the dentist call to 4pm', 'The user has to call the dentist tomorrow at 4pm', '4pm', '2026-01-02 16:00'],
  ])('%s, a model: an update of the todo with its new time in todo.dueText moves it', async (_, asked, moved, content, dueText, due) => {
    let turn = 0;
    const model = scriptedModel((_promptId, input) => {
      turn++;
      const existing = (input as { existing: Array<{ alias: string; kind: string }> }).existing;
      if (turn === 1) return { operations: [{ op: 'add', kind: 'todo', content: asked, importance: 0.7, todo: { content: asked, dueText: asked }, sourceMessageIds: ['m1'] }], reason: 'todo' };
      const target = existing.find((m) => m.kind === 'todo')!.alias;
      return { operations: [{ op: 'update', target, content, todo: { dueText }, reason: 'moved' }], reason: 'moved' };
    });
    const { memory, todo } = await user({ model });
    await memory.appendMessages({ messages: [{ id: 'm1', userId: 'u', sessionId: 's', role: 'user', content: asked }] });
    await memory.extract('u', 's');
    const t = await todo();
    await memory.appendMessages({ messages: [{ id: 'm2', userId: 'u', sessionId: 's', role: 'user', content: moved }] });
    expect(await memory.extract('u', 's')).toMatchObject({ status: 'applied', updated: 1 });
    const after = await todo();
    expect(after.id).toBe(t.id);
    expect(at(after.dueAt)).toBe(due);
    // The model's own words stand for the memory; the reminder follows the time.
    expect((await memory.get('u', after.memoryId!)).content).toBe(content);
    expect(after.remindAt!.getTime()).toBe(after.dueAt!.getTime() - HOUR);
  });

  it('a model’s time that says no time leaves the todo as it was and the log says why', async () => {
    const warnings: unknown[] = [];
    const logger: Logger = { debug() {}, info() {}, error() {}, warn: (_m, data) => void warnings.push(data) };
    let turn = 0;
    const model = scriptedModel((_promptId, input) => {
      turn++;
      if (turn === 1) return { operations: [{ op: 'add', kind: 'todo', content: '明天下午三点开会', importance: 0.7, todo: { content: '开会', dueText: '明天下午三点' }, sourceMessageIds: ['m1'] }], reason: 'todo' };
      const target = (input as { existing: Array<{ alias: string; kind: string }> }).existing.find((m) => m.kind === 'todo')!.alias;
      return { operations: [{ op: 'update', target, content: '用户的会要尽快开', todo: { dueText: 'asap' }, reason: 'moved' }], reason: 'moved' };
    });
    const { memory, todo } = await user({ model, logger });
    await memory.appendMessages({ messages: [{ id: 'm1', userId: 'u', sessionId: 's', role: 'user', content: '明天下午三点提醒我开会' }] });
    await memory.extract('u', 's');
    const t = await todo();
    await memory.appendMessages({ messages: [{ id: 'm2', userId: 'u', sessionId: 's', role: 'user', content: '会要尽快开' }] });
    await memory.extract('u', 's');
    expect(await todo()).toEqual(t);
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'TODO_TIME_UNREAD', todoId: t.id, dueText: 'asap' }));
  });
});

describe('a todo done by saying so', () => {
  it.each([
    ['zh', '提醒我周五交房租', '我已经交了房租'],
    ['zh', '提醒我周五交房租', '房租交了'],
    ['zh', '明天下午三点提醒我开会', '会开完了'],
    ['zh', '明天提醒我给妈妈打电话', '已经给妈妈打过电话了'],
    ['zh', '提醒我周五交房租', '交房租的事搞定了'],
    ['en', 'Remind me on Friday to pay the rent', 'I already paid the rent'],
    ['en', 'Remind me tomorrow at 3pm to call the dentist', "I've called the dentist"],
    ['en', 'Remind me on Friday to submit the report', 'The report is done'],
  ])('%s, offline: "%s", then "%s": completed, its memory archived with the reason, never reminded', async (_, asked, said) => {
    const { memory, sent, todo, say } = await user();
    await say(asked);
    const t = await todo();
    expect(await say(said)).toMatchObject({ updated: 1, added: 0 });
    expect((await memory.listTodos({ userId: 'u', completed: true })).map((x) => x.id)).toEqual([t.id]);
    const m = await memory.get('u', t.memoryId!);
    expect(m.status).toBe('archived');
    expect((await memory.history('u', m.id)).at(-1)).toMatchObject({ action: 'archive', actor: 'extraction' });
    memory.clock.advanceDays(7);
    expect((await memory.deliverReminders()).delivered).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('a series is done this time only: it moves on and keeps reminding (zh, en)', async () => {
    for (const [asked, said] of [['每天早上八点提醒我吃药', '吃过药了'], ['Remind me every morning at 8 to take my pills', 'I just took my pills']] as const) {
      const { memory, todo, say } = await user();
      await say(asked);
      const t = await todo();
      // The evening before the first one (12 hours ahead): no dose is taken that early, nothing moves.
      memory.clock.advance(12 * HOUR);
      await say(said);
      expect((await todo()).dueAt!.getTime()).toBe(t.dueAt!.getTime());
      // Two hours before it: "done" settles the coming occurrence.
      memory.clock.advance(10 * HOUR);
      await say(said);
      const after = await todo();
      expect(after).toMatchObject({ id: t.id, completed: false });
      expect(after.dueAt!.getTime()).toBe(t.dueAt!.getTime() + 24 * HOUR);
      expect((await memory.get('u', t.memoryId!)).status).toBe('active');
    }
  });

  it('what the user did that is not the todo completes nothing; what they did is still remembered (zh, en)', async () => {
    for (const [asked, said] of [
      ['提醒我周五交报告', '报告写完了'], // writing it is not handing it in
      ['提醒我周五交房租', '房租该交了'], // due, not done
      ['提醒我周五交房租', '房租不交了'],
      ['提醒我明天做饭', '我刚吃了饭'],
      ['Remind me on Friday to submit the report', 'I just wrote the report'],
      ['Remind me tomorrow to call mom', 'I just ate lunch'],
      ['Remind me on Friday to pay the rent', 'Did I pay the rent?'],
    ] as const) {
      const { todo, say } = await user();
      await say(asked);
      const t = await todo();
      await say(said);
      expect(await todo(), said).toEqual(t);
    }
    const { memory, say } = await user();
    await say('Remind me on Friday to submit the report');
    const report = await say('I just wrote the report');
    expect(report.added).toBe(1);
    expect((await memory.list({ userId: 'u', kinds: ['event'] })).map((m) => m.content)).toEqual(['The user just wrote the report']);
  });

  it.each([
    ['zh', '提醒我周五交房租', '房租我已经交啦', '交房租'],
    ['en', 'Remind me on Friday to pay the rent', 'Rent is paid, finally', 'pay the rent'],
  ])('%s, a model: an update with todo.done completes it', async (_, asked, said, task) => {
    let turn = 0;
    const model = scriptedModel((_promptId, input) => {
      turn++;
      if (turn === 1) return { operations: [{ op: 'add', kind: 'todo', content: asked, importance: 0.7, todo: { content: task, dueText: asked }, sourceMessageIds: ['m1'] }], reason: 'todo' };
      const target = (input as { existing: Array<{ alias: string; kind: string }> }).existing.find((m) => m.kind === 'todo')!.alias;
      return { operations: [{ op: 'update', target, content: asked, todo: { done: true }, reason: 'done' }], reason: 'done' };
    });
    const { memory, todo } = await user({ model });
    await memory.appendMessages({ messages: [{ id: 'm1', userId: 'u', sessionId: 's', role: 'user', content: asked }] });
    await memory.extract('u', 's');
    const t = await todo();
    await memory.appendMessages({ messages: [{ id: 'm2', userId: 'u', sessionId: 's', role: 'user', content: said }] });
    expect(await memory.extract('u', 's')).toMatchObject({ status: 'applied' });
    expect((await memory.listTodos({ userId: 'u', completed: true })).map((x) => x.id)).toEqual([t.id]);
    expect((await memory.history('u', t.memoryId!)).at(-1)).toMatchObject({ action: 'archive', actor: 'extraction', reason: 'done' });
  });
});
