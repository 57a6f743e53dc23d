import { z } from 'zod';
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
