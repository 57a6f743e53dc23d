import type Database from 'better-sqlite3';
import { limitClause, Statements } from './statements.js';
import { Todo } from '../../domain/todo.js';
import type { TodoChanges, TodoQuery } from '../ports/todos.js';
import { NotFoundError } from '../../errors.js';

const d = (v: unknown): Date | undefined => (v === null || v === undefined ? undefined : new Date(Number(v)));

/** A todo's repeat as its column holds it (JSON; NULL for a one-off). */
export const repeatColumn = (t: Pick<Todo, 'repeat'>): string | null => (t.repeat ? JSON.stringify(t.repeat) : null);

/** A todos row (either adapter: times as epoch milliseconds, flags as 0/1, the repeat as JSON) as a Todo. */
export function rowToTodo(r: Record<string, unknown>): Todo {
  return Todo.parse({
    id: r.id,
    userId: r.user_id,
    memoryId: r.memory_id ?? undefined,
    content: r.content,
    dueAt: d(r.due_at),
    remindAt: d(r.remind_at),
    completed: r.completed === 1,
    completedAt: d(r.completed_at),
    reminded: r.reminded === 1,
    repeat: typeof r.repeat === 'string' ? JSON.parse(r.repeat) : undefined,
    sourceSessionId: r.source_session_id ?? undefined,
    createdAt: new Date(Number(r.created_at)),
    deliveryAttempts: r.delivery_attempts ?? 0,
    lastDeliveryError: r.last_delivery_error ?? undefined,
  });
}

/**
 * A todo after an update (either adapter): a new reminder time re-arms it (not reminded unless the
 * update says so, failed attempts and their backoff cleared; `rearmed` says to clear the backoff).
 */
export function changedTodo(before: Todo, changes: TodoChanges): { todo: Todo; rearmed: boolean } {
  const rearmed = 'remindAt' in changes && changes.remindAt?.getTime() !== before.remindAt?.getTime();
  const todo = { ...before, ...changes };
  if (rearmed) {
    todo.reminded = changes.reminded ?? false;
    todo.deliveryAttempts = 0;
    delete todo.lastDeliveryError;
  }
  return { todo, rearmed };
}

/**
 * A todo whose memory is deleted, or made another kind (PATCH {"kind": "preference"}), is withdrawn
 * (not listed live, never reminded) until the memory is restored or made a todo again; either
 * adapter's todos table is aliased as `todos`.
 */
export const NOT_WITHDRAWN = "(memory_id IS NULL OR NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = todos.memory_id AND m.user_id = todos.user_id AND (m.status = 'deleted' OR m.kind <> 'todo')))";

/**
 * A delivery settles its todo only while the todo is still reminded at the time delivered (two
 * parameters: that time, twice; NULL settles it whatever its time): a todo moved while its old
 * reminder was on the way keeps its new one.
 */
export const STILL_DUE = '(? IS NULL OR remind_at = ?)';

export class TodoTables {
  private readonly sql: Statements;

  constructor(db: Database.Database) {
    this.sql = new Statements(db);
  }

  insert(t: Todo): void {
    this.sql.get(
        `INSERT INTO todos (id, user_id, memory_id, content, due_at, remind_at, completed, completed_at, reminded, source_session_id, created_at, repeat)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(t.id, t.userId, t.memoryId ?? null, t.content, t.dueAt?.getTime() ?? null, t.remindAt?.getTime() ?? null, t.completed ? 1 : 0, t.completedAt?.getTime() ?? null, t.reminded ? 1 : 0, t.sourceSessionId ?? null, t.createdAt.getTime(), repeatColumn(t));
  }

  list(q: TodoQuery): Todo[] {
    const clauses = ['user_id = ?'];
    const args: unknown[] = [q.userId];
    if (q.live) clauses.push(NOT_WITHDRAWN);
    if (q.completed !== undefined) (clauses.push('completed = ?'), args.push(q.completed ? 1 : 0));
    if (q.dueBefore) (clauses.push('due_at IS NOT NULL AND due_at <= ?'), args.push(q.dueBefore.getTime()));
    const rows = this.sql.get(`SELECT * FROM todos WHERE ${clauses.join(' AND ')} ORDER BY due_at IS NULL, due_at, created_at ${limitClause(q.limit)}`)
      .all(...args) as Array<Record<string, unknown>>;
    return rows.map(rowToTodo);
  }

  get(userId: string, id: string): Todo {
    const row = this.sql.get('SELECT * FROM todos WHERE user_id = ? AND id = ?').get(userId, id) as Record<string, unknown> | undefined;
    if (!row) throw new NotFoundError('Todo', id);
    return rowToTodo(row);
  }

  update(userId: string, id: string, changes: TodoChanges): Todo {
    const { todo: merged, rearmed } = changedTodo(this.get(userId, id), changes);
    this.sql.get('UPDATE todos SET content = ?, due_at = ?, remind_at = ?, completed = ?, completed_at = ?, reminded = ?, repeat = ?, delivery_attempts = ?, last_delivery_error = ?, next_delivery_at = CASE WHEN ? THEN NULL ELSE next_delivery_at END WHERE user_id = ? AND id = ?')
      .run(merged.content, merged.dueAt?.getTime() ?? null, merged.remindAt?.getTime() ?? null, merged.completed ? 1 : 0, merged.completedAt?.getTime() ?? null, merged.reminded ? 1 : 0, repeatColumn(merged), merged.deliveryAttempts, merged.lastDeliveryError ?? null, rearmed ? 1 : 0, userId, id);
    return merged;
  }

  delete(userId: string, id: string): void {
    this.get(userId, id);
    this.sql.get('DELETE FROM todos WHERE user_id = ? AND id = ?').run(userId, id);
  }
}
