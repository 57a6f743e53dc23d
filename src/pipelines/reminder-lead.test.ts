import { afterEach, describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});

/** A user who asks, offline (the heuristic extractor), for a reminder; the todo it made. */
async function askedFor(text: string) {
  const memory = testMemory();
  engines.push(memory);
  await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: text }] });
  await memory.extract('u', 's');
  const [todo] = await memory.listTodos({ userId: 'u' });
  return { memory, todo: todo! };
}

describe('when a reminder fires', () => {
  it.each(['半小时后提醒我关火', 'In 20 minutes remind me to check the oven'])('a due time within the hour: at the due time, not at once (%s)', async (text) => {
    const { memory, todo } = await askedFor(text);
    expect(todo.dueAt!.getTime()).toBeGreaterThan(memory.clock.now().getTime());
    expect(todo.remindAt).toEqual(todo.dueAt);
  });

  it.each(['提醒我明天下午三点开会', 'Remind me to call mom tomorrow at 5pm'])('a due time further off: an hour before it (%s)', async (text) => {
    const { todo } = await askedFor(text);
    expect(todo.dueAt!.getTime() - todo.remindAt!.getTime()).toBe(3_600_000);
  });

  it('a todo added with a due time in 30 minutes is reminded then', async () => {
    const memory = testMemory();
    engines.push(memory);
    const dueAt = new Date(memory.clock.now().getTime() + 30 * 60_000);
    await memory.add({ userId: 'u', kind: 'todo', content: 'take the cake out', dueAt });
    const [todo] = await memory.listTodos({ userId: 'u' });
    expect(todo!.remindAt).toEqual(dueAt);
  });
});
