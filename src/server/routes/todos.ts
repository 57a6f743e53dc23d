import { z } from '@hono/zod-openapi';
import { EngramError, NotFoundError } from '../../errors.js';
import type { MemoryEngine } from '../../memory-engine.js';
import type { Todo } from '../../domain/todo.js';
import type { TodoEdit } from '../../pipelines/edit-todo.js';
import { createRoute, created, jsonBody, newRouter, ok, userOf } from '../route-kit.js';
import { ContentText, RepeatDto, TodoDto, TodoParams, UserParams } from '../schemas.js';
import { present } from '../wire.js';

const tags = ['todos'];
const base = '/v1/users/{userId}/todos';

const NewTodo = z
  .object({
    content: ContentText.pipe(z.string().trim().min(1).max(2000)),
    /** When absent, a time phrase in the content ("明天下午三点", "next Friday at 5pm") is read in the user's time zone. */
    dueAt: z.iso.datetime({ offset: true }).optional(),
    /** @default one hour before dueAt. One already past (by more than 5 minutes) for a todo still ahead is refused (400, `remindAt`). */
    remindAt: z.iso.datetime({ offset: true }).optional(),
    /** How it repeats; when absent, read from the content ("每天早上八点", "every Monday"). The zone defaults to the user's. An `until` before its first time is refused (400, `repeat.until`). */
    repeat: RepeatDto.optional(),
  })
  .strict()
  .openapi('NewTodo');

const TodoChange = z
  .object({
    /** New words for the todo and its memory; they do not move it. */
    content: ContentText.pipe(z.string().trim().min(1).max(2000)).optional(),
    /** The new time as said, in the user's time zone: "下午四点" keeps the day, "周六" the time of day; "每天晚上九点" makes a series ("4pm", "Monday", "every weekday at 10am"). */
    when: z.string().trim().min(1).max(200).optional(),
    /** The due time outright; null: none (nor reminder, nor repeat). */
    dueAt: z.iso.datetime({ offset: true }).nullable().optional(),
    /** @default as far ahead of the new due time as before; null: no reminder */
    remindAt: z.iso.datetime({ offset: true }).nullable().optional(),
    /** A new repeat; null makes it a one-off. An `until` before its first time is refused (400, `repeat.until`), as is a series' time moved past its last day. */
    repeat: RepeatDto.nullable().optional(),
    /** When the reminder comes, as said: how far ahead of its time ("提前半小时", "前一天晚上", "30 minutes before", "the day before") or a time of its own ("下周一早上", "Monday at 9am"). */
    remind: z.string().trim().min(1).max(200).optional(),
  })
  .strict()
  .openapi('TodoChange');

/** The change as the engine takes it: times as dates, null kept (it clears). */
const toEdit = (b: z.infer<typeof TodoChange>): TodoEdit => ({
  ...(b.content !== undefined ? { content: b.content } : {}),
  ...(b.when !== undefined ? { when: b.when } : {}),
  ...(b.dueAt !== undefined ? { dueAt: b.dueAt === null ? null : new Date(b.dueAt) } : {}),
  ...(b.remindAt !== undefined ? { remindAt: b.remindAt === null ? null : new Date(b.remindAt) } : {}),
  ...(b.repeat !== undefined ? { repeat: b.repeat } : {}),
  ...(b.remind !== undefined ? { remind: b.remind } : {}),
});

const list = createRoute({ method: 'get', path: base, tags, summary: 'Todos, open ones by default', request: { params: UserParams, query: z.object({ completed: z.enum(['true', 'false']).optional(), limit: z.coerce.number().int().min(1).max(500).default(100) }) }, responses: ok(z.object({ items: z.array(TodoDto) })) });
const create = createRoute({ method: 'post', path: base, tags, summary: 'Create a todo with an optional due time (and its todo memory)', request: { params: UserParams, body: jsonBody(NewTodo) }, responses: created(TodoDto) });
const complete = createRoute({ method: 'post', path: `${base}/{id}/complete`, tags, summary: 'Mark a todo done (a repeating one moves to its next time; series=true ends it)', request: { params: TodoParams, query: z.object({ series: z.enum(['true', 'false']).optional() }) }, responses: ok(TodoDto) });
const change = createRoute({ method: 'patch', path: `${base}/{id}`, tags, summary: 'Move or reword an open todo (its memory follows; a new reminder time re-arms it)', request: { params: TodoParams, body: jsonBody(TodoChange) }, responses: ok(TodoDto) });
const remove = createRoute({ method: 'delete', path: `${base}/{id}`, tags, summary: 'Delete a todo', request: { params: TodoParams }, responses: ok(z.object({ id: z.string(), deleted: z.literal(true) })) });

/** Todos with due times and reminders (seed 000 §5). */
export function todoRoutes(memory: MemoryEngine) {
  const { store } = memory.deps;
  const owned = async (userId: string, id: string): Promise<Todo> => {
    const todo = (await store.listTodos({ userId })).find((t) => t.id === id);
    if (!todo) throw new NotFoundError('Todo', id);
    return todo;
  };
  return newRouter()
    .openapi(list, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      const q = c.req.valid('query');
      const items = await memory.listTodos({ userId, completed: q.completed === undefined ? false : q.completed === 'true', limit: q.limit });
      return c.json({ items: present(c.var.auth, items) }, 200);
    })
    .openapi(create, async (c) => {
      const userId = userOf(c, c.req.valid('param').userId);
      const b = c.req.valid('json');
      // add() of a todo makes its todo row in the same transaction (and reinforces a duplicate instead).
      // The due time, reminder and repeat are read from the content when not given (add-memory.ts).
      const m = await memory.add({ userId, kind: 'todo', content: b.content, source: 'user', ...(b.dueAt ? { dueAt: new Date(b.dueAt) } : {}), ...(b.remindAt ? { remindAt: new Date(b.remindAt) } : {}), ...(b.repeat ? { repeat: b.repeat } : {}) });
      const todo = (await memory.listTodos({ userId })).find((t) => t.memoryId === m.id);
      if (!todo) throw new EngramError('CONFLICT', `The todo for memory ${m.id} is already completed or was not created`, { details: { memoryId: m.id } });
      return c.json(present(c.var.auth, todo), 201);
    })
    .openapi(complete, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      const userId = userOf(c, ext);
      await owned(userId, id);
      return c.json(present(c.var.auth, await memory.completeTodo(userId, id, { series: c.req.valid('query').series === 'true' })), 200);
    })
    .openapi(change, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      const userId = userOf(c, ext);
      await owned(userId, id);
      return c.json(present(c.var.auth, await memory.editTodo(userId, id, toEdit(c.req.valid('json')))), 200);
    })
    .openapi(remove, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      const userId = userOf(c, ext);
      await owned(userId, id);
      await memory.deleteTodo(userId, id);
      return c.json({ id, deleted: true as const }, 200);
    });
}
