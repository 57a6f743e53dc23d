import type { Message } from '../domain/conversation.js';
import { jsonProblem } from '../domain/json-value.js';
import { assertUserId, MAX_STORED_USER_ID_LENGTH } from '../domain/user-id.js';
import { EngramError, InvalidInputError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { MemoryDeps } from './deps.js';
import { type ExportedSession, reviveDates, UserExport } from './export-import.js';
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
  /** Ids already taken here (by any user), given new ids. */
  reissuedIds: number;
  /** Relations dropped because one end is not a memory of this file. */
  droppedRelations: number;
  /** History events dropped because their memory is neither in the file nor purged in it. */
  droppedHistory: number;
}

/** The ids one table's rows are stored under, and where references to the file's ids now point. */
interface Reissued {
  /** The id of each row, in file order. */
  ids: string[];
  /** A file id → the id of the first row that had it (what a reference to it follows). */
  refs: Map<string, string>;
  /** Rows given a new id. */
  count: number;
}

/**
 * Keeps each row's id when it is free; gives a new one to an id taken in the store (`taken`) or
 * already given to an earlier row (the file's own ids are distinct: repeatsIn). A new id is never
 * one the file uses (a file exported from a store with the same id generator).
 */
function reissue(deps: MemoryDeps, ids: readonly string[], taken: ReadonlySet<string>): Reissued {
  const inFile = new Set(ids);
  const given = new Set<string>();
  const refs = new Map<string, string>();
  let count = 0;
  const fresh = (): string => {
    let id = deps.ids.next();
    while (inFile.has(id) || given.has(id)) id = deps.ids.next();
    return id;
  };
  const out = ids.map((id) => {
    let next = id;
    if (taken.has(id) || given.has(id)) {
      next = fresh();
      count++;
    }
    given.add(next);
    if (!refs.has(id)) refs.set(id, next);
    return next;
  });
  return { ids: out, refs, count };
}

/**
 * The export, or INVALID_INPUT naming every refused field by its place and its record's id
 * ("memories.1.content: must not contain control characters: U+0000 at character 5 (…) (the record
 * with id m-2)"),
 * before anything is written: a refused file imports nothing.
 */
function parseExport(data: unknown): UserExport {
  const result = UserExport.safeParse(data);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => {
    const id = recordId(data, i.path);
    return `${i.path.map(String).join('.') || '(root)'}: ${i.message}${id === undefined ? '' : ` (the record with id ${id})`}`;
  });
  throw new InvalidInputError(`Invalid export: ${issues.join('; ')}`, { details: { issues } });
}

