import { z } from 'zod';

/** The core profile (seed 003 Layer 3): a narrative plus a few structured basics. Every version is kept. */
export const Profile = z.object({
  userId: z.string(),
  version: z.number().int().min(0),
  narrative: z.string(),
  basicInfo: z.record(z.string(), z.string()),
  /** What changed in this version, in one sentence. */
  changes: z.string().optional(),
  producedBy: z.string().optional(),
  /** Episodes the profile had seen when this version was written. */
  episodeCount: z.number().int().min(0),
  createdAt: z.date(),
});
export type Profile = z.infer<typeof Profile>;

export const COLD_START_NARRATIVE = { zh: '新用户，尚无信息', en: 'New user; nothing known yet.' } as const;

export const RELATION_TYPES = ['supports', 'contradicts', 'refines', 'supersedes', 'derived-from'] as const;
export const RelationType = z.enum(RELATION_TYPES);
export type RelationType = z.infer<typeof RelationType>;

/** A link between two memories of one user (seed 004 memory_relations). */
export const Relation = z.object({
  id: z.string(),
  userId: z.string(),
  sourceId: z.string(),
  targetId: z.string(),
  type: RelationType,
  strength: z.number().min(0).max(1),
  reason: z.string().optional(),
  createdAt: z.date(),
});
export type Relation = z.infer<typeof Relation>;
