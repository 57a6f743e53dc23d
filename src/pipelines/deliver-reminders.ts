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
  /** Repeating todos whose missed occurrences were stale (see staleOccurrence): not sent, the series moved on. */
  skipped: Array<{ todoId: string; dueAt: Date }>;
}

/**
 * How late an occurrence of a series may still be sent: a pill reminder an hour or two late is
 * still worth having, one from last week sent as current is wrong (the next one is already near).
 */
export const MISSED_OCCURRENCE_GRACE_MS = 3 * 3_600_000;

/** A series' occurrence due at `dueAt` and reminded `lead` before it, as of now. */
function staleAt(todo: Todo & { repeat: NonNullable<Todo['repeat']> }, dueAt: Date, lead: number, now: Date): boolean {
  if (now.getTime() - dueAt.getTime() > MISSED_OCCURRENCE_GRACE_MS) return true;
  const next = nextOccurrence(todo.repeat, dueAt, dueAt);
  return next !== undefined && next.getTime() - lead <= now.getTime();
}

/**
 * What to do with a due reminder of a repeating todo whose occurrence is stale (more than
 * MISSED_OCCURRENCE_GRACE_MS past due, or the next occurrence's reminder time has passed, as after
 * downtime): `send` the latest occurrence whose reminder has come, when that one is not stale itself
 * (the scheduler back at 08:30 still sends today's 08:00), or nothing (`send` undefined). Undefined
 * when the todo's own occurrence is current (or the todo is a one-off: late is better than never).
 */
export function catchUp(todo: Todo, now: Date): { send?: NextOccurrence } | undefined {
  if (!todo.repeat || !todo.dueAt) return undefined;
  const series = { ...todo, repeat: todo.repeat };
  const lead = leadOf(todo);
  if (!staleAt(series, todo.dueAt, lead, now)) return undefined;
  let latest = todo.dueAt;
  for (let next = nextOccurrence(todo.repeat, latest, latest); next && next.getTime() - lead <= now.getTime(); next = nextOccurrence(todo.repeat, latest, latest)) latest = next;
  return latest.getTime() !== todo.dueAt.getTime() && !staleAt(series, latest, lead, now) ? { send: { dueAt: latest, remindAt: new Date(latest.getTime() - lead) } } : {};
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
  const report: DeliveryReport = { delivered: [], failed: [], skipped: [] };
  for (const todo of await deps.store.dueReminders(now, 100)) {
    const late = catchUp(todo, now);
    if (late && !late.send) {
      // Settled as a delivery is (the same id, so a retry or a completion sees it done), nothing sent.
      await deps.store.recordDelivery(todo.userId, todo.id, deliveryIdOf(todo.id, todo.remindAt!), now, { next: followingOccurrence(todo, now), of: todo.remindAt! });
      deps.logger.info('stale occurrence of a repeating todo skipped', { code: 'REMINDER_SKIPPED', todoId: todo.id, dueAt: todo.dueAt!.toISOString() });
      report.skipped.push({ todoId: todo.id, dueAt: todo.dueAt! });
      continue;
    }
    if (late?.send) deps.logger.info('stale occurrences of a repeating todo skipped; the latest sent', { code: 'REMINDER_SKIPPED', todoId: todo.id, dueAt: todo.dueAt!.toISOString(), sent: late.send.dueAt.toISOString() });
    const remindAt = late?.send?.remindAt ?? todo.remindAt!;
    const dueAt = late?.send?.dueAt ?? todo.dueAt;
    const deliveryId = deliveryIdOf(todo.id, remindAt);
    try {
      await notifier.notify({ deliveryId, userId: todo.userId, todoId: todo.id, content: todo.content, ...(dueAt ? { dueAt } : {}), remindAt, ...(todo.repeat ? { repeat: todo.repeat } : {}) });
    } catch (error) {
      const message = EngramError.isInstance(error) ? `${error.code}: ${error.message}` : String(error);
      const delay = Math.min(RETRY_BASE_MS * 2 ** Math.min(todo.deliveryAttempts, 8), 6 * 3_600_000);
      await deps.store.recordDeliveryFailure(todo.userId, todo.id, message, new Date(now.getTime() + delay));
      deps.logger.warn('reminder delivery failed; will retry', { code: 'DELIVERY_FAILED', todoId: todo.id, error: message });
      report.failed.push({ todoId: todo.id, error: message });
      continue;
    }
    await options.onStep?.('notified');
    await deps.store.recordDelivery(todo.userId, todo.id, deliveryId, now, { next: followingOccurrence(todo, now), of: todo.remindAt! });
    await options.onStep?.('recorded');
    report.delivered.push(todo.id);
  }
  return report;
}
