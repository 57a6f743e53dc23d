import { afterEach, describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});
const make = () => {
  const memory = testMemory();
  engines.push(memory);
  return memory;
};

describe('todos by hand (issue 12.4)', () => {
  it.each([
    ['zh', '明天下午三点和王总开会', '2026-01-02T07:00:00.000Z', '2026-01-02 15:00 (Asia/Shanghai)', '王总'],
    ['en', 'Meeting with Mr Wang tomorrow at 3pm', '2026-01-02T07:00:00.000Z', '2026-01-02 15:00 (Asia/Shanghai)', 'Mr Wang'],
  ])('%s: add with kind todo makes the todo row with a due time parsed in the user’s zone, shown on their wall clock', async (_, text, dueIso, shown, query) => {
    const memory = make();
    await memory.setSettings('u', { timeZone: 'Asia/Shanghai' });
    const m = await memory.add({ userId: 'u', kind: 'todo', content: text });
    const [todo] = await memory.listTodos({ userId: 'u' });
    expect(todo).toMatchObject({ memoryId: m.id, content: text, completed: false });
    expect(todo!.dueAt?.toISOString()).toBe(dueIso);
    expect(todo!.remindAt?.toISOString()).toBe(new Date(Date.parse(dueIso) - 3_600_000).toISOString());
    const block = await memory.context({ userId: 'u', query, tokenBudget: 2000 });
    expect(block.text).toContain(shown);
    expect(block.text).not.toContain('07:00');
  });

  it.each([
    ['zh', '交季度报告', '2026-01-05T10:00:00Z'],
    ['en', 'Send the quarterly report', '2026-01-05T10:00:00Z'],
  ])('%s: an explicit due time is taken as given; a completed todo leaves the context at once', async (_, text, due) => {
    const memory = make();
    const m = await memory.add({ userId: 'u', kind: 'todo', content: text, dueAt: due });
    const [todo] = await memory.listTodos({ userId: 'u' });
    expect(todo!.dueAt?.toISOString()).toBe(new Date(due).toISOString());
    memory.clock.advanceDays(3);
    expect((await memory.context({ userId: 'u', query: text, tokenBudget: 2000 })).included.map((i) => i.type)).toContain('todo');
    await memory.completeTodo('u', todo!.id);
    const block = await memory.context({ userId: 'u', query: text, tokenBudget: 2000 });
    expect(block.text).not.toContain(text);
    expect(block.included).toEqual([]);
    expect(await memory.get('u', m.id)).toMatchObject({ status: 'archived' });
    expect((await memory.history('u', m.id)).at(-1)).toMatchObject({ action: 'archive', reason: 'todo completed' });
  });

  it.each([['zh', '用户喜欢猫'], ['en', 'The user likes cats']])('%s: a due time on another kind is refused', async (_, text) => {
    const memory = make();
    await expect(memory.add({ userId: 'u', kind: 'fact', content: text, dueAt: '2026-01-05T10:00:00Z' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('duplicates on save (issue 12.5)', () => {
  it.each([
    ['zh', '用户喜欢猫', '用户喜欢猫。', '用户喜欢狗'],
    ['en', 'The user likes cats', 'the user likes cats!', 'The user likes dogs'],
  ])('%s: the same fact added twice is one memory, reinforced with history; a different fact is not merged', async (_, text, again, other) => {
    const memory = make();
    const first = await memory.add({ userId: 'u', kind: 'preference', content: text });
    const second = await memory.add({ userId: 'u', kind: 'preference', content: again });
    expect(second.id).toBe(first.id);
    expect(second.importance).toBeCloseTo(0.6);
    expect((await memory.history('u', first.id)).at(-1)).toMatchObject({ action: 'reinforce', actor: 'user' });
    expect((await memory.history('u', first.id)).at(-1)!.reason).toContain(again);
    const third = await memory.add({ userId: 'u', kind: 'preference', content: other });
    expect(third.id).not.toBe(first.id);
    // Another user's identical memory is never touched.
    const elsewhere = await memory.add({ userId: 'v', kind: 'preference', content: text });
    expect(elsewhere.id).not.toBe(first.id);
    expect(await memory.list({ userId: 'u' })).toHaveLength(2);
  });

  it.each([['zh', '周五前完成报告'], ['en', 'Finish the report by Friday']])('%s: a repeated todo makes no second todo row (no second reminder)', async (_, text) => {
    const memory = make();
    await memory.add({ userId: 'u', kind: 'todo', content: text });
    await memory.add({ userId: 'u', kind: 'todo', content: text });
    expect(await memory.listTodos({ userId: 'u' })).toHaveLength(1);
  });
});

describe('deleting a todo', () => {
  it.each([
    ['zh', '明天下午三点和王总开会', '王总开会', '待办被删除'],
    ['en', 'Meeting with Mr Wang tomorrow at 3pm', 'meeting Mr Wang', 'the todo was deleted'],
  ])('%s: its memory goes too (restorable, with the reason), so no block lists it any more', async (_, text, query, reason) => {
    const memory = make();
    const m = await memory.add({ userId: 'u', kind: 'todo', content: text });
    const [todo] = await memory.listTodos({ userId: 'u' });
    expect((await memory.context({ userId: 'u', query, tokenBudget: 2000 })).text).toContain(text.includes('王') ? '王总' : 'Mr Wang');
    await memory.deleteTodo('u', todo!.id);
    expect(await memory.listTodos({ userId: 'u' })).toEqual([]);
    expect((await memory.get('u', m.id)).status).toBe('deleted');
    expect((await memory.history('u', m.id)).at(-1)).toMatchObject({ actor: 'user', reason });
    expect((await memory.context({ userId: 'u', query, tokenBudget: 2000 })).text).not.toContain(text.includes('王') ? '王总' : 'Mr Wang');
    // Deleting it again, or a todo that never was, changes nothing.
    await memory.deleteTodo('u', todo!.id);
    await memory.deleteTodo('u', 'no-such-todo');
    expect((await memory.get('u', m.id)).status).toBe('deleted');
  });
});
