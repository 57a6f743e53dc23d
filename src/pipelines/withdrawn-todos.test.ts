import { describe, expect, it } from 'vitest';
import { callbackNotifier, type Reminder } from '../notify/notifier.js';
import type { ExtractMemoriesInput } from '../prompts/extract-memories.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';

/** A test engine, closed after the test. */
const open = closesAfterEach(testMemory, (m) => m.close());

describe('a todo whose memory is deleted is withdrawn', () => {
  it.each([
    ['zh', '明天下午三点开会', '开会'],
    ['en', 'Meeting with the dentist tomorrow at 3pm', 'dentist'],
  ])('%s: deleted, it is not listed, not in the block, never reminded; restored, it all comes back', async (_, content, query) => {
    const sent: Reminder[] = [];
    const memory = open({ notifier: callbackNotifier((r) => void sent.push(r)) });
    const m = await memory.add({ userId: 'u', kind: 'todo', content });
    await memory.delete('u', m.id);
    expect(await memory.listTodos({ userId: 'u' })).toEqual([]);
    expect(await memory.listTodos({ userId: 'u', live: false })).toHaveLength(1);
    expect((await memory.context({ userId: 'u', query, tokenBudget: 1000 })).included).toEqual([]);
    memory.clock.advanceDays(2);
    expect((await memory.deliverReminders()).delivered).toEqual([]);
    expect(sent).toEqual([]);

    await memory.restore('u', m.id);
    const [todo] = await memory.listTodos({ userId: 'u' });
    expect(todo).toMatchObject({ memoryId: m.id, completed: false });
    expect((await memory.deliverReminders()).delivered).toEqual([todo!.id]);
    expect(sent.map((r) => r.content)).toEqual([content]);
  });

  it('the model deleting the memory ("会议取消了") withdraws its reminder too', async () => {
    const model = scriptedModel((_, input) => {
      const i = input as ExtractMemoriesInput;
      const meeting = i.existing.find((e) => e.content.includes('开会'));
      return meeting
        ? { operations: [{ op: 'delete', target: meeting.alias, reason: '会议取消了' }], reason: '会议取消' }
        : { operations: [{ op: 'skip', reason: 'nothing' }], reason: 'nothing' };
    });
    const sent: Reminder[] = [];
    const memory = open({ model, notifier: callbackNotifier((r) => void sent.push(r)) });
    await memory.add({ userId: 'u', kind: 'todo', content: '用户明天下午三点开会' });
    await memory.appendMessages({ messages: [{ id: 'm1', userId: 'u', sessionId: 's', role: 'user', content: '明天的会取消了，不用开会了' }] });
    expect(await memory.extract('u', 's')).toMatchObject({ status: 'applied', deleted: 1 });
    expect(await memory.listTodos({ userId: 'u' })).toEqual([]);
    memory.clock.advanceDays(2);
    expect((await memory.deliverReminders()).delivered).toEqual([]);
  });

  it.each([
    ['zh', '每天早上八点提醒我吃药', '以后不用再提醒我吃药了', '提醒我明天下午三点开会'],
    // The words said need not be the todo's own: "吃药" of "吃胃药", the task before "不用提醒了".
    ['zh', '每天晚上十点提醒我吃胃药', '以后不用再提醒我吃药了，胃好多了', '提醒我明天下午三点开会'],
    ['zh', '每周六上午十点提醒我上钢琴课', '钢琴课那个不用提醒了', '提醒我明天下午三点开会'],
    ['en', 'Remind me every morning at 8 to take my pills', 'Stop reminding me to take my pills', 'Remind me to call mom tomorrow at 5pm'],
  ])('%s: said offline ("%s", then "%s"), the reminder is called off; other todos stay', async (_, asked, stop, other) => {
    const sent: Reminder[] = [];
    const memory = open({ notifier: callbackNotifier((r) => void sent.push(r)) });
    const say = async (content: string) => {
      await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content }] });
      return memory.extract('u', 's');
    };
    await say(asked);
    await say(other);
    expect(await memory.listTodos({ userId: 'u' })).toHaveLength(2);
    memory.clock.advance(60_000);
    expect(await say(stop)).toMatchObject({ deleted: 1, added: 0 });
    const left = await memory.listTodos({ userId: 'u' });
    expect(left).toHaveLength(1);
    expect(left[0]!.repeat).toBeUndefined();
    memory.clock.advanceDays(3);
    await memory.deliverReminders();
    expect(sent.map((r) => r.todoId)).toEqual([left[0]!.id]);
    // With nothing to call off, nothing is stored either.
    expect(await say(stop)).toMatchObject({ added: 0, deleted: 0 });
  });

  it.each([
    ['zh', '明天下午三点提醒我开会', '明天的会取消了'],
    ['zh', '提醒我周五交房租', '把交房租的提醒取消吧'],
    ['zh', '提醒我周五交房租', '取消交房租的提醒'],
    ['en', 'Remind me tomorrow at 3pm to call the dentist', 'The dentist call is cancelled'],
    ['en', 'Remind me on Friday to pay the rent', 'Cancel the rent reminder'],
  ])('%s: called off offline ("%s", then "%s"): withdrawn; the other todo stays', async (_, asked, cancel) => {
    const memory = open();
    const say = async (content: string) => {
      await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content }] });
      const report = await memory.extract('u', 's');
      memory.clock.advance(60_000);
      return report;
    };
    await say(asked);
    await say('每天早上八点提醒我吃药');
    const [kept] = (await memory.listTodos({ userId: 'u' })).filter((t) => t.repeat);
    expect(await say(cancel)).toMatchObject({ deleted: 1, added: 0 });
    expect((await memory.listTodos({ userId: 'u' })).map((t) => t.id)).toEqual([kept!.id]);
  });

  it('what was called off in the world, with no such todo, changes nothing and says nothing; asked of Engram, it says why (zh, en)', async () => {
    const memory = open();
    const say = async (content: string) => {
      await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content }] });
      return memory.extract('u', 's');
    };
    await say('提醒我周五交房租');
    for (const said of ['我的航班取消了', 'The party was cancelled']) expect(await say(said)).toMatchObject({ deleted: 0, reason: expect.not.stringMatching(/提醒|reminder/) });
    expect(await say('取消健身的提醒')).toMatchObject({ deleted: 0, reason: '没有找到要停止的提醒：健身的提醒' });
    expect(await say('Cancel the gym reminder')).toMatchObject({ deleted: 0, reason: 'no reminder found to stop: the gym reminder' });
    expect(await memory.listTodos({ userId: 'u' })).toHaveLength(1);
  });
});

describe('a todo whose memory is made another kind is withdrawn', () => {
  it.each([
    ['zh', '明天下午三点交房租', '交房租'],
    ['en', 'Pay the rent tomorrow at 3pm', 'rent'],
  ])('%s: made a preference, it is not listed, not in the block, never reminded; made a todo again, it comes back', async (_, content, query) => {
    const sent: Reminder[] = [];
    const memory = open({ notifier: callbackNotifier((r) => void sent.push(r)) });
    const m = await memory.add({ userId: 'u', kind: 'todo', content });
    await memory.update('u', m.id, { kind: 'preference' });
    expect(await memory.listTodos({ userId: 'u' })).toEqual([]);
    expect((await memory.context({ userId: 'u', query, tokenBudget: 1000 })).included.map((i) => i.type)).not.toContain('todo');
    memory.clock.advanceDays(2);
    expect((await memory.deliverReminders()).delivered).toEqual([]);
    expect(sent).toEqual([]);

    await memory.update('u', m.id, { kind: 'todo' });
    const [todo] = await memory.listTodos({ userId: 'u' });
    expect(todo).toMatchObject({ memoryId: m.id, completed: false });
    expect((await memory.deliverReminders()).delivered).toEqual([todo!.id]);
  });
});
