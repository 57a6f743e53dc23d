import type { Command } from 'commander';
import { describeRecurrence } from '../domain/recurrence.js';
import type { Todo } from '../domain/todo.js';
import { detectLanguage } from '../text/language.js';
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
  // How a todo repeats, in a column of its own when any does.
  const repeats = todos.some((t) => t.repeat);
  const rows = todos.map((t) => [t.completed ? 'x' : ' ', t.dueAt ? whenIn(t.dueAt, timeZone) : '-', ...(repeats ? [t.repeat ? describeRecurrence(t.repeat, detectLanguage(t.content)) : '-'] : []), t.content, t.id]);
  return `${table([{ header: 'done' }, { header: `due (${timeZone})` }, ...(repeats ? [{ header: 'repeats' }] : []), { header: 'todo', max: 48 }, { header: 'id' }], rows)}`;
}

/**
 * `engram todo-done <id> [--series]`: marks a todo completed; its reminder is no longer sent. A
 * repeating todo moves to its next time instead; --series ends it.
 */
export function registerTodoDone(program: Command, io: CliIo): void {
  program
    .command('todo-done')
    .description('mark a todo as done (a repeating one moves to its next time; --series ends it)')
    .argument('<id>', 'todo id (see engram todos)')
    .option('--series', 'end a repeating todo altogether')
    .action((id: string, options: { series?: boolean }, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const todo = await engine.completeTodo(userId, id, { series: options.series === true });
        const { timeZone } = await engine.getSettings(userId);
        emit(io, json, todo, () => (todo.completed || !todo.dueAt ? `Done: ${todo.content}` : `Done for now: ${todo.content} (next ${whenIn(todo.dueAt, timeZone)})`));
      }),
    );
}

interface TodoMoveOptions {
  when?: string;
  content?: string;
  repeat?: boolean;
  remind?: string;
}

/**
 * `engram todo-move <id> <when> [--content …] [--no-repeat]`: moves an open todo to a new time as
 * said ("下午四点", "周六", "每天晚上九点"; "4pm", "Monday", "every weekday at 10am"), in the user's
 * time zone; its memory follows and its reminder is set again.
 */
export function registerTodoMove(program: Command, io: CliIo): void {
  program
    .command('todo-move')
    .description('move a todo to a new time as said ("下午四点", "Monday at 10am"); its reminder follows')
    .argument('<id>', 'todo id (see engram todos)')
    .argument('[when]', 'the new time, in words')
    .option('--content <text>', 'new words for the todo')
    .option('--no-repeat', 'make a repeating todo a one-off')
    .option('--remind <when>', 'when the reminder comes, as said: how far ahead ("提前半小时", "the day before") or a time of its own ("下周一早上", "Monday at 9am")')
    .action((id: string, when: string | undefined, options: TodoMoveOptions, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const todo = await engine.editTodo(userId, id, { ...(when !== undefined ? { when } : {}), ...(options.content !== undefined ? { content: options.content } : {}), ...(options.repeat === false ? { repeat: null } : {}), ...(options.remind !== undefined ? { remind: options.remind } : {}) });
        const { timeZone } = await engine.getSettings(userId);
        const reminder = todo.remindAt && todo.dueAt && todo.remindAt.getTime() !== todo.dueAt.getTime() ? `, reminder ${whenIn(todo.remindAt, timeZone)}` : '';
        emit(io, json, todo, () => `Moved: ${todo.content}${todo.dueAt ? ` (due ${whenIn(todo.dueAt, timeZone)}${todo.repeat ? `, ${describeRecurrence(todo.repeat, detectLanguage(todo.content))}` : ''}${reminder})` : ''}`);
      }),
    );
}
