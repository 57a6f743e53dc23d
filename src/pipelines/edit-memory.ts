import type { ChangeContext } from '../domain/history.js';
import { MemoryPatch, type Memory } from '../domain/memory.js';
import { NotFoundError, parseInput } from '../errors.js';
import type { MemoryChanges } from '../store/store.js';
import { detectLanguage } from '../text/language.js';
import type { MemoryDeps } from './deps.js';
import { structuredDataAfter } from '../lifecycle/supersede.js';

async function existing(deps: MemoryDeps, userId: string, id: string): Promise<Memory> {
  const memory = await deps.store.getMemory(userId, id);
  if (!memory) throw new NotFoundError('Memory', id);
  return memory;
}

/** A change without an actor was made by a person through the API. */
const by = (change: Partial<ChangeContext> | undefined): ChangeContext => ({ ...change, actor: change?.actor ?? 'user' });

/**
 * Updates fields of a memory; a new content is re-embedded. History keeps before and after. A new
 * content without new structured data drops the structured fields it contradicts (see supersede.ts).
 * A todo's memory reworded rewords its open todo when the two said the same (a todo made by hand);
 * its time moves only through editTodo.
 */
export async function updateMemory(deps: MemoryDeps, userId: string, id: string, patch: MemoryPatch, change?: Partial<ChangeContext>): Promise<Memory> {
  const data = parseInput(MemoryPatch, patch, 'memory update');
  const before = await existing(deps, userId, id);
  const changes: MemoryChanges = { ...data, updatedAt: deps.clock.now() } as MemoryChanges;
  let vector: Float32Array | undefined;
  if (data.content !== undefined && data.content !== before.content) {
    [vector] = await deps.embedder.embed([data.content]);
    changes.language = detectLanguage(data.content);
    changes.embedderId = deps.embedder.id;
    if (data.structuredData === undefined) {
      const after = structuredDataAfter(before, data.content);
      if (after !== undefined) changes.structuredData = after ?? undefined;
    }
  }
  const todo = before.kind === 'todo' && changes.content !== undefined ? (await deps.store.listTodos({ userId, completed: false })).find((t) => t.memoryId === id && t.content === before.content) : undefined;
  if (!todo) return deps.store.updateMemory(userId, id, changes, vector, by(change));
  return deps.store.transaction(async (tx) => {
    const updated = await tx.updateMemory(userId, id, changes, vector, by(change));
    await tx.updateTodo(userId, todo.id, { content: updated.content });
    return updated;
  });
}

/** Soft delete: the memory stops being recalled but can be restored; history says who and why. */
export async function deleteMemory(deps: MemoryDeps, userId: string, id: string, change?: Partial<ChangeContext>): Promise<Memory> {
  await existing(deps, userId, id);
  return deps.store.updateMemory(userId, id, { status: 'deleted', updatedAt: deps.clock.now() }, undefined, by(change));
}

export async function restoreMemory(deps: MemoryDeps, userId: string, id: string, change?: Partial<ChangeContext>): Promise<Memory> {
  await existing(deps, userId, id);
  return deps.store.updateMemory(userId, id, { status: 'active', updatedAt: deps.clock.now() }, undefined, by(change));
}

/** Really erases a memory: its row, vector and keyword row; history keeps only that it was purged. */
export async function purgeMemory(deps: MemoryDeps, userId: string, id: string, change?: Partial<ChangeContext>): Promise<void> {
  await deps.store.purgeMemory(userId, id, { at: deps.clock.now(), ...by(change) });
}
