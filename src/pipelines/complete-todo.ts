import { previousOccurrence } from '../domain/recurrence.js';
import type { Todo } from '../domain/todo.js';
import type { ChangeContext } from '../domain/history.js';
import { NotFoundError } from '../errors.js';
import type { Store } from '../store/store.js';
import { deliveryIdOf, followingOccurrence, leadOf } from './deliver-reminders.js';
import type { MemoryDeps } from './deps.js';

export interface CompleteTodoOptions {
  /** For a repeating todo: end the whole series, not only the occurrence at hand. @default false */
  series?: boolean;
  /**
   * For a repeating todo: how long before its time the coming occurrence may be done. A click on
   * the page means the occurrence at hand, however early; "I took my pills" heard in conversation at
   * noon is no dose of 21:00 (extraction passes `EARLY_DONE_MS`). @default no limit
   */
  earliestMs?: number;
}

/** How long before its time an occurrence of a series may be done by what the user said in conversation. */
export const EARLY_DONE_MS = 3 * 3_600_000;

/**
 * Completing a repeating todo marks the occurrence nearest to now done. When that is the one
 * before the todo's due time and it was part of the series (its reminder was delivered, or it was
 * done early, or it passed since the todo was made), the todo has moved on already: nothing
 * changes ("吃过药了" just after the 08:00 reminder; the same completion twice). Otherwise the
 * coming occurrence is done, if it is due within `earliestMs` (or overdue); further ahead
 * nothing changes: its reminder is settled as delivered (so it is never sent) and the
 * todo moves on as a delivered reminder moves it (followingOccurrence), in one transaction. Undefined: the
 * series has no occurrence left, so the todo itself is done.
 */
async function completeOccurrence(tx: Store, todo: Todo & { repeat: NonNullable<Todo['repeat']>; dueAt: Date }, now: Date, earliestMs = Infinity): Promise<Todo | undefined> {
  const lead = leadOf(todo);
  const previous = previousOccurrence(todo.repeat, todo.dueAt);
  const settled = new Set((await tx.deliveriesOf(todo.userId, todo.id)).map((d) => d.id));
  const happened = settled.has(deliveryIdOf(todo.id, new Date(previous.getTime() - lead))) || (previous.getTime() <= now.getTime() && previous.getTime() >= todo.createdAt.getTime());
  if (happened && Math.abs(now.getTime() - previous.getTime()) < Math.abs(todo.dueAt.getTime() - now.getTime())) return todo;
  // "I took my pills" at noon is no dose of 21:00 taken early: an occurrence further ahead than
  // this is not settled by it (a reminder too many is a nuisance, a dose never reminded is harm).
  if (todo.dueAt.getTime() - now.getTime() > earliestMs) return todo;
  const next = followingOccurrence(todo, now);
  if (!next) return undefined;
  await tx.recordDelivery(todo.userId, todo.id, deliveryIdOf(todo.id, todo.remindAt ?? todo.dueAt), now, { next });
  return (await tx.listTodos({ userId: todo.userId })).find((t) => t.id === todo.id);
}

/**
 * Marks a todo done. Its memory (kind 'todo') is archived in the same transaction, so a done todo
 * leaves the context at once, in the due section and as a recalled memory alike; it stays in
 * lists, exports and history, and can be restored. A repeating todo stays open and moves to its
 * next occurrence (see completeOccurrence) unless `series` ends it. Completing twice is completing once.
 */
export async function completeTodo(deps: MemoryDeps, userId: string, id: string, options: CompleteTodoOptions = {}, change: Partial<ChangeContext> = {}): Promise<Todo> {
  const now = deps.clock.now();
  return deps.store.transaction((tx) => completeWithin(tx, userId, id, now, options, change));
}

/**
 * completeTodo inside the caller's transaction (an extraction that heard "房租交了"); `change`
 * says who completed it, for the memory's history. @default the user
 */
export async function completeWithin(tx: Store, userId: string, id: string, now: Date, options: CompleteTodoOptions = {}, change: Partial<ChangeContext> = {}): Promise<Todo> {
  const current = (await tx.listTodos({ userId })).find((t) => t.id === id);
  if (!current) throw new NotFoundError('Todo', id);
  if (current.completed) return current;
  const { repeat, dueAt } = current;
  const moved = !options.series && repeat && dueAt ? await completeOccurrence(tx, { ...current, repeat, dueAt }, now, options.earliestMs) : undefined;
  if (moved) return moved;
  const todo = await tx.updateTodo(userId, id, { completed: true, completedAt: now });
  const memory = todo.memoryId ? await tx.getMemory(userId, todo.memoryId) : null;
  if (memory?.status === 'active') {
    await tx.updateMemory(userId, memory.id, { status: 'archived', updatedAt: now }, undefined, { actor: 'user', reason: options.series ? 'repeating todo ended' : 'todo completed', ...change, action: 'archive', at: now });
  }
  return todo;
}
