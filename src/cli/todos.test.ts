import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Todo } from '../domain/todo.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

describe('engram todos / todo-done', () => {
  it('lists a Chinese todo with its due time, completes it, and hides it unless --all', async () => {
    await h.remember('li-ming', '提醒我明天下午三点开会');
    const list = await h.cli(['--user', 'li-ming', 'todos']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^done\s+due \(UTC\)\s+todo\s+id\n\s+\d{4}-\d\d-\d\d 15:00\s+开会\s+\S+\n$/);
    const { todos } = (await h.cli(['--user', 'li-ming', '--json', 'todos'])).json<{ todos: Todo[] }>();
    expect(todos).toEqual([expect.objectContaining({ content: '开会', completed: false, dueAt: expect.stringMatching(/T15:00:00\.000Z$/) })]);

    const done = await h.cli(['--user', 'li-ming', 'todo-done', todos[0]!.id]);
    expect(done.stdout).toBe('Done: 开会\n');
    expect((await h.cli(['--user', 'li-ming', 'todos'])).stdout).toBe('No open todos.\n');
    expect((await h.cli(['--user', 'li-ming', 'todos', '--all'])).stdout).toMatch(/^\s*x\s+\S+ 15:00\s+开会/m);
  });

  it('lists an English todo and refuses an unknown id with exit code 2', async () => {
    await h.remember('alice', 'Remind me to call mom tomorrow at 5pm');
    const { todos } = (await h.cli(['--user', 'alice', '--json', 'todos'])).json<{ todos: Todo[] }>();
    expect(todos.map((t) => t.content)).toEqual(['call mom']);
    expect((await h.cli(['--user', 'li-ming', 'todos'])).stdout).toBe('No open todos.\n');
    const missing = await h.cli(['--user', 'li-ming', 'todo-done', todos[0]!.id]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error \[NOT_FOUND\]/);
  });
});
