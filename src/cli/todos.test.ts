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
  it.each([
    ['li-ming', '每天早上八点提醒我吃药', '每天'],
    ['alice', 'Remind me every Monday at 9am to send the timesheet', 'every Mon'],
  ])('a repeating todo (%s): listed with how it repeats; done moves it on, --series ends it', async (user, text, repeats) => {
    await h.remember(user, text);
    const list = (await h.cli(['--user', user, 'todos'])).stdout;
    expect(list).toMatch(/^done\s+due \(UTC\)\s+repeats\s+todo\s+id\n/);
    expect(list).toContain(repeats);
    const [todo] = (await h.cli(['--user', user, '--json', 'todos'])).json<{ todos: Todo[] }>().todos;
    const once = await h.cli(['--user', user, 'todo-done', todo!.id]);
    expect(once.stdout).toMatch(/^Done for now: .+ \(next \d{4}-\d\d-\d\d \d\d:\d\d/);
    // The occurrence nearest to now is done: the coming one (the todo moves on) or, just after a
    // reminder, the one before (nothing moves). Either way it stays open, and again changes nothing.
    const [moved] = (await h.cli(['--user', user, '--json', 'todos'])).json<{ todos: Todo[] }>().todos;
    expect(moved).toMatchObject({ id: todo!.id, completed: false });
    expect(new Date(moved!.dueAt!).getTime()).toBeGreaterThanOrEqual(new Date(todo!.dueAt!).getTime());
    await h.cli(['--user', user, 'todo-done', todo!.id]);
    expect((await h.cli(['--user', user, '--json', 'todos'])).json<{ todos: Todo[] }>().todos[0]!.dueAt).toBe(moved!.dueAt);
    expect((await h.cli(['--user', user, 'todo-done', todo!.id, '--series'])).stdout).toMatch(/^Done: /);
    expect((await h.cli(['--user', user, 'todos'])).stdout).toBe('No open todos.\n');
  });

  it.each([
    ['li-ming', '提醒我明天下午三点开会', '下午四点', / 16:00 /, /^Moved: 开会 \(due \d{4}-\d\d-\d\d 16:00, reminder \d{4}-\d\d-\d\d 15:00\)\n$/],
    ['alice', 'Remind me to call mom tomorrow at 5pm', '6pm', / 18:00 /, /^Moved: call mom \(due \d{4}-\d\d-\d\d 18:00, reminder \d{4}-\d\d-\d\d 17:00\)\n$/],
  ])('todo-move (%s): moves the todo to the time as said; a time that is none exits 2, nothing moved', async (user, text, when, listed, said) => {
    await h.remember(user, text);
    const [todo] = (await h.cli(['--user', user, '--json', 'todos'])).json<{ todos: Todo[] }>().todos;
    const moved = await h.cli(['--user', user, 'todo-move', todo!.id, when]);
    expect(moved.stdout).toMatch(said);
    expect((await h.cli(['--user', user, 'todos'])).stdout).toMatch(listed);
    const bad = await h.cli(['--user', user, 'todo-move', todo!.id, 'the blue room']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error \[INVALID_INPUT\]: No time or repeat found/);
    expect((await h.cli(['--user', user, 'todos'])).stdout).toMatch(listed);
  });

  it.each([
    ['li-ming', '提醒我明天下午三点开会', '提前半小时', /^Moved: 开会 \(due \d{4}-\d\d-\d\d 15:00, reminder \d{4}-\d\d-\d\d 14:30\)\n$/],
    // The day after tomorrow: "the night before" is tomorrow evening whenever the test runs (the CLI reads the real clock;
    // "tomorrow" after 20:00 UTC put the night before in the past, and a reminder in the past is none).
    ['alice', 'Remind me to call mom the day after tomorrow at 5pm', 'the night before', /^Moved: call mom \(due (\d{4}-\d\d-\d\d) 17:00, reminder \d{4}-\d\d-\d\d 20:00\)\n$/],
  ])('todo-move --remind (%s): the reminder as far ahead as said; a lead that is none exits 2', async (user, text, lead, said) => {
    await h.remember(user, text);
    const [todo] = (await h.cli(['--user', user, '--json', 'todos'])).json<{ todos: Todo[] }>().todos;
    expect((await h.cli(['--user', user, 'todo-move', todo!.id, '--remind', lead])).stdout).toMatch(said);
    const bad = await h.cli(['--user', user, 'todo-move', todo!.id, '--remind', 'whenever']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error \[INVALID_INPUT\]: No reminder time found/);
  });
});
