import type { RecurrenceRule } from '../domain/recurrence.js';
import { EngramError, type ErrorCode } from '../errors.js';

/** One due reminder for one todo, as handed to a Notifier. */
export interface Reminder {
  /** Unique per delivery attempt series; receivers use it to drop duplicates (retries). */
  deliveryId: string;
  userId: string;
  /** The HTTP service's tenant of the user, when the server maps engine ids back to its callers' ids. */
  tenantId?: string;
  todoId: string;
  /** The todo's text, in the language the user wrote it. */
  content: string;
  dueAt?: Date;
  remindAt: Date;
  /** A repeating todo's rule: this reminder is for one occurrence, the next comes with the next. */
  repeat?: RecurrenceRule;
}

/** The port reminders leave Engram through. Resolves once delivered; throws an EngramError otherwise. */
export interface Notifier {
  notify(reminder: Reminder): Promise<void>;
}

/** The error code every notifier fails with. */
export const DELIVERY_FAILED: ErrorCode = 'DELIVERY_FAILED';

/** A Notifier over a plain function (in-process apps, tests). A thrown error becomes DELIVERY_FAILED. */
export function callbackNotifier(fn: (reminder: Reminder) => void | Promise<void>): Notifier {
  return {
    async notify(reminder) {
      try {
        await fn(reminder);
      } catch (cause) {
        if (EngramError.isInstance(cause)) throw cause;
        throw new EngramError(DELIVERY_FAILED, `Reminder ${reminder.deliveryId} could not be delivered: ${errorMessage(cause)}`, {
          cause,
          details: { deliveryId: reminder.deliveryId, todoId: reminder.todoId },
        });
      }
    },
  };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
