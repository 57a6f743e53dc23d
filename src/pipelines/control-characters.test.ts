import { describe, expect, it } from 'vitest';
import { EngramError } from '../errors.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testDatabaseUrl } from '../store/postgres/test-postgres.js';
import { testMemory } from '../testing/test-memory.js';

const make = closesAfterEach(() => testMemory(), (m) => m.close());

/** The refusal's message, after checking it is INVALID_INPUT. */
async function refused(call: () => Promise<unknown>): Promise<string> {
  const error = await call().then(() => null, (e: unknown) => e);
  expect(EngramError.hasCode(error, 'INVALID_INPUT'), String(error)).toBe(true);
  return (error as EngramError).message;
}

/**
 * The library is the one door every other opens onto (HTTP, MCP, CLI, memory.md, imports): the
 * words of a memory, a todo or a learning with a control character are refused there, naming it.
 */
describe('control characters in stored words, refused by the library (zh, en)', () => {
  it.each([
    ['zh', '用户对\u0000花生过敏', 'U+0000 at character 4', '明天下午三点\u0007开会', '发布周报', '拉数据\u001b[2J'],
    ['en', 'The user is allergic to \u009bpeanuts', 'U+009B at character 25', 'call mom tomorrow\u0008 at 3pm', 'deploy the web app', 'npm run build\u0000'],
  ])('%s: add, update, a todo\'s words and a learning; nothing is written', async (_, bad, where, badTodo, task, badStep) => {
    const memory = make();
    expect(await refused(() => memory.add({ userId: 'u', content: bad }))).toBe(`Invalid memory: content: must not contain control characters: ${where} (tab, line feed and carriage return are kept)`);
    expect(await refused(() => memory.add({ userId: 'u', kind: 'todo', content: badTodo }))).toMatch(/content: must not contain control characters: U\+00(07|08) at character/);
    const kept = await memory.add({ userId: 'u', content: bad.replace(/[\u0000-\u001f\u007f-\u009f]/g, '') });
    expect(await refused(() => memory.update('u', kept.id, { content: `${kept.content}\u0000` }))).toMatch(/^Invalid memory update: content: .*U\+0000/);
    const todo = await memory.add({ userId: 'u', kind: 'todo', content: badTodo.replace(/[\u0007\u0008]/g, '') });
    const [open] = await memory.listTodos({ userId: 'u' });
    expect(await refused(() => memory.editTodo('u', open!.id, { content: badTodo }))).toMatch(/^Invalid todo edit: content: .*U\+00(07|08)/);
    expect(await refused(() => memory.recordLearning({ userId: 'u', task, steps: ['ok', badStep] }))).toMatch(/steps\.1: must not contain control characters: U\+00(1B|00)/);
    expect(await refused(() => memory.recordLearning({ userId: 'u', task: `${task}\u0001`, steps: ['ok'] }))).toMatch(/task: .*U\+0001/);
    expect(await refused(() => memory.recordLearning({ userId: 'u', task, steps: ['ok'], error: 'E\u0000', fix: 'retry' }))).toMatch(/error: .*U\+0000 at character 2/);
    expect(await refused(() => memory.recordLearning({ userId: 'u', task, steps: ['ok'], error: 'E', fix: 'retry\u007f' }))).toMatch(/fix: .*U\+007F/);
    expect(await refused(() => memory.recordLearning({ userId: 'u', task, steps: ['ok'], tools: ['git', `\u001b[31m${task}`] }))).toMatch(/tools\.1: .*U\+001B at character 1/);
    expect((await memory.list({ userId: 'u' })).map((m) => m.id).sort()).toEqual([kept.id, todo.id].sort());
    expect((await memory.get('u', kept.id)).content).toBe(kept.content);
    expect((await memory.listTodos({ userId: 'u' }))[0]!.content).toBe(todo.content);
  });

  it('chat messages keep what was said, control characters and all', async () => {
    const memory = make();
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: '我说了 \u0007 这个 and \u001b that' }] });
    const [said] = await memory.workingWindow('u', 's');
    expect(said!.content).toBe('我说了 \u0007 这个 and \u001b that');
  });
});

const at = '2026-01-01T00:00:00.000Z';
const memoryRow = (id: string, content: string) => ({
  id, userId: 'u', kind: 'fact', content, importance: 0.5, confidence: 1, source: 'manual', verified: true, core: false, status: 'active',
  provenance: { messageIds: [] }, language: 'zh', createdAt: at, updatedAt: at, accessCount: 0,
});
const todoRow = (id: string, content: string) => ({ id, userId: 'u', content, completed: false, reminded: false, createdAt: at, deliveryAttempts: 0 });
const file = (over: Record<string, unknown>) => ({ format: 'engram-export', version: 1, userId: 'u', exportedAt: at, memories: [], history: [], relations: [], profiles: [], todos: [], messages: [], settings: {}, ...over });

describe('an import holds stored words to the same rule (zh, en)', () => {
  it.each([
    ['zh', '用户喜欢猫', '用户对\u0000花生过敏', '明天\u0007开会'],
    ['en', 'The user likes cats', 'The user is allergic to \u001bpeanuts', 'call mom\u0008 tomorrow'],
  ])('%s: names the record (its place and id) and the field, and imports nothing of the file', async (_, good, bad, badTodo) => {
    const memory = make();
    const message = { id: 'msg-1', userId: 'u', sessionId: 's1', seq: 0, role: 'user', content: `said \u0000 ${good}`, createdAt: at };
    const memories = await refused(() => memory.importUser(file({ memories: [memoryRow('m-1', good), memoryRow('m-2', bad)], messages: [message] })));
    expect(memories).toMatch(/^Invalid export: memories\.1\.content: must not contain control characters: U\+00(00|1B) at character \d+ .*\(the record with id m-2\)$/);
    const todos = await refused(() => memory.importUser(file({ memories: [memoryRow('m-1', good)], todos: [todoRow('t-1', badTodo)] })));
    expect(todos).toMatch(/^Invalid export: todos\.0\.content: must not contain control characters: U\+00(07|08).*\(the record with id t-1\)$/);
    expect(await memory.exportUser('u')).toMatchObject({ memories: [], todos: [], messages: [] });

    // A message that held one imports as said (PostgreSQL keeps U+FFFD for NUL, pg-db.ts).
    await memory.importUser(file({ memories: [memoryRow('m-1', good)], messages: [message] }));
    expect((await memory.exportUser('u')).messages.map((m) => m.content)).toEqual([testDatabaseUrl() ? `said \ufffd ${good}` : `said \u0000 ${good}`]);
  });
});
