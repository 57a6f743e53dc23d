import { Todo } from '../../domain/todo.js';
import { NotFoundError } from '../../errors.js';
import type { Store } from '../store.js';
import { changedTodo, NOT_WITHDRAWN, repeatColumn, rowToTodo } from '../sqlite/todo-tables.js';
import type { PgContext } from './pg-db.js';


/** How long a reminder claimed by one process stays out of the others' dueReminders. */
export const REMINDER_CLAIM_MS = 5 * 60_000;

async function getTodo(ctx: PgContext, userId: string, id: string, lock = false): Promise<Todo> {
  const [row] = await ctx.rows(`SELECT * FROM todos WHERE user_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [userId, id]);
  if (!row) throw new NotFoundError('Todo', id);
  return rowToTodo(row);
}

/** Todos and their reminder deliveries (a delivery id is recorded once: exactly-once across processes). */
export function todoRole(ctx: PgContext): Pick<Store, 'insertTodo' | 'listTodos' | 'updateTodo' | 'deleteTodo' | 'dueReminders' | 'recordDelivery' | 'recordDeliveryFailure' | 'deliveriesOf'> {
  return {
    insertTodo: async (t) => {
      await ctx.run(
        `INSERT INTO todos (id, user_id, memory_id, content, due_at, remind_at, completed, completed_at, reminded, source_session_id, created_at, repeat)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [t.id, t.userId, t.memoryId ?? null, t.content, t.dueAt?.getTime() ?? null, t.remindAt?.getTime() ?? null, t.completed ? 1 : 0, t.completedAt?.getTime() ?? null, t.reminded ? 1 : 0, t.sourceSessionId ?? null, t.createdAt.getTime(), repeatColumn(t)],
      );
    },

    listTodos: async (q) => {
      const args: unknown[] = [q.userId];
      const clauses = ['user_id = $1'];
      if (q.live) clauses.push(NOT_WITHDRAWN);
      if (q.completed !== undefined) (args.push(q.completed ? 1 : 0), clauses.push(`completed = $${args.length}`));
      if (q.dueBefore) (args.push(q.dueBefore.getTime()), clauses.push(`due_at IS NOT NULL AND due_at <= $${args.length}`));
      const rows = await ctx.rows(`SELECT * FROM todos WHERE ${clauses.join(' AND ')} ORDER BY due_at IS NULL, due_at, created_at LIMIT $${args.length + 1}`, [...args, q.limit ?? null]);
      return rows.map(rowToTodo);
    },

    updateTodo: (userId, id, changes) =>
      ctx.atomic(async (tx) => {
        const { todo: merged, rearmed } = changedTodo(await getTodo(tx, userId, id, true), changes);
        await tx.run(
          `UPDATE todos SET content = $1, due_at = $2, remind_at = $3, completed = $4, completed_at = $5, reminded = $6, repeat = $7, delivery_attempts = $8, last_delivery_error = $9,
             next_delivery_at = CASE WHEN $10 THEN NULL ELSE next_delivery_at END WHERE user_id = $11 AND id = $12`,
          [merged.content, merged.dueAt?.getTime() ?? null, merged.remindAt?.getTime() ?? null, merged.completed ? 1 : 0, merged.completedAt?.getTime() ?? null, merged.reminded ? 1 : 0, repeatColumn(merged), merged.deliveryAttempts, merged.lastDeliveryError ?? null, rearmed, userId, id],
        );
        return merged;
      }),

    deleteTodo: async (userId, id) => {
      if ((await ctx.run('DELETE FROM todos WHERE user_id = $1 AND id = $2', [userId, id])) === 0) throw new NotFoundError('Todo', id);
    },

    /**
     * Claims the due reminders it returns: several processes running the scheduler skip each
     * other's rows (FOR UPDATE SKIP LOCKED) and a claimed todo is not due again for
     * REMINDER_CLAIM_MS, by when recordDelivery (or recordDeliveryFailure, with its backoff) has
     * settled it. A process dying mid-delivery leaves the claim to expire, and another one re-sends
     * the same delivery id (the receiver drops the duplicate), as after a crash on SQLite.
     */
    dueReminders: async (now, limit) => {
      const rows = await ctx.rows(
        `UPDATE todos SET next_delivery_at = $2 WHERE id IN (
           SELECT id FROM todos WHERE reminded = 0 AND completed = 0 AND remind_at IS NOT NULL AND remind_at <= $1
             AND (next_delivery_at IS NULL OR next_delivery_at <= $1) AND ${NOT_WITHDRAWN} ORDER BY remind_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        [now.getTime(), now.getTime() + REMINDER_CLAIM_MS, limit],
      );
      return rows.map(rowToTodo).sort((a, b) => a.remindAt!.getTime() - b.remindAt!.getTime() || (a.id < b.id ? -1 : 1));
    },

    recordDelivery: (userId, todoId, deliveryId, at, settle = {}) =>
      ctx.atomic(async (tx) => {
        const inserted = await tx.run('INSERT INTO reminder_deliveries (id, user_id, todo_id, delivered_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING', [deliveryId, userId, todoId, at.getTime()]);
        const { next } = settle;
        // Settled only while still reminded at the time delivered (a todo moved meanwhile keeps its new reminder).
        const of = settle.of?.getTime() ?? null;
        if (next) {
          await tx.run('UPDATE todos SET reminded = 0, due_at = $1, remind_at = $2, delivery_attempts = 0, last_delivery_error = NULL, next_delivery_at = NULL WHERE user_id = $3 AND id = $4 AND ($5::bigint IS NULL OR remind_at = $5)', [
            next.dueAt.getTime(), next.remindAt.getTime(), userId, todoId, of,
          ]);
        } else await tx.run('UPDATE todos SET reminded = 1, last_delivery_error = NULL, next_delivery_at = NULL WHERE user_id = $1 AND id = $2 AND ($3::bigint IS NULL OR remind_at = $3)', [userId, todoId, of]);
        return inserted === 1;
      }),

    deliveriesOf: async (userId, todoId) => {
      const rows = await ctx.rows<{ id: string; delivered_at: string | number }>('SELECT id, delivered_at FROM reminder_deliveries WHERE user_id = $1 AND todo_id = $2 ORDER BY delivered_at, id', [userId, todoId]);
      return rows.map((r) => ({ id: r.id, at: new Date(Number(r.delivered_at)) }));
    },
    recordDeliveryFailure: async (userId, todoId, error, nextAt) => {
      await ctx.run('UPDATE todos SET delivery_attempts = delivery_attempts + 1, last_delivery_error = $1, next_delivery_at = $2 WHERE user_id = $3 AND id = $4', [error, nextAt.getTime(), userId, todoId]);
    },
  };
}
