import type { RecurrenceRule } from './domain/recurrence.js';
import type { ExtractReport } from './pipelines/extract-session.js';

/**
 * What the engine tells the outside world as it works (the server fans these out on `/v1/events`).
 * `userId` is the engine's own user id; a multi-tenant caller maps it back to its external id.
 */
export type EngramEvent =
  | { type: 'memory.changed'; userId: string; at: Date }
  | { type: 'extraction.done'; userId: string; sessionId: string; report: ExtractReport; at: Date }
  | { type: 'todo.due'; userId: string; todoId: string; content: string; dueAt?: Date; remindAt: Date; deliveryId: string; at: Date; repeat?: RecurrenceRule };

/** A sink for engine events. Must not throw and must not block: it is called on the write path. */
export interface EventSink {
  emit(event: EngramEvent): void;
}
