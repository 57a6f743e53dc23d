import { z } from '@hono/zod-openapi';
import { EngramError, NotFoundError } from '../../errors.js';
import { defaultRemindAt, parseDueTime } from '../../extraction/due-time.js';
import type { MemoryEngine } from '../../memory-engine.js';
import type { Todo } from '../../domain/todo.js';
import { createRoute, created, jsonBody, newRouter, ok, userOf } from '../route-kit.js';
import { Text, TodoDto, TodoParams, UserParams } from '../schemas.js';
import { present } from '../wire.js';

const tags = ['todos'];
const base = '/v1/users/{userId}/todos';

const NewTodo = z
  .object({
    content: Text.pipe(z.string().trim().min(1).max(2000)),
    /** When absent, a time phrase in the content ("明天下午三点", "next Friday at 5pm") is read in the user's time zone. */
    dueAt: z.iso.datetime({ offset: true }).optional(),
    /** @default one hour before dueAt */
    remindAt: z.iso.datetime({ offset: true }).optional(),
  })
  .strict()
  .openapi('NewTodo');

const list = createRoute({ method: 'get', path: base, tags, summary: 'Todos, open ones by default', request: { params: UserParams, query: z.object({ completed: z.enum(['true', 'false']).optional(), limit: z.coerce.number().int().min(1).max(500).default(100) }) }, responses: ok(z.object({ items: z.array(TodoDto) })) });
const create = createRoute({ method: 'post', path: base, tags, summary: 'Create a todo with an optional due time (and its todo memory)', request: { params: UserParams, body: jsonBody(NewTodo) }, responses: created(TodoDto) });
const complete = createRoute({ method: 'post', path: `${base}/{id}/complete`, tags, summary: 'Mark a todo done', request: { params: TodoParams }, responses: ok(TodoDto) });
const remove = createRoute({ method: 'delete', path: `${base}/{id}`, tags, summary: 'Delete a todo', request: { params: TodoParams }, responses: ok(z.object({ id: z.string(), deleted: z.literal(true) })) });

/** Todos with due times and reminders (seed 000 §5). */
export function todoRoutes(memory: MemoryEngine) {
  const { store, clock } = memory.deps;
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
      const now = clock.now();
      const { timeZone } = await memory.getSettings(userId);
      const dueAt = b.dueAt ? new Date(b.dueAt) : parseDueTime({ text: b.content, reference: now, timeZone });
      const remindAt = b.remindAt ? new Date(b.remindAt) : dueAt ? defaultRemindAt(dueAt, now) : undefined;
      if (dueAt && remindAt && remindAt.getTime() > dueAt.getTime()) throw new EngramError('INVALID_INPUT', 'remindAt must not be after dueAt', { details: { field: 'remindAt' } });
      // add() of a todo makes its todo row in the same transaction (and reinforces a duplicate instead).
      const m = await memory.add({ userId, kind: 'todo', content: b.content, source: 'user', ...(dueAt ? { dueAt } : {}), ...(remindAt ? { remindAt } : {}) });
      const todo = (await memory.listTodos({ userId })).find((t) => t.memoryId === m.id);
      if (!todo) throw new EngramError('CONFLICT', `The todo for memory ${m.id} is already completed or was not created`, { details: { memoryId: m.id } });
      return c.json(present(c.var.auth, todo), 201);
    })
    .openapi(complete, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      const userId = userOf(c, ext);
      await owned(userId, id);
      return c.json(present(c.var.auth, await memory.completeTodo(userId, id)), 200);
    })
    .openapi(remove, async (c) => {
      const { userId: ext, id } = c.req.valid('param');
      const userId = userOf(c, ext);
      await owned(userId, id);
      await memory.deleteTodo(userId, id);
      return c.json({ id, deleted: true as const }, 200);
    });
}
