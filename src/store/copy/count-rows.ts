import type { KeyStore } from '../ports/keys.js';
import type { Store } from '../store.js';

export const COUNTED_TABLES = ['memories', 'history', 'vectors', 'messages', 'message_vectors', 'sessions', 'extraction_runs', 'todos', 'deliveries', 'profiles', 'relations', 'settings', 'api_keys'] as const;
export type CountedTable = (typeof COUNTED_TABLES)[number];
export type RowCounts = Record<CountedTable, number>;

const ALL_STATUSES = ['active', 'archived', 'deleted'] as const;

/**
 * Rows per table of the given users (settings: keys set, '*' included), read through the ports
 * only, so the same count runs on any adapter. Used by `engram migrate` on both sides.
 */
export async function countRows(store: Store, keys: KeyStore | null, userIds: readonly string[]): Promise<RowCounts> {
  const counts = Object.fromEntries(COUNTED_TABLES.map((t) => [t, 0])) as RowCounts;
  for (const userId of userIds) {
    const memoryIds = (await store.listMemories({ userId, statuses: ALL_STATUSES })).map((m) => m.id);
    counts.memories += memoryIds.length;
    counts.history += (await store.historyOfUser(userId)).length;
    counts.vectors += (await store.vectorsOf(userId, memoryIds)).size;
    const messages = await store.listMessages({ userId });
    counts.messages += messages.length;
    counts.message_vectors += (await store.messageVectorsOf(userId, messages.map((m) => m.id))).size;
    const sessionIds = [...new Set(messages.map((m) => m.sessionId))];
    counts.sessions += sessionIds.length;
    for (const sessionId of sessionIds) counts.extraction_runs += (await store.listExtractionRuns(userId, sessionId)).length;
    const todos = await store.listTodos({ userId });
    counts.todos += todos.length;
    for (const todo of todos) counts.deliveries += (await store.deliveriesOf(userId, todo.id)).length;
    counts.profiles += (await store.profileVersions(userId)).length;
    counts.relations += (await store.relationsOfUser(userId)).length;
    counts.settings += Object.keys(await store.ownSettings(userId)).length;
  }
  counts.settings += Object.keys(await store.ownSettings('*')).length;
  counts.api_keys = keys ? (await keys.exportKeys()).length : 0;
  return counts;
}
