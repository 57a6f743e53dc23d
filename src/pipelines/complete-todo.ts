import type { Todo } from '../domain/todo.js';
import { NotFoundError } from '../errors.js';
import type { MemoryDeps } from './deps.js';

/**
 * Marks a todo done. Its memory (kind 'todo') is archived in the same transaction, so a done todo
 * leaves the context at once, in the due section and as a recalled memory alike; it stays in
 * lists, exports and history, and can be restored.
 */
export async function completeTodo(deps: MemoryDeps, userId: string, id: string): Promise<Todo> {
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const todo = await tx.updateTodo(userId, id, { completed: true, completedAt: now });
    if (!todo) throw new NotFoundError('Todo', id);
    const memory = todo.memoryId ? await tx.getMemory(userId, todo.memoryId) : null;
    if (memory?.status === 'active') {
      await tx.updateMemory(userId, memory.id, { status: 'archived', updatedAt: now }, undefined, { actor: 'user', action: 'archive', reason: 'todo completed', at: now });
    }
    return todo;
  });
}
