import { EngramError } from '../errors.js';
import type { Notifier } from '../notify/notifier.js';
import type { NextOccurrence, TodosPort } from '../store/ports/todos.js';
import { nextOccurrence } from '../domain/recurrence.js';
import type { Todo } from '../domain/todo.js';
import type { MemoryDeps } from './deps.js';

/** What delivering reminders uses: the todos port, the clock and the logger. */
export type RemindDeps = Pick<MemoryDeps, 'clock' | 'logger'> & { store: TodosPort };

export interface DeliveryReport {
  delivered: string[];
  failed: Array<{ todoId: string; error: string }>;
}

const RETRY_BASE_MS = 60_000;

/** A reminder's delivery id: stable per todo and reminder time, so a re-send after a crash is dropped by the receiver. */
export const deliveryIdOf = (todoId: string, remindAt: Date): string => `${todoId}@${remindAt.getTime()}`;

/** How far ahead of its time a todo is reminded (0 when at the time, or when it has no reminder). */
export const leadOf = (todo: Pick<Todo, 'dueAt' | 'remindAt'>): number => (todo.dueAt ? Math.max(0, todo.dueAt.getTime() - (todo.remindAt ?? todo.dueAt).getTime()) : 0);

/**
 * A repeating todo's occurrence after the one just reminded: the first whose reminder lies ahead
 * of now (missed ones are skipped), reminded as far ahead of its time as this one was. Undefined
 * for a one-off, or a series with no occurrence left.
 */
export function followingOccurrence(todo: Todo, now: Date): NextOccurrence | undefined {
  if (!todo.repeat || !todo.dueAt) return undefined;
  const lead = leadOf(todo);
  const dueAt = nextOccurrence(todo.repeat, todo.dueAt, new Date(now.getTime() + lead));
  return dueAt ? { dueAt, remindAt: new Date(dueAt.getTime() - lead) } : undefined;
}

/**
 * Seed 000 §5: delivers every todo whose reminder time has come, once. The delivery id is stable
 * per todo and reminder time, and travels to the receiver as an idempotency key; the delivery
 * record and the `reminded` mark are written in one transaction after the notifier succeeds. A
 * crash before that transaction re-sends the same delivery id, which a receiver drops as a duplicate
 * (the webhook's X-Engram-Delivery header); a failed delivery is retried with backoff. A repeating
 * todo moves to its next occurrence in that same transaction, so its next reminder has a new id.
 */
export async function deliverReminders(deps: RemindDeps, notifier: Notifier, options: { onStep?: (step: 'notified' | 'recorded') => void | Promise<void> } = {}): Promise<DeliveryReport> {
  const now = deps.clock.now();
  const report: DeliveryReport = { delivered: [], failed: [] };
  for (const todo of await deps.store.dueReminders(now, 100)) {
    const remindAt = todo.remindAt!;
    const deliveryId = deliveryIdOf(todo.id, remindAt);
    try {
      await notifier.notify({ deliveryId, userId: todo.userId, todoId: todo.id, content: todo.content, ...(todo.dueAt ? { dueAt: todo.dueAt } : {}), remindAt, ...(todo.repeat ? { repeat: todo.repeat } : {}) });
    } catch (error) {
      const message = EngramError.isInstance(error) ? `${error.code}: ${error.message}` : String(error);
      const delay = Math.min(RETRY_BASE_MS * 2 ** Math.min(todo.deliveryAttempts, 8), 6 * 3_600_000);
      await deps.store.recordDeliveryFailure(todo.userId, todo.id, message, new Date(now.getTime() + delay));
      deps.logger.warn('reminder delivery failed; will retry', { code: 'DELIVERY_FAILED', todoId: todo.id, error: message });
      report.failed.push({ todoId: todo.id, error: message });
      continue;
    }
    await options.onStep?.('notified');
    await deps.store.recordDelivery(todo.userId, todo.id, deliveryId, now, { next: followingOccurrence(todo, now), of: remindAt });
    await options.onStep?.('recorded');
    report.delivered.push(todo.id);
  }
  return report;
}
