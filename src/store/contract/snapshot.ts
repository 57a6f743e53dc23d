import type { Store } from '../store.js';

/**
 * Everything a user's reads return, through every per-user read of the port: two snapshots are
 * equal when nothing of that user changed. Session and todo ids come from the user's own rows.
 */
export async function snapshotUser(store: Store, userId: string) {
  const memories = await store.listMemories({ userId, statuses: ['active', 'archived', 'deleted'], orderBy: 'createdAt', order: 'asc' });
  const messages = await store.listMessages({ userId });
  const sessionIds = [...new Set(messages.map((m) => m.sessionId))].sort();
  const todos = await store.listTodos({ userId });
  const memoryIds = memories.map((m) => m.id);
  const messageIds = messages.map((m) => m.id);
  return {
    memories,
    count: await store.countMemories({ userId, statuses: ['active', 'archived', 'deleted'] }),
    history: await store.historyOfUser(userId),
    vectors: [...(await store.vectorsOf(userId, memoryIds)).entries()].map(([id, v]) => [id, Array.from(v)]),
    messages,
    messageVectors: [...(await store.messageVectorsOf(userId, messageIds)).keys()].sort(),
    sessions: await Promise.all(sessionIds.map((id) => store.getSession(userId, id))),
    runs: await Promise.all(sessionIds.map((id) => store.listExtractionRuns(userId, id))),
    todos,
    deliveries: await Promise.all(todos.map((t) => store.deliveriesOf(userId, t.id))),
    profiles: (await store.profileVersions(userId)).sort((a, b) => a.version - b.version),
    latestProfile: await store.latestProfile(userId),
    relations: (await store.relationsOfUser(userId)).sort((a, b) => a.id.localeCompare(b.id)),
    settings: await store.ownSettings(userId),
    forgetGeneration: await store.forgetGeneration(userId),
  };
}
