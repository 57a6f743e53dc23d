import type { JsonObject, Memory } from '../domain/memory.js';
import type { Relation } from '../domain/profile.js';

/**
 * The structured data a memory keeps after its content changed. Given new structured data, it
 * replaces the old keys it names. Without it, a field whose text value was spelled in the old
 * content and is absent from the new content was contradicted by the change ("北京" after
 * "不对，我现在住在上海") and is dropped, never left to say the opposite of the content.
 */
export function structuredDataAfter(before: Pick<Memory, 'content' | 'structuredData'>, content: string, next?: JsonObject): JsonObject | null | undefined {
  const old = before.structuredData;
  if (next) return { ...(old ?? {}), ...next };
  if (!old) return undefined;
  const kept = Object.fromEntries(Object.entries(old).filter(([, v]) => !(typeof v === 'string' && v.length > 0 && before.content.includes(v) && !content.includes(v))));
  if (Object.keys(kept).length === Object.keys(old).length) return undefined;
  return Object.keys(kept).filter((k) => k !== 'extractor' && k !== 'slot').length > 0 ? kept : null;
}

/**
 * The old version of a corrected memory, kept as an archived memory of its own and linked from the
 * current one with `supersedes`: the old value stays reachable (relations, lists, export) but is
 * never recalled, and nothing in the profile or context can state it as current.
 */
export function supersededCopy(before: Memory, options: { id: string; relationId: string; now: Date; reason: string; embedderId?: string }): { copy: Memory; relation: Relation } {
  const copy: Memory = { ...before, id: options.id, status: 'archived', updatedAt: options.now, embedderId: options.embedderId ?? before.embedderId };
  const relation: Relation = { id: options.relationId, userId: before.userId, sourceId: before.id, targetId: copy.id, type: 'supersedes', strength: 1, reason: options.reason, createdAt: options.now };
  return { copy, relation };
}
