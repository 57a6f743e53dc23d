import type { Command } from 'commander';
import type { Todo } from '../domain/todo.js';
import { table, whenIn } from './format.js';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';

interface TodosOptions {
  all?: boolean;
}

/** `engram todos [--all]`: open todos (all with --all), due times in the user's time zone. */
export function registerTodos(program: Command, io: CliIo): void {
  program
    .command('todos')
    .description('list open todos, earliest due first (--all: completed ones too)')
    .option('-a, --all', 'include completed todos')
    .action((options: TodosOptions, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const todos = await engine.listTodos({ userId, ...(options.all ? {} : { completed: false }) });
        const { timeZone } = await engine.getSettings(userId);
        emit(io, json, { timeZone, todos }, () => (todos.length === 0 ? (options.all ? 'No todos.' : 'No open todos.') : renderTodos(todos, timeZone)));
      }),
    );
}

export function renderTodos(todos: readonly Todo[], timeZone: string): string {
  const rows = todos.map((t) => [t.completed ? 'x' : ' ', t.dueAt ? whenIn(t.dueAt, timeZone) : '-', t.content, t.id]);
  return `${table([{ header: 'done' }, { header: `due (${timeZone})` }, { header: 'todo', max: 48 }, { header: 'id' }], rows)}`;
}

/** `engram todo-done <id>`: marks a todo completed; its reminder is no longer sent. */
export function registerTodoDone(program: Command, io: CliIo): void {
  program
    .command('todo-done')
    .description('mark a todo as done')
    .argument('<id>', 'todo id (see engram todos)')
    .action((id: string, _options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const todo = await engine.completeTodo(userId, id);
        emit(io, json, todo, () => `Done: ${todo.content}`);
      }),
    );
}
