import type { ChangeContext } from '../domain/history.js';
import { MemoryPatch, type Memory } from '../domain/memory.js';
import { assertVersion, atVersion, DRIFT_LOOKBACK } from '../domain/memory-version.js';
import { InvalidInputError, NotFoundError, parseInput } from '../errors.js';
import type { MemoryChanges, UpdateCondition } from '../store/store.js';
import { detectLanguage } from '../text/language.js';
import type { MemoryDeps } from './deps.js';
import { structuredDataAfterEdit } from '../lifecycle/edited-content.js';

async function existing(deps: MemoryDeps, userId: string, id: string): Promise<Memory> {
  const memory = await deps.store.getMemory(userId, id);
  if (!memory) throw new NotFoundError('Memory', id);
  return memory;
}

/** A change without an actor was made by a person through the API. */
const by = (change: Partial<ChangeContext> | undefined): ChangeContext => ({ ...change, actor: change?.actor ?? 'user' });

export interface UpdateOptions {
  /**
   * The version (memoryVersion, the HTTP ETag) the change was made against, or several: it applies
   * only while the memory is still at it, else PRECONDITION_FAILED and nothing changes. Decay and
   * reinforcement since (importance alone, made by Engram) do not count unless the change sets
   * importance itself.
   * @default none: the change applies to whatever the memory is now
   */
  ifVersion?: string | readonly string[];
}

/**
 * Refuses at once a change already based on a stale version, before anything is embedded; the
 * store checks again on the row its write holds (where two processes cannot both pass).
 */
async function assertFresh(deps: MemoryDeps, before: Memory, setsImportance: boolean, condition: UpdateCondition | undefined): Promise<void> {
  if (!condition || atVersion(before, condition.ifVersion)) return;
  const drift = setsImportance ? [] : (await deps.store.history(before.userId, before.id)).slice(-DRIFT_LOOKBACK).reverse();
  assertVersion(before, condition.ifVersion, drift);
}

function conditionOf(options: UpdateOptions | undefined): UpdateCondition | undefined {
  const v = options?.ifVersion;
  if (v === undefined) return undefined;
  const ifVersion = typeof v === 'string' ? [v] : [...v];
  if (ifVersion.length === 0 || !ifVersion.every((x) => typeof x === 'string' && x !== '')) throw new InvalidInputError('Invalid ifVersion: a memory version (a non-empty string) or a list of them', { details: { field: 'ifVersion' } });
  return { ifVersion };
}

/**
 * Updates fields of a memory; a new content is re-embedded. History keeps before and after. A new
 * content without new structured data keeps only the structured fields its edit left untouched (see
 * edited-content.ts). A todo's memory reworded rewords its open todo when the two said the same (a
 * todo made by hand); its time moves only through editTodo. With `ifVersion`, the store applies it
 * only to that version of the memory, checked in its write (two processes cannot both pass).
 */
export async function updateMemory(deps: MemoryDeps, userId: string, id: string, patch: MemoryPatch, change?: Partial<ChangeContext>, options?: UpdateOptions): Promise<Memory> {
  const data = parseInput(MemoryPatch, patch, 'memory update');
  const condition = conditionOf(options);
  const before = await existing(deps, userId, id);
  await assertFresh(deps, before, data.importance !== undefined, condition);
  const changes: MemoryChanges = { ...data, updatedAt: deps.clock.now() } as MemoryChanges;
  let vector: Float32Array | undefined;
  if (data.content !== undefined && data.content !== before.content) {
    [vector] = await deps.embedder.embed([data.content]);
    changes.language = detectLanguage(data.content);
    changes.embedderId = deps.embedder.id;
    if (data.structuredData === undefined) {
      const after = structuredDataAfterEdit(before, data.content);
      if (after !== undefined) changes.structuredData = after ?? undefined;
    }
  }
  const todo = before.kind === 'todo' && changes.content !== undefined ? (await deps.store.listTodos({ userId, completed: false })).find((t) => t.memoryId === id && t.content === before.content) : undefined;
  if (!todo) return deps.store.updateMemory(userId, id, changes, vector, by(change), condition);
  return deps.store.transaction(async (tx) => {
    const updated = await tx.updateMemory(userId, id, changes, vector, by(change), condition);
    await tx.updateTodo(userId, todo.id, { content: updated.content });
    return updated;
  });
}

/**
 * Soft delete: the memory stops being recalled but can be restored; history says who and why. With
 * `ifVersion`, only the version that was read (checked in the store's write, as update does).
 */
export async function deleteMemory(deps: MemoryDeps, userId: string, id: string, change?: Partial<ChangeContext>, options?: UpdateOptions): Promise<Memory> {
  const condition = conditionOf(options);
  await existing(deps, userId, id);
  return deps.store.updateMemory(userId, id, { status: 'deleted', updatedAt: deps.clock.now() }, undefined, by(change), condition);
}

/** Brings back a soft-deleted memory; with `ifVersion`, only the version that was read. */
export async function restoreMemory(deps: MemoryDeps, userId: string, id: string, change?: Partial<ChangeContext>, options?: UpdateOptions): Promise<Memory> {
  const condition = conditionOf(options);
  await existing(deps, userId, id);
  return deps.store.updateMemory(userId, id, { status: 'active', updatedAt: deps.clock.now() }, undefined, by(change), condition);
}

/**
 * Really erases a memory: its row, vector and keyword row; history keeps only that it was purged.
 * With `ifVersion`, only the version that was read: a memory changed since is left as it is.
 */
export async function purgeMemory(deps: MemoryDeps, userId: string, id: string, change?: Partial<ChangeContext>, options?: UpdateOptions): Promise<void> {
  await deps.store.purgeMemory(userId, id, { at: deps.clock.now(), ...by(change) }, conditionOf(options));
}
