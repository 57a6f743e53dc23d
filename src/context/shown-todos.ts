import { nextOccurrence } from '../domain/recurrence.js';
import type { Todo } from '../domain/todo.js';

/**
 * How long a one-off todo past its due time stays in the block (marked overdue): a week after
 * "开会" was due the assistant may still ask about it; a year on it is noise in every turn.
 */
export const OVERDUE_SHOWN_DAYS = 7;

const DAY = 86_400_000;

/** A one-off todo whose due time has passed (a series is shown at its coming time, never overdue). */
export const isOverdue = (t: Pick<Todo, 'dueAt' | 'repeat'>, now: Date): boolean => !t.repeat && t.dueAt !== undefined && t.dueAt.getTime() < now.getTime();

/**
 * The todos the block lists, as it shows them: a one-off more than OVERDUE_SHOWN_DAYS past due is
 * left out; a series whose stored occurrence has passed (its reminders not delivered, or not yet)
 * is shown at its next occurrence still ahead, left out when that lies past `horizon` or the series
 * has ended. Only the copies shown are moved: the stored todo is the reminder scheduler's.
 */
export function shownTodos(todos: Todo[], now: Date, horizon: Date): Todo[] {
  const shown: Todo[] = [];
  for (const t of todos) {
    if (!t.dueAt || t.dueAt.getTime() > now.getTime()) shown.push(t);
    else if (!t.repeat) {
      if (now.getTime() - t.dueAt.getTime() <= OVERDUE_SHOWN_DAYS * DAY) shown.push(t);
    } else {
      const next = nextOccurrence(t.repeat, t.dueAt, now);
      if (next && next.getTime() <= horizon.getTime()) shown.push({ ...t, dueAt: next });
    }
  }
  return shown.sort((a, b) => (a.dueAt?.getTime() ?? Infinity) - (b.dueAt?.getTime() ?? Infinity));
}