/** The id of the record an issue's path is in (`memories`, 3, …), when the file gives it one. */
function recordId(data: unknown, path: readonly PropertyKey[]): string | undefined {
  const [table, index] = path;
  if (typeof table !== 'string' || typeof index !== 'number' || !isRecord(data)) return undefined;
  const rows = data[table];
  const row = Array.isArray(rows) ? (rows as unknown[])[index] : undefined;
  return isRecord(row) && typeof row.id === 'string' ? row.id : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Watermarks for a session a file gives none for: a file written before exports carried them
 * (or one that leaves a session out). Its messages count as extracted and summarized already;
 * extracting them again brought back memories the user had deleted, reinforced importances and
 * flipped corrected facts back, with history events that never happened.
 */
const ALL_DONE: ExportedSession = { id: '', processedSeq: Number.POSITIVE_INFINITY, summarizedSeq: Number.POSITIVE_INFINITY };

/** The file's session watermarks by session id; INVALID_INPUT naming a session given twice. */
function sessionWatermarks(e: UserExport): Map<string, ExportedSession> {
  const out = new Map<string, ExportedSession>();
  for (const [i, s] of (e.sessions ?? []).entries()) {
    if (out.has(s.id)) throw new InvalidInputError(`Invalid export: sessions.${i}: session ${s.id} is given twice`, { details: { issues: [`sessions.${i}: session ${s.id} is given twice`] } });
    out.set(s.id, s);
  }
  return out;
}

/** How many repeated records a refusal's message names (all of them are in its details). */
const MAX_NAMED = 20;

/**
 * Every record the file holds twice: the same id in one table, the same seq in one session, the
 * same profile version. An export never writes one; importing the copies made duplicates (a
 * memories array pasted three times was three of every memory) or failed in the store's words.
 */
function repeatsIn(e: UserExport): string[] {
  const issues: string[] = [];
  const check = (table: string, keys: readonly string[], what: (key: string) => string) => {
    const first = new Map<string, number>();
    for (const [i, key] of keys.entries()) {
      const at = first.get(key);
      if (at === undefined) first.set(key, i);
      else issues.push(`${table}.${i}: ${what(key)} is also ${table}.${at}'s`);
    }
  };
  for (const table of ['memories', 'history', 'relations', 'todos', 'messages'] as const) check(table, e[table].map((r) => r.id), (id) => `id ${id}`);
  check('messages', e.messages.map((m) => JSON.stringify([m.sessionId, m.seq])), (k) => {
    const [sessionId, seq] = JSON.parse(k) as [string, number];
    return `seq ${seq} of session ${sessionId}`;
  });
  check('profiles', e.profiles.map((p) => String(p.version)), (v) => `version ${v}`);
  return issues;
}

/** What a user already has that an import would mix with (settings are preferences, merged by the import). */
async function dataOf(store: Store, userId: string): Promise<string[]> {
  const held: string[] = [];
  if ((await store.countMemories({ userId, statuses: ['active', 'archived', 'deleted'] })) > 0) held.push('memories');
  if ((await store.listMessages({ userId, limit: 1 })).length > 0) held.push('messages');
  if ((await store.listTodos({ userId, limit: 1 })).length > 0) held.push('todos');
  if ((await store.latestProfile(userId)) !== null) held.push('a profile');
  return held;
}

/**
 * The refusal of an import into a user who has data: 409 CONFLICT. `userId` is the id to show; the
 * HTTP route builds it again with the caller's own id in place of the engine's tenant-scoped one.
 */
export function userNotEmptyError(userId: string, held: readonly string[], options: { cause?: unknown } = {}): EngramError {
  const what = held.length > 1 ? `${held.slice(0, -1).join(', ')} and ${held.at(-1)}` : held.join('');
  return new EngramError('CONFLICT', `User ${userId} already has ${what} here; import into an empty user or forget the user first`, { ...options, details: { userId, held: [...held] } });
}

/**
 * Restores an export as one user: every memory, history event, relation, profile version, todo,
 * message and setting is stored under the importing user, whatever the file says; ids already
 * used by anyone are re-issued (and references to them follow); settings are validated like
 * setSettings. Refuses a user who already has memories, messages, todos or a profile (an import
 * restores a user, it does not merge two), a file with keys an export does not write or texts
 * longer than their limits, and input nested deeper than any export.
 */
export async function importUser(deps: MemoryDeps, data: unknown, options: ImportOptions = {}): Promise<ImportReport> {
  const problem = jsonProblem(data, MAX_EXPORT_DEPTH);
  if (problem) throw new InvalidInputError(`Invalid export: ${problem}`);
  const e = parseExport(reviveDates(data));
  const repeated = repeatsIn(e);
  if (repeated.length > 0) throw new InvalidInputError(`Invalid export: ${[...repeated.slice(0, MAX_NAMED), ...(repeated.length > MAX_NAMED ? [`and ${repeated.length - MAX_NAMED} more`] : [])].join('; ')}`, { details: { issues: repeated } });
  const watermarks = sessionWatermarks(e);
  const userId = options.userId ?? e.userId;
  // The engine's id, which a server scopes to its tenant: longer than a caller's own may be.
  assertUserId(userId, 'userId', MAX_STORED_USER_ID_LENGTH);
  let settings;
  try {
    settings = validateSettingsPatch(e.settings);
  } catch (cause) {
    throw new InvalidInputError(`Invalid export: its settings do not validate (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
  const held = await dataOf(deps.store, userId);
  if (held.length > 0) throw userNotEmptyError(userId, held);

  const rows = [e.memories, e.history, e.relations, e.profiles, e.todos, e.messages].flat();
  const rewrittenOwners = rows.filter((r) => r.userId !== userId).length;
  const inFile = new Set(e.memories.map((m) => m.id));
  // A purged memory is not in the file but its history is, closed by a purge event; any other
  // event of a memory the file does not hold is about nothing the user has.
  const purged = new Set(e.history.filter((h) => h.action === 'purge').map((h) => h.memoryId));
  const keptHistory = e.history.filter((h) => inFile.has(h.memoryId) || purged.has(h.memoryId));
  const kept = e.relations.filter((r) => inFile.has(r.sourceId) && inFile.has(r.targetId));
  const taken = (table: 'memories' | 'history' | 'relations' | 'todos', rows: ReadonlyArray<{ id: string }>) => deps.store.takenIds(table, rows.map((r) => r.id));
  const memoryIds = reissue(deps, e.memories.map((m) => m.id), await taken('memories', e.memories));
  const historyIds = reissue(deps, keptHistory.map((h) => h.id), await taken('history', keptHistory));
  const relationIds = reissue(deps, kept.map((r) => r.id), await taken('relations', kept));
  const todoIds = reissue(deps, e.todos.map((t) => t.id), await taken('todos', e.todos));
  // Message ids are the user's own (an empty user holds none): only a copy in the file needs a new one.
  const messageIds = reissue(deps, e.messages.map((m) => m.id), new Set());
  const reissuedIds = memoryIds.count + historyIds.count + relationIds.count + todoIds.count + messageIds.count;

  const memories = e.memories.map((m, i) => ({ ...m, id: memoryIds.ids[i]!, userId, embedderId: deps.embedder.id }));
  const newMemoryId = (id: string): string => memoryIds.refs.get(id) ?? id;
  const history = keptHistory.map((h, i) => ({ ...h, id: historyIds.ids[i]!, memoryId: newMemoryId(h.memoryId), userId }));
  const relations = kept.map((r, i) => ({ ...r, id: relationIds.ids[i]!, sourceId: newMemoryId(r.sourceId), targetId: newMemoryId(r.targetId), userId }));
  const todos = e.todos.map((t, i) => ({
    ...t,
    id: todoIds.ids[i]!,
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
  const messageVectors = await embed(e.messages.map((m) => m.content));
  const bySession = new Map<string, Array<Message & { vector: Float32Array | null }>>();
  for (const [i, m] of e.messages.entries()) {
    bySession.set(m.sessionId, [...(bySession.get(m.sessionId) ?? []), { ...m, id: messageIds.ids[i]!, userId, vector: messageVectors[i] ?? null }]);
  }
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
    const now = deps.clock.now();
    for (const [sessionId, messages] of bySession) {
      messages.sort((a, b) => a.seq - b.seq);
      const stored = await tx.appendMessages(userId, sessionId, messages.map((m) => ({ ...m, embedderId: deps.embedder.id })));
      // The store numbers the messages again (from 0, without the gaps of purged ones): each
      // watermark moves to the stored seq of the last message it covered in the file.
      const marks = watermarks.get(sessionId) ?? ALL_DONE;
      const through = (seq: number): Message | undefined => stored[messages.findLastIndex((m) => m.seq <= seq)];
      const processed = through(marks.processedSeq);
      if (processed) await tx.markProcessed(userId, sessionId, processed.seq, processed.id, now);
      const summarized = through(marks.summarizedSeq);
      if (summarized) await tx.markSummarized(userId, sessionId, summarized.seq, null, 0);
      if (marks.endedAt) await tx.endSession(userId, sessionId, marks.endedAt);
    }
    if (Object.keys(settings).length > 0) await tx.setSettings(userId, settings);
  });
  options.onProgress?.(total, total);
  const report: ImportReport = { userId, memories: memories.length, messages: e.messages.length, rewrittenOwners, reissuedIds, droppedRelations: e.relations.length - kept.length, droppedHistory: e.history.length - keptHistory.length };
  if (rewrittenOwners > 0 || reissuedIds > 0) deps.logger.warn('import rewrote owners or ids', { ...report });
  if (report.droppedHistory > 0) deps.logger.warn('import dropped history of memories not in the file', { userId, dropped: e.history.filter((h) => !keptHistory.includes(h)).map((h) => h.id) });
  return report;
}
