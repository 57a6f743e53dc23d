import { z } from 'zod';
import { RecurrenceRule } from '../../../src/domain/recurrence';

/**
 * What the page reads from the HTTP API, checked at the edge. Objects are loose: the server may
 * add fields, and the page only relies on the ones named here. Dates stay ISO strings.
 */
export const MEMORY_KINDS = ['identity', 'preference', 'fact', 'person', 'event', 'plan', 'todo', 'pattern', 'skill', 'episode', 'system'] as const;
export const MemoryKind = z.enum(MEMORY_KINDS);
export type MemoryKind = z.infer<typeof MemoryKind>;
export const MEMORY_STATUSES = ['active', 'archived', 'deleted'] as const;

const iso = z.string();

export const Memory = z.looseObject({
  id: z.string(),
  userId: z.string(),
  kind: z.string(),
  content: z.string(),
  structuredData: z.record(z.string(), z.unknown()).nullish(),
  importance: z.number(),
  confidence: z.number().optional(),
  source: z.string().optional(),
  verified: z.boolean().optional(),
  core: z.boolean().optional(),
  status: z.string(),
  provenance: z.looseObject({
    sessionId: z.string().optional(),
    messageIds: z.array(z.string()).default([]),
    producedBy: z.string().optional(),
  }).optional(),
  language: z.string().optional(),
  createdAt: iso,
  updatedAt: iso,
  lastAccessedAt: iso.nullish(),
  accessCount: z.number().optional(),
  happenedAt: iso.nullish(),
  expiresAt: iso.nullish(),
  /** The version the /memories endpoints give (the ETag): an edit sends it back in If-Match. */
  version: z.string().optional(),
});
export type Memory = z.infer<typeof Memory>;

export const MemoryPage = z.object({ items: z.array(Memory), nextCursor: z.string().nullish() });
export type MemoryPage = z.infer<typeof MemoryPage>;

export const HistoryEvent = z.looseObject({
  id: z.string(),
  action: z.string(),
  changed: z.array(z.string()).default([]),
  before: z.record(z.string(), z.unknown()).nullish(),
  after: z.record(z.string(), z.unknown()).nullish(),
  actor: z.string(),
  reason: z.string().nullish(),
  producedBy: z.string().nullish(),
  messageIds: z.array(z.string()).default([]),
  at: iso,
});
export type HistoryEvent = z.infer<typeof HistoryEvent>;

export const Relation = z.looseObject({
  id: z.string(),
  sourceId: z.string(),
  targetId: z.string(),
  type: z.string(),
  strength: z.number().optional(),
  reason: z.string().nullish(),
});
export type Relation = z.infer<typeof Relation>;

export const Message = z.looseObject({
  id: z.string(),
  sessionId: z.string().optional(),
  seq: z.number().optional(),
  role: z.string(),
  content: z.string(),
  createdAt: iso.optional(),
});
export type Message = z.infer<typeof Message>;

export const ScoreParts = z.looseObject({
  vector: z.number().nullish(),
  keyword: z.number().nullish(),
  relevance: z.number(),
  recency: z.number(),
  importance: z.number(),
  final: z.number(),
});
export type ScoreParts = z.infer<typeof ScoreParts>;

export const Recalled = z.looseObject({ memory: Memory, score: ScoreParts });
export type Recalled = z.infer<typeof Recalled>;

export const ContextBlock = z.looseObject({
  text: z.string(),
  tokens: z.number(),
  budget: z.number().optional(),
  language: z.string().optional(),
  included: z.array(z.looseObject({ id: z.string().optional(), kind: z.string().optional() })).default([]),
  omitted: z.number().optional(),
});
export type ContextBlock = z.infer<typeof ContextBlock>;

export const Todo = z.looseObject({
  id: z.string(),
  content: z.string(),
  dueAt: iso.nullish(),
  remindAt: iso.nullish(),
  completed: z.boolean(),
  completedAt: iso.nullish(),
  createdAt: iso.optional(),
  /** How it repeats (the server's RecurrenceRule); a rule this page does not know is shown as no repeat. */
  repeat: RecurrenceRule.optional().catch(undefined),
});
export type Todo = z.infer<typeof Todo>;

export const Profile = z.looseObject({
  version: z.number(),
  narrative: z.string(),
  basicInfo: z.record(z.string(), z.string()).default({}),
  changes: z.string().nullish(),
  createdAt: iso.optional(),
});
export type Profile = z.infer<typeof Profile>;

export const Settings = z.record(z.string(), z.unknown());
export type Settings = z.infer<typeof Settings>;

export const User = z.union([z.string(), z.looseObject({ userId: z.string() }).transform((u) => u.userId), z.looseObject({ id: z.string() }).transform((u) => u.id)]);

/** Lists come bare or wrapped in `{ items }`; both are accepted. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.union([z.array(item), z.looseObject({ items: z.array(item) }).transform((o) => o.items)]);
}

export const Operation = z.looseObject({
  op: z.string(),
  kind: z.string().nullish(),
  content: z.string().nullish(),
  target: z.string().nullish(),
  memoryId: z.string().nullish(),
  reason: z.string().nullish(),
});
export type Operation = z.infer<typeof Operation>;

export const ExtractReport = z.looseObject({
  status: z.string(),
  added: z.number().default(0),
  updated: z.number().default(0),
  deleted: z.number().default(0),
  reinforced: z.number().default(0),
  skipped: z.boolean().default(false),
  reason: z.string().default(''),
  extractor: z.string().nullish(),
  operations: z.array(Operation).optional(),
  rejected: z.array(z.unknown()).default([]),
});
export type ExtractReport = z.infer<typeof ExtractReport>;

export const ErrorBody = z.object({
  error: z.looseObject({ code: z.string(), message: z.string(), details: z.unknown().optional(), requestId: z.string().optional() }),
  requestId: z.string().optional(),
});
