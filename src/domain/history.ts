import { z } from 'zod';

export const HISTORY_ACTIONS = ['create', 'update', 'delete', 'restore', 'purge', 'reinforce', 'access', 'archive', 'reindex', 'decay', 'promote', 'review'] as const;
export const HistoryAction = z.enum(HISTORY_ACTIONS);
export type HistoryAction = z.infer<typeof HistoryAction>;

/**
 * Who made a change: a person through an API, the extraction pipeline, the lifecycle, a file edit…
 * `assistant`: the model itself through a tool (MCP), on its own judgement of what the user meant.
 */
export const ACTORS = ['user', 'extraction', 'assistant', 'review', 'lifecycle', 'file', 'import', 'system'] as const;
export const Actor = z.enum(ACTORS);
export type Actor = z.infer<typeof Actor>;

export const HistoryEvent = z.object({
  id: z.string(),
  memoryId: z.string(),
  userId: z.string(),
  action: HistoryAction,
  /** Names of the fields that changed. */
  changed: z.array(z.string()),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  actor: Actor,
  reason: z.string().optional(),
  /** prompt id@version when a model decided the change. */
  producedBy: z.string().optional(),
  messageIds: z.array(z.string()).default([]),
  at: z.date(),
});
export type HistoryEvent = z.infer<typeof HistoryEvent>;

/** What a pipeline says about a change; the store adds id, before/after and time. */
export interface ChangeContext {
  actor: Actor;
  reason?: string;
  producedBy?: string;
  messageIds?: string[];
  /** When the change happened; defaults to the store's clock reading. */
  at?: Date;
  /** Overrides the action the store would infer (e.g. 'reinforce' for an importance bump). */
  action?: HistoryAction;
}
