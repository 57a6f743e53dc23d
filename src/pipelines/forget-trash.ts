import type { Message } from '../domain/conversation.js';
import { FORGET_UNDO_DAYS, type ForgottenRequest } from '../domain/forgotten.js';
import type { Memory } from '../domain/memory.js';
import type { Todo } from '../domain/todo.js';
import type { MemoryDeps } from './deps.js';

/**
 * Where a request in conversation puts what it forgets, so it can be undone (`forget-undo.ts`):
 * each step is written to the request's record before the store forgets it, so an interruption
 * leaves nothing that is neither in the store nor in the record.
 */
export interface ForgetTrash {
  /** Notes the memories' statuses before the request deletes them. */
  memories(memories: readonly Memory[]): Promise<void>;
  /** Keeps a todo with no memory of its own before the request erases it. */
  todo(todo: Todo): Promise<void>;
  /** Keeps the messages, then erases them from the store; returns how many were erased. */
  messages(ids: readonly string[]): Promise<number>;
  /** The profile versions written without the topic, and older versions that still say it. */
  profile(written: readonly number[], stale: readonly number[]): Promise<void>;
}

/** The trash of one request: `request` is the asking message, `topic` what it asked as the report names it. */
export function forgetTrash(deps: Pick<MemoryDeps, 'store' | 'clock'>, request: Message, topic: string): ForgetTrash {
  const at = deps.clock.now();
  const record: ForgottenRequest = {
    id: request.id,
    userId: request.userId,
    at,
    expiresAt: new Date(at.getTime() + FORGET_UNDO_DAYS * 86_400_000),
    topic,
    request: request.content,
    memories: [],
    todos: [],
    messages: [],
    profileWritten: [],
    staleProfileVersions: [],
  };
  const save = (): Promise<void> => deps.store.saveForgotten(record);
  return {
    async memories(memories) {
      const fresh = memories.filter((m) => m.status !== 'deleted' && !record.memories.some((r) => r.id === m.id));
      if (fresh.length === 0) return;
      record.memories.push(...fresh.map((m) => ({ id: m.id, status: m.status })));
      await save();
    },
    async todo(todo) {
      record.todos.push(todo);
      await save();
    },
    async messages(ids) {
      if (ids.length === 0) return 0;
      const kept = new Set(record.messages.map((m) => m.id));
      const found = (await deps.store.listMessages({ userId: request.userId, ids })).filter((m) => !kept.has(m.id));
      if (found.length > 0) {
        record.messages.push(...found);
        await save();
      }
      return deps.store.purgeMessages(request.userId, ids);
    },
    async profile(written, stale) {
      for (const v of written) if (!record.profileWritten.includes(v)) record.profileWritten.push(v);
      for (const v of stale) if (!record.staleProfileVersions.includes(v)) record.staleProfileVersions.push(v);
      await save();
    },
  };
}
