import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Memory } from '../domain/memory.js';
import type { Relation } from '../domain/profile.js';
import type { Todo } from '../domain/todo.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

const add = async (user: string, ...args: string[]): Promise<Memory> => (await h.cli(['--user', user, '--json', 'add', ...args])).json<Memory>();

describe('engram edit / settings / relations / remind / compress (issue 12.11)', () => {
  it.each([
    ['li-ming', '用户住在北京', '用户住在上海'],
    ['alice', 'The user lives in Berlin', 'The user lives in Munich'],
  ])('edit changes content, kind and importance of %s’s memory, with history', async (user, text, edited) => {
    const m = await add(user, text);
    const r = await h.cli(['--user', user, '--json', 'edit', m.id, '--content', edited, '--kind', 'identity', '--importance', '0.8', '--reason', 'moved']);
    expect(r.code).toBe(0);
    expect(r.json<Memory>()).toMatchObject({ id: m.id, content: edited, kind: 'identity', importance: 0.8 });
    expect((await h.cli(['--user', user, 'history', m.id])).stdout).toContain(text);
    const none = await h.cli(['--user', user, 'edit', m.id]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^error \[INVALID_INPUT\]/);
  });

  it('settings get / set for a user and the global defaults; bad values exit 2', async () => {
    expect((await h.cli(['--user', 'li-ming', 'settings', 'get', 'timeZone'])).stdout).toBe('UTC\n');
    const set = await h.cli(['--user', 'li-ming', 'settings', 'set', 'timeZone=Asia/Shanghai', 'silentMinutes=5']);
    expect(set.code).toBe(0);
    expect((await h.cli(['--user', 'li-ming', '--json', 'settings'])).json<Record<string, unknown>>()).toMatchObject({ timeZone: 'Asia/Shanghai', silentMinutes: 5 });
    expect((await h.cli(['--user', 'alice', 'settings', 'get', 'timeZone'])).stdout).toBe('UTC\n');
    await h.cli(['settings', '--global', 'set', 'compressAfterDays=120']);
    expect((await h.cli(['--user', 'alice', 'settings', 'get', 'compressAfterDays'])).stdout).toBe('120\n');
    for (const bad of [['set', 'timeZone=Mars/Base'], ['set', 'silentMinutes=soon'], ['set', 'nope=1'], ['get', 'nope'], ['set', 'timeZone']]) {
      const r = await h.cli(['--user', 'alice', 'settings', ...bad]);
      expect(r.code).toBe(2);
    }
  });

  it.each([
    ['li-ming', '用户喜欢猫', '用户每周末去猫咖'],
    ['alice', 'The user likes cats', 'The user visits a cat café every weekend'],
  ])('relations add / remove for %s', async (user, a, b) => {
    const x = await add(user, a);
    const y = await add(user, b);
    const linked = await h.cli(['--user', user, '--json', 'relations', 'add', y.id, x.id, '--type', 'supports', '--strength', '0.7', '--reason', 'same interest']);
    expect(linked.code).toBe(0);
    const relation = linked.json<Relation>();
    expect(relation).toMatchObject({ sourceId: y.id, targetId: x.id, type: 'supports', strength: 0.7 });
    expect((await h.cli(['--user', user, 'show', x.id])).stdout).toContain(`${y.id} supports → this`);
    // Another user cannot link to or remove this user's memories.
    expect((await h.cli(['--user', 'mallory', 'relations', 'add', y.id, x.id, '--type', 'supports'])).code).toBe(2);
    expect((await h.cli(['--user', 'mallory', 'relations', 'remove', relation.id])).code).toBe(2);
    expect((await h.cli(['--user', user, 'relations', 'add', y.id, x.id, '--type', 'friends'])).code).toBe(2);
    expect((await h.cli(['--user', user, 'relations', 'remove', relation.id])).stdout).toBe(`Removed relation ${relation.id}\n`);
    expect((await h.cli(['--user', user, 'show', x.id])).stdout).not.toContain('supports');
  });

  it.each([
    ['li-ming', '交季度报告'],
    ['alice', 'Send the quarterly report'],
  ])('add --kind todo --due makes a todo; remind delivers it once (%s)', async (user, text) => {
    // Overdue: reminded at once.
    const due = new Date(Date.now() - 60_000).toISOString();
    await add(user, text, '--kind', 'todo', '--due', due);
    const todos = (await h.cli(['--user', user, '--json', 'todos'])).json<{ todos: Todo[] }>().todos;
    expect(todos).toEqual([expect.objectContaining({ content: text, dueAt: new Date(due).toISOString() })]);
    const first = await h.cli(['remind']);
    expect(first.stdout).toContain(`${user}: ${text}`);
    expect(first.stdout).toContain('Delivered 1.');
    expect((await h.cli(['remind'])).stdout).toBe('Delivered 0.\n');
    // Due in half an hour: reminded then (an hour before would be before it was asked for), not now.
    await add(user, `${text} 2`, '--kind', 'todo', '--due', new Date(Date.now() + 30 * 60_000).toISOString());
    expect((await h.cli(['remind'])).stdout).toBe('Delivered 0.\n');
  });

  it.each([
    ['li-ming', '交房租', '12月1日', '2027年1月1日'],
    ['alice', 'Pay rent', 'December 1', 'January 1 2027'],
  ])('add --kind todo with the same words and another --due is a second todo (%s)', async (user, text, first, second) => {
    const a = await add(user, text, '--kind', 'todo', '--due', first);
    const b = await add(user, text, '--kind', 'todo', '--due', second);
    expect(b.id).not.toBe(a.id);
    const todos = (await h.cli(['--user', user, '--json', 'todos'])).json<{ todos: Todo[] }>().todos;
    expect(todos.map((t) => t.memoryId)).toEqual([a.id, b.id]);
    expect(new Set(todos.map((t) => String(t.dueAt))).size).toBe(2);
  });

  it('compress says it needs a model', async () => {
    const r = await h.cli(['--user', 'alice', 'compress']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/CONFIG_INVALID/);
  });
});
