import { z } from 'zod';
import { InvalidInputError } from '../errors.js';
import { RecurrenceRule } from './recurrence.js';

/** A todo (seed 000 §5), mirrored by a memory of kind "todo" so recall finds it. */
export const Todo = z.object({
  id: z.string(),
  userId: z.string(),
  memoryId: z.string().optional(),
  content: z.string().min(1),
  dueAt: z.date().optional(),
  remindAt: z.date().optional(),
  completed: z.boolean(),
  completedAt: z.date().optional(),
  reminded: z.boolean(),
  /** How the todo repeats; absent for a one-off. A repeating todo's due and reminder times move to its next occurrence. */
  repeat: RecurrenceRule.optional(),
  sourceSessionId: z.string().optional(),
  createdAt: z.date(),
  /** Failed reminder deliveries so far, and the last error. */
  deliveryAttempts: z.number().int().min(0).default(0),
  lastDeliveryError: z.string().optional(),
});
export type Todo = z.infer<typeof Todo>;

/**
 * How far in the past a reminder time given outright is still taken as "now": a caller that means
 * "remind me now" sends its own clock's time, a little behind ours by skew or a request in flight.
 * @default 5 minutes
 */
export const REMIND_AT_SKEW_MS = 5 * 60_000;

/**
 * Refuses a reminder given outright before now (more than REMIND_AT_SKEW_MS) for a todo still ahead (remindAt 2020 with dueAt
 * 2030): it would go out at once, years early, and look like a reminder of something due now.
 * Leave it out for the default (an hour before), or give a time ahead. An overdue todo's own time
 * is another matter (its reminder comes at once by design).
 */
export function assertReminderAhead(remindAt: Date | undefined, dueAt: Date | undefined, now: Date): void {
  if (!remindAt || !dueAt || remindAt.getTime() >= now.getTime() - REMIND_AT_SKEW_MS || dueAt.getTime() <= now.getTime()) return;
  throw new InvalidInputError(`remindAt (${remindAt.toISOString()}) is already past while the todo is due ${dueAt.toISOString()}: the reminder would go out at once; give a time ahead, or leave it out (an hour before the due time)`, {
    details: { field: 'remindAt', reason: 'past', remindAt: remindAt.toISOString(), now: now.toISOString() },
  });
}
