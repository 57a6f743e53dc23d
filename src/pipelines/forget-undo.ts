import type { ErasedForget, ForgottenRequest, ForgottenSummary, UndoneForget } from '../domain/forgotten.js';
import { EngramError, NotFoundError } from '../errors.js';
import type { RestoredMessage } from '../store/store.js';
import type { MemoryDeps } from './deps.js';

/** The user's requests whose forgetting can still be undone, newest first. */
export async function forgottenOnRequest(deps: Pick<MemoryDeps, 'store'>, userId: string): Promise<ForgottenSummary[]> {
  return (await deps.store.listForgotten(userId)).filter((r) => r.undoneAt === undefined).map(summary);
}

const summary = (r: ForgottenRequest): ForgottenSummary => ({
  id: r.id, at: r.at, expiresAt: r.expiresAt, topic: r.topic, request: r.request, memories: r.memories.length, messages: r.messages.length, todos: r.todos.length,
});

/** Whether the user undid what this message asked to be forgotten: the extractor must not act on it again. */
export async function undoneRequest(deps: Pick<MemoryDeps, 'store'>, userId: string, messageId: string): Promise<boolean> {
  return (await deps.store.getForgotten(userId, messageId))?.undoneAt !== undefined;
}

/**
 * Brings back what a request in conversation forgot (a misread "忘掉…", "forget…"): its messages
 * in their places, the memories it deleted with the status they had (unless the user has restored
 * or erased them since), the todos it erased, and the profile as it was before the request
 * rewrote it, if nothing has rewritten it since. Each step can run again (an undo interrupted and
 * tried again does nothing twice). The record is kept as a mark until it expires, so the request,
 * back among the turns, is not acted on again by the extractor.
 */
export async function undoForgotten(deps: MemoryDeps, userId: string, id: string): Promise<UndoneForget> {
  const record = await pending(deps, userId, id);
  const at = deps.clock.now();
  const messages = await deps.store.restoreMessages(userId, await withVectors(deps, record));
  let memories = 0;
  for (const { id: memoryId, status } of record.memories) {
    const memory = await deps.store.getMemory(userId, memoryId);
    if (memory?.status !== 'deleted') continue;
    await deps.store.updateMemory(userId, memoryId, { status, updatedAt: at }, undefined, { actor: 'user', reason: `undid forgetting "${record.topic}" asked in conversation`, at, messageIds: [record.id] });
    memories++;
  }
  const taken = await deps.store.takenIds('todos', record.todos.map((t) => t.id));
  const todos = record.todos.filter((t) => !taken.has(t.id));
  for (const todo of todos) await deps.store.insertTodo(todo);
  const profile = await profileBefore(deps, record);
  await deps.store.saveForgotten({ ...record, memories: [], todos: [], messages: [], profileWritten: [], staleProfileVersions: [], undoneAt: at });
  deps.logger.info('undid forgetting asked in conversation', { userId, id, memories, messages: messages.length, todos: todos.length, profile });
  return { id, topic: record.topic, memories, messages: messages.length, todos: todos.length, profile };
}

/**
 * Erases at once what a request in conversation forgot, rather than at its expiry: its messages and
 * todos (kept only in the record), the memories it deleted that are still deleted, and the older
 * profile versions that say the topic.
 */
export async function eraseForgotten(deps: MemoryDeps, userId: string, id: string): Promise<ErasedForget> {
  const record = await pending(deps, userId, id);
  const at = deps.clock.now();
  let memories = 0;
  for (const { id: memoryId } of record.memories) {
    if ((await deps.store.getMemory(userId, memoryId))?.status !== 'deleted') continue;
    await deps.store.purgeMemory(userId, memoryId, { actor: 'user', reason: 'erased what was forgotten on request', at });
    memories++;
  }
  if (record.staleProfileVersions.length > 0) await deps.store.deleteProfileVersions(userId, record.staleProfileVersions);
  await deps.store.deleteForgotten(userId, id);
  deps.logger.info('erased what was forgotten on request', { userId, id, memories, messages: record.messages.length });
  return { id, memories, messages: record.messages.length };
}

async function pending(deps: Pick<MemoryDeps, 'store'>, userId: string, id: string): Promise<ForgottenRequest> {
  const record = await deps.store.getForgotten(userId, id);
  if (!record) throw new NotFoundError('forgotten request', id);
  if (record.undoneAt) throw new EngramError('CONFLICT', `What "${record.topic}" forgot was already brought back (${record.undoneAt.toISOString()})`, { details: { id, undoneAt: record.undoneAt.toISOString() } });
  return record;
}

/**
 * The record's messages with vectors from the current embedder, so the message search finds them
 * again at once; when the embedder fails they go back without (keyword search finds them, and
 * reindex embeds them), as a message that could not be embedded is stored.
 */
async function withVectors(deps: Pick<MemoryDeps, 'embedder' | 'logger'>, record: ForgottenRequest): Promise<RestoredMessage[]> {
  if (record.messages.length === 0) return [];
  try {
    const vectors = await deps.embedder.embed(record.messages.map((m) => m.content));
    return record.messages.map((m, i) => ({ ...m, vector: vectors[i] ?? null, embedderId: deps.embedder.id }));
  } catch (error) {
    deps.logger.warn('embedding the messages an undo brings back failed: they are back without vectors until reindex', { code: EngramError.isInstance(error) ? error.code : 'EMBEDDER_FAILED', userId: record.userId, id: record.id, error: String(error) });
    return record.messages.map((m) => ({ ...m, vector: null }));
  }
}

/**
 * The profile as it was before the request rewrote it: put back as a new version when the newest
 * is still the last one the request wrote. Returns whether it was.
 */
async function profileBefore(deps: Pick<MemoryDeps, 'store' | 'clock'>, record: ForgottenRequest): Promise<boolean> {
  if (record.profileWritten.length === 0) return false;
  const latest = await deps.store.latestProfile(record.userId);
  if (latest?.version !== Math.max(...record.profileWritten)) return false;
  const first = Math.min(...record.profileWritten);
  const before = (await deps.store.profileVersions(record.userId)).filter((p) => p.version < first).sort((a, b) => b.version - a.version)[0];
  if (!before) return false;
  await deps.store.insertProfile({ ...before, version: latest.version + 1, changes: `undid forgetting "${record.topic}"`, createdAt: deps.clock.now() });
  return true;
}
