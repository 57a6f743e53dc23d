import { z } from 'zod';
import { RelationType, type Relation } from '../domain/profile.js';
import { InvalidInputError, NotFoundError, parseInput } from '../errors.js';
import type { MemoryDeps } from './deps.js';

export const RelateInput = z.object({
  userId: z.string().min(1),
  /** The memory the relation goes from ("A supports B": A). */
  sourceId: z.string().min(1),
  targetId: z.string().min(1),
  /** supports, contradicts, refines (seed 004 §3.1), or supersedes, derived-from. */
  type: RelationType,
  /** How strongly, 0..1. @default 1 */
  strength: z.number().min(0).max(1).default(1),
  reason: z.string().trim().max(500).optional(),
});
export type RelateInput = z.input<typeof RelateInput>;

/** Links two memories of one user (a caller's own judgement: library, CLI, API). */
export async function relateMemories(deps: MemoryDeps, input: RelateInput): Promise<Relation> {
  const o = parseInput(RelateInput, input, 'relation');
  if (o.sourceId === o.targetId) throw new InvalidInputError('Invalid relation: a memory cannot relate to itself');
  for (const id of [o.sourceId, o.targetId]) {
    if (!(await deps.store.getMemory(o.userId, id))) throw new NotFoundError('Memory', id);
  }
  const existing = (await deps.store.relationsOf(o.userId, o.sourceId)).find((r) => r.sourceId === o.sourceId && r.targetId === o.targetId && r.type === o.type);
  if (existing) throw new InvalidInputError(`Invalid relation: ${o.sourceId} already ${o.type} ${o.targetId} (relation ${existing.id})`, { details: { existing: existing.id } });
  const relation: Relation = {
    id: deps.ids.next(), userId: o.userId, sourceId: o.sourceId, targetId: o.targetId, type: o.type, strength: o.strength,
    ...(o.reason ? { reason: o.reason } : {}), createdAt: deps.clock.now(),
  };
  await deps.store.insertRelation(relation);
  return relation;
}

/** Removes one relation of the user; NOT_FOUND when they have none with this id. */
export async function unrelateMemories(deps: MemoryDeps, userId: string, id: string): Promise<void> {
  if (!(await deps.store.deleteRelation(userId, id))) throw new NotFoundError('Relation', id);
}
