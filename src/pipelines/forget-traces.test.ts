import { afterEach, describe, expect, it } from 'vitest';
import type { ExtractionResult } from '../domain/operations.js';
import { callbackNotifier, type Reminder } from '../notify/notifier.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { testMemory } from '../testing/test-memory.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});

/** An engine whose one extraction adds a todo due in a few hours, and a notifier that records reminders. */
async function withTodo(content: string, todo: { content: string; dueAt: string }, message: string) {
  const answer: ExtractionResult = { operations: [{ op: 'add', kind: 'todo', content, importance: 0.7, confidence: 0.9, todo }], reason: 'todo' };
  const sent: Reminder[] = [];
  const memory = testMemory({ model: scriptedModel({ 'extract-memories': [answer] }), notifier: callbackNotifier((r) => void sent.push(r)) });
  engines.push(memory);
  await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: message }] });
  expect(await memory.extract('u', 's')).toMatchObject({ added: 1 });
  expect(await memory.listTodos({ userId: 'u' })).toHaveLength(1);
  return { memory, sent };
}

describe('forgetting a topic erases derived rows (issue 14 item 4)', () => {
  it.each([
    ['Chinese', '用户要在今天下午提交跳槽申请', { content: '提交跳槽申请', dueAt: '2026-01-01T06:00:00.000Z' }, '我今天下午要提交跳槽申请', '跳槽'],
    ['English', 'The user must send the Acme resignation letter today', { content: 'send the Acme resignation letter', dueAt: '2026-01-01T06:00:00.000Z' }, 'I must send the Acme resignation letter today', 'Acme'],
  ])('%s: the todo row goes with its memory: not listed, not exported, not in the context, never reminded', async (_lang, content, todo, message, topic) => {
    const { memory, sent } = await withTodo(content, todo, message);
    const report = await memory.forgetTopic('u', topic);
    expect(report.forgotten).toHaveLength(1);
    expect(await memory.listTodos({ userId: 'u' })).toEqual([]);
    expect((await memory.exportUser('u')).todos).toEqual([]);
    expect((await memory.context({ userId: 'u', query: topic })).text).not.toContain(todo.content);
    memory.clock.advance(6 * 3_600_000);
    expect(await memory.deliverReminders()).toMatchObject({ delivered: [] });
    expect(sent).toEqual([]);
  });
});

describe('purge keeps no free text (issue 14 item 4)', () => {
  it.each([
    ['Chinese', '用户在和小王约会', '用户在和小王秘密约会', '因为小王的事', '用户要求彻底删除小王'],
    ['English', 'The user is dating Bob', 'The user is secretly dating Bob', 'corrected: Bob is a secret', 'forget Bob entirely'],
  ])('%s: only that it was purged remains in history', async (_lang, content, updated, why, purgeReason) => {
    const memory = testMemory();
    engines.push(memory);
    const m = await memory.add({ userId: 'u', content });
    await memory.update('u', m.id, { content: updated }, { actor: 'user', reason: why });
    await memory.delete('u', m.id, { actor: 'user', reason: why });
    await memory.purge('u', m.id, { actor: 'user', reason: purgeReason });
    const history = await memory.history('u', m.id);
    expect(history.at(-1)).toMatchObject({ action: 'purge', actor: 'user', before: null, after: null });
    for (const event of history) expect(event).toMatchObject({ before: null, after: null, reason: undefined, messageIds: [] });
    const dump = JSON.stringify(await memory.exportUser('u'));
    for (const text of [content, updated, why, purgeReason]) expect(dump).not.toContain(text);
  });
});
