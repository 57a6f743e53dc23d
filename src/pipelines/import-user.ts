import type { Message } from '../domain/conversation.js';
import { jsonProblem } from '../domain/json-value.js';
import { assertUserId } from '../domain/user-id.js';
import { EngramError, InvalidInputError, parseInput } from '../errors.js';
import type { Store } from '../store/store.js';
import type { MemoryDeps } from './deps.js';
import { reviveDates, UserExport } from './export-import.js';
import { validateSettingsPatch } from './settings.js';

/** Deepest nesting an export file may have: its own shape is 4 levels, plus structuredData's limit. */
const MAX_EXPORT_DEPTH = 80;

export interface ImportOptions {
  /** Whose memory the file becomes. @default the file's own userId */
  userId?: string;
  /** Called as rows are embedded and once more when everything is written (`done === total`). */
  onProgress?: (done: number, total: number) => void;
}

/** Rows written between turns of the event loop inside the import's transaction. */
const YIELD_EVERY = 200;

/** Texts embedded per call while importing, so a large file reports progress as it goes. */
const IMPORT_EMBED_CHUNK = 64;

/** What an import did; every row of the file now belongs to `userId`. */
export interface ImportReport {
  userId: string;
  memories: number;
  messages: number;
  /** Rows the file filed under another user, stored under `userId` instead (rewritten, never refused). */
  rewrittenOwners: number;
  /** Ids already taken here (by any user, or twice in the file), given new ids. */
  reissuedIds: number;
  /** Relations dropped because one end is not a memory of this file. */
  droppedRelations: number;
}

/** Maps each id to a fresh one when it is taken in the store or repeated in the file. */
async function reissue(deps: MemoryDeps, store: Store, table: 'memories' | 'history' | 'relations' | 'todos', ids: readonly string[]): Promise<Map<string, string>> {
  const taken = await store.takenIds(table, ids);
  const seen = new Set<string>();
  const map = new Map<string, string>();
  ids.forEach((id, i) => {
    // Position-keyed for repeats: the first keeps its id when free, later copies get new ones.
    const key = seen.has(id) ? `${id}\u0000${i}` : id;
    if (taken.has(id) || seen.has(id)) map.set(key, deps.ids.next());
    seen.add(id);
  });
  return map;
}

/**
 * Restores an export as one user: every memory, history event, relation, profile version, todo,
 * message and setting is stored under the importing user, whatever the file says; ids already
 * used by anyone are re-issued (and references to them follow); settings are validated like
 * setSettings. Refuses a user who already has memories, and input nested deeper than any export.
 */
export async function importUser(deps: MemoryDeps, data: unknown, options: ImportOptions = {}): Promise<ImportReport> {
  const problem = jsonProblem(data, MAX_EXPORT_DEPTH);
  if (problem) throw new InvalidInputError(`Invalid export: ${problem}`);
  const e = parseInput(UserExport, reviveDates(data), 'export');
  const userId = options.userId ?? e.userId;
  assertUserId(userId);
  let settings;
  try {
    settings = validateSettingsPatch(e.settings);
  } catch (cause) {
    throw new InvalidInputError(`Invalid export: its settings do not validate (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
  if ((await deps.store.countMemories({ userId, statuses: ['active', 'archived', 'deleted'] })) > 0) {
    throw new EngramError('CONFLICT', `User ${userId} already has memories here; import into an empty store or forget the user first`);
  }

  const rows = [e.memories, e.history, e.relations, e.profiles, e.todos, e.messages].flat();
  const rewrittenOwners = rows.filter((r) => r.userId !== userId).length;
  const memoryIds = await reissue(deps, deps.store, 'memories', e.memories.map((m) => m.id));
  const historyIds = await reissue(deps, deps.store, 'history', e.history.map((h) => h.id));
  const relationIds = await reissue(deps, deps.store, 'relations', e.relations.map((r) => r.id));
  const todoIds = await reissue(deps, deps.store, 'todos', e.todos.map((t) => t.id));
  const reissuedIds = memoryIds.size + historyIds.size + relationIds.size + todoIds.size;

  const memories = e.memories.map((m, i) => ({ ...m, id: memoryIds.get(m.id) ?? memoryIds.get(`${m.id}\u0000${i}`) ?? m.id, userId, embedderId: deps.embedder.id }));
  const newMemoryId = (id: string): string => memoryIds.get(id) ?? id;
  const inFile = new Set(e.memories.map((m) => m.id));
  const history = e.history.map((h, i) => ({ ...h, id: historyIds.get(h.id) ?? historyIds.get(`${h.id}\u0000${i}`) ?? h.id, memoryId: newMemoryId(h.memoryId), userId }));
  const relations = e.relations
    .filter((r) => inFile.has(r.sourceId) && inFile.has(r.targetId))
    .map((r) => ({ ...r, id: relationIds.get(r.id) ?? deps.ids.next(), sourceId: newMemoryId(r.sourceId), targetId: newMemoryId(r.targetId), userId }));
  const todos = e.todos.map((t, i) => ({
    ...t,
    id: todoIds.get(t.id) ?? todoIds.get(`${t.id}\u0000${i}`) ?? t.id,
    memoryId: t.memoryId !== undefined && inFile.has(t.memoryId) ? newMemoryId(t.memoryId) : undefined,
    userId,
  }));
  const profiles = e.profiles.map((p) => ({ ...p, userId }));

  // Embedding is the slow part (a remote embedder): in chunks, reporting progress; the write is one more step.
  const total = memories.length + e.messages.length + 1;
  let done = 0;
  const embed = async (texts: string[]): Promise<Float32Array[]> => {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += IMPORT_EMBED_CHUNK) {
      const chunk = texts.slice(i, i + IMPORT_EMBED_CHUNK);
      out.push(...(await deps.embedder.embed(chunk)));
      done += chunk.length;
      options.onProgress?.(done, total);
    }
    return out;
  };
  const vectors = await embed(memories.map((m) => m.content));
  const bySession = new Map<string, Message[]>();
  for (const m of e.messages) bySession.set(m.sessionId, [...(bySession.get(m.sessionId) ?? []), { ...m, userId }]);
  const messageVectors = new Map((await embed(e.messages.map((m) => m.content))).map((v, i) => [e.messages[i]!.id, v]));
  await deps.store.transaction(async (tx) => {
    for (const [i, m] of memories.entries()) {
      await tx.importMemory(m, vectors[i] ?? null, []);
      // A SQLite transaction's awaits are microtasks only: without a turn of the event loop now and
      // then, 14,000 memories held every timer and socket for 3–4 s (a streamed reply froze, a
      // context build could not even time out). Other store calls still wait for the commit.
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    // All history in its recorded order, purged memories' events included.
    await tx.importMemory(null, null, history);
    for (const r of relations) await tx.insertRelation(r);
    for (const p of profiles) await tx.insertProfile(p);
    for (const t of todos) await tx.insertTodo(t);
    for (const [sessionId, messages] of bySession) {
      await tx.appendMessages(userId, sessionId, messages.sort((a, b) => a.seq - b.seq).map((m) => ({ ...m, vector: messageVectors.get(m.id) ?? null, embedderId: deps.embedder.id })));
    }
    if (Object.keys(settings).length > 0) await tx.setSettings(userId, settings);
  });
  options.onProgress?.(total, total);
  const report: ImportReport = { userId, memories: memories.length, messages: e.messages.length, rewrittenOwners, reissuedIds, droppedRelations: e.relations.length - relations.length };
  if (rewrittenOwners > 0 || reissuedIds > 0) deps.logger.warn('import rewrote owners or ids', { ...report });
  return report;
}
