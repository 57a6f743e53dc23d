import { afterEach, describe, expect, it } from 'vitest';
import { callbackNotifier, type Reminder } from '../notify/notifier.js';
import type { ExtractMemoriesInput } from '../prompts/extract-memories.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { testMemory } from '../testing/test-memory.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});

describe('a todo whose memory is deleted is withdrawn', () => {
  it.each([
    ['zh', '明天下午三点开会', '开会'],
    ['en', 'Meeting with the dentist tomorrow at 3pm', 'dentist'],
  ])('%s: deleted, it is not listed, not in the block, never reminded; restored, it all comes back', async (_, content, query) => {
    const sent: Reminder[] = [];
    const memory = testMemory({ notifier: callbackNotifier((r) => void sent.push(r)) });
    engines.push(memory);
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
    const memory = testMemory({ model, notifier: callbackNotifier((r) => void sent.push(r)) });
    engines.push(memory);
    await memory.add({ userId: 'u', kind: 'todo', content: '用户明天下午三点开会' });
    await memory.appendMessages({ messages: [{ id: 'm1', userId: 'u', sessionId: 's', role: 'user', content: '明天的会取消了，不用开会了' }] });
    expect(await memory.extract('u', 's')).toMatchObject({ status: 'applied', deleted: 1 });
    expect(await memory.listTodos({ userId: 'u' })).toEqual([]);
    memory.clock.advanceDays(2);
    expect((await memory.deliverReminders()).delivered).toEqual([]);
  });
});
