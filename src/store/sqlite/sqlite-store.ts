import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { IdGenerator } from '../../deps.js';
import { randomIds } from '../../deps.js';
import type { Message, Session } from '../../domain/conversation.js';
import type { ChangeContext, HistoryEvent } from '../../domain/history.js';
import type { Memory } from '../../domain/memory.js';
import type { Profile, Relation } from '../../domain/profile.js';
import type { Todo } from '../../domain/todo.js';
import { EmbedderMismatchError, EngramError } from '../../errors.js';
import { Mutex } from '../mutex.js';
import type { Collection, VectorStatus, ExtractionRun, EmbedderInfo, KeywordSearch, MemoryChanges, MemoryQuery, MessageQuery, NewStoredMessage, SearchHit, Store, VectorSearch } from '../store.js';
import { ExtractionTables } from './extraction-tables.js';
import { ForgetFence } from './forget-fence.js';
import { KeywordIndex } from './keyword-index.js';
import { LifecycleTables } from './lifecycle-tables.js';
import { MemoryTables } from './memory-tables.js';
import { MessageTables } from './message-tables.js';
import { migrate } from './schema.js';
import { toStoreError, typed } from './store-errors.js';
import { TodoTables } from './todo-tables.js';
import { BoundVectors, MEMORY_VEC, MESSAGE_VEC } from './bound-vectors.js';
import { DEFAULT_CHUNK_SIZE, VectorIndex } from './vector-index.js';

export interface SqliteStoreOptions {
  /** File path, or ":memory:". @default "engram.db" */
  path?: string;
  /** vec0 chunk size (rows reserved per user partition; see vector-index.ts). @default 8 */
  chunkSize?: number;
  ids?: IdGenerator;
  /** How long to wait for another process's write lock. @default 5000 */
  busyTimeoutMs?: number;
}


/**
 * The embedded default store: SQLite (WAL) through better-sqlite3, vectors in sqlite-vec,
 * keywords in FTS5. better-sqlite3 is synchronous; a mutex keeps an async transaction's
 * statements from interleaving with other calls on the same connection, and SQLite's own
 * locking (BEGIN IMMEDIATE + busy timeout) serialises writers across processes.
 */
export function openSqliteStore(options: SqliteStoreOptions = {}): Store {
  const path = options.path ?? 'engram.db';
  const db = typed(() => new Database(path), `opening the database ${path}`);
  try {
    // The busy timeout first: switching to WAL and migrating wait for other processes opening the same file.
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    typed(() => db.pragma('journal_mode = WAL'), 'switching to WAL');
    // FULL: a commit is synced to disk before it is acknowledged, so it survives a power cut
    // (NORMAL in WAL mode may lose the last commits). The cost is one fsync per write transaction.
    db.pragma('synchronous = FULL');
    db.pragma('secure_delete = ON');
    db.pragma('foreign_keys = ON');
    typed(() => sqliteVec.load(db), 'loading sqlite-vec');
    migrate(db);
  } catch (error) {
    db.close();
    const typedError = toStoreError(error, 'opening the database');
    if (typedError.code !== 'STORE_FAILED') throw typedError;
    const cause = typedError.cause instanceof Error ? typedError.cause.message : typedError.message;
    throw new EngramError('STORE_FAILED', `Could not open the database ${path}: ${cause}`, { cause: typedError.cause ?? error, details: typedError.details });
  }
  return new SqliteStore(db, new Mutex(), options.ids ?? randomIds, options.chunkSize ?? DEFAULT_CHUNK_SIZE, false);
}

interface Shared {
  keywords: KeywordIndex;
  memories: MemoryTables;
  messages: MessageTables;
  extraction: ExtractionTables;
  todos: TodoTables;
  lifecycle: LifecycleTables;
  bound: BoundVectors;
}

function sharedTables(db: Database.Database, ids: IdGenerator): Shared {
  const todos = new TodoTables(db);
  const keywords = new KeywordIndex(db, 'memory_fts');
  const lifecycle = new LifecycleTables(db, todos);
  const bound = new BoundVectors(db);
  return {
    keywords,
    memories: new MemoryTables(db, keywords, ids, () => bound.current()),
    messages: new MessageTables(db),
    extraction: new ExtractionTables(db),
    todos,
    lifecycle,
    bound,
  };
}

class SqliteStore implements Store {
  private readonly keywords: KeywordIndex;
  private readonly memories: MemoryTables;
  private readonly messages: MessageTables;
  private readonly fence: ForgetFence;

  constructor(
    readonly db: Database.Database,
    private readonly mutex: Mutex,
    private readonly ids: IdGenerator,
    private readonly chunkSize: number,
    private readonly inTransaction: boolean,
    /** Shared with the transaction views of this store, so a bind is seen by all. */
    private readonly shared: Shared = sharedTables(db, ids),
  ) {
    this.keywords = shared.keywords;
    this.memories = shared.memories;
    this.messages = shared.messages;
    this.fence = new ForgetFence(db);
  }

  private vec(collection: Collection = 'memories'): VectorIndex | null {
    return this.shared.bound.current()?.[collection] ?? null;
  }

  /** Runs synchronous work under the connection lock (or directly inside a transaction). */
  private run<T>(fn: () => T): Promise<T> {
    if (this.inTransaction) return Promise.resolve().then(() => typed(fn));
    return this.mutex.run(() => typed(fn));
  }

  private meta(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM engram_meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  private setMeta(key: string, value: string): void {
    this.db.prepare('INSERT INTO engram_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  embedderInfo(): Promise<EmbedderInfo | null> {
    return this.run(() => {
      const id = this.meta('embedder_id');
      const dims = this.meta('embedder_dimensions');
      return id === undefined || dims === undefined ? null : { id, dimensions: Number(dims) };
    });
  }

  bindEmbedder(info: EmbedderInfo, options: { replace?: boolean } = {}): Promise<void> {
    return this.run(() => {
      // Read and decided inside the write lock: two processes binding a fresh file at once must
      // not both create (and so drop) the vector tables.
      const bind = this.db.transaction(() => {
        const current = this.meta('embedder_id');
        if (current === info.id && Number(this.meta('embedder_dimensions')) === info.dimensions) return;
        if (current !== undefined && !options.replace) throw new EmbedderMismatchError(current, info.id);
        for (const table of [MEMORY_VEC, MESSAGE_VEC]) {
          VectorIndex.drop(this.db, table);
          VectorIndex.create(this.db, table, info.dimensions, this.chunkSize, 'l2');
        }
        this.setMeta('vector_metric', 'l2');
        this.db.prepare('UPDATE memories SET embedder_id = NULL').run();
        this.db.prepare('UPDATE messages SET embedder_id = NULL').run();
        this.setMeta('embedder_id', info.id);
        this.setMeta('embedder_dimensions', String(info.dimensions));
      });
      bind.immediate();
      this.shared.bound.invalidate();
    });
  }

  private requireVectors(collection: Collection = 'memories'): VectorIndex {
    const v = this.vec(collection);
    if (!v) throw new EngramError('STORE_FAILED', 'No embedder is bound to this store yet (bindEmbedder first)');
    return v;
  }

  insertMemory(memory: Memory, vector: Float32Array | null, change: ChangeContext): Promise<void> {
    return this.run(() => this.memories.insertMemory(memory, vector, change));
  }

  updateMemory(userId: string, id: string, changes: MemoryChanges, vector: Float32Array | null | undefined, change: ChangeContext): Promise<Memory> {
    return this.run(() => this.memories.updateMemory(userId, id, changes, vector, change));
  }

  purgeMemory(userId: string, id: string, change: ChangeContext): Promise<void> {
    return this.run(() =>
      this.db.transaction(() => {
        // What was said about it goes too: the purge event carries no reason, and earlier events
        // lose their reasons and message links; its todo (with pending deliveries) and relations go.
        this.memories.purgeMemory(userId, id, { ...change, reason: undefined, messageIds: [] });
        this.db.prepare("UPDATE memory_history SET reason = NULL, message_ids = '[]' WHERE user_id = ? AND memory_id = ?").run(userId, id);
        this.db.prepare('DELETE FROM reminder_deliveries WHERE user_id = ? AND todo_id IN (SELECT id FROM todos WHERE user_id = ? AND memory_id = ?)').run(userId, userId, id);
        this.db.prepare('DELETE FROM todos WHERE user_id = ? AND memory_id = ?').run(userId, id);
        this.db.prepare('DELETE FROM memory_relations WHERE user_id = ? AND (source_id = ? OR target_id = ?)').run(userId, id, id);
        this.fence.bump(userId);
      })(),
    );
  }

  forgetGeneration(userId: string): Promise<number> {
    return this.run(() => this.fence.get(userId));
  }

  getMemory(userId: string, id: string): Promise<Memory | null> {
    return this.run(() => this.memories.getMemory(userId, id));
  }

  listMemories(q: MemoryQuery): Promise<Memory[]> {
    return this.run(() => this.memories.listMemories(q));
  }

  countMemories(q: MemoryQuery): Promise<number> {
    return this.run(() => this.memories.countMemories(q));
  }

  history(userId: string, memoryId: string): Promise<HistoryEvent[]> {
    return this.run(() => this.memories.history(userId, memoryId));
  }

  historyOfUser(userId: string): Promise<HistoryEvent[]> {
    return this.run(() => this.memories.historyOfUser(userId));
  }

  relationsOfUser(userId: string): Promise<Relation[]> {
    return this.run(() => this.shared.lifecycle.relationsOfUser(userId));
  }

  takenIds(table: 'memories' | 'history' | 'relations' | 'todos', ids: readonly string[]): Promise<Set<string>> {
    const name = { memories: 'memories', history: 'memory_history', relations: 'memory_relations', todos: 'todos' }[table];
    return this.run(() => {
      const find = this.db.prepare(`SELECT 1 FROM ${name} WHERE id = ?`).pluck();
      return new Set(ids.filter((id) => find.get(id) !== undefined));
    });
  }

  importMemory(memory: Memory | null, vector: Float32Array | null, history: readonly HistoryEvent[]): Promise<void> {
    return this.run(() => this.memories.importMemory(memory, vector, history));
  }

  recordAccess(userId: string, ids: readonly string[], at: Date): Promise<void> {
    return this.run(() => this.memories.recordAccess(userId, ids, at));
  }

  searchVector(q: VectorSearch): Promise<SearchHit[]> {
    return this.run(() => this.memories.searchVector(q));
  }

  searchKeyword(q: KeywordSearch): Promise<SearchHit[]> {
    return this.run(() => this.memories.searchKeyword(q));
  }

  vectorsOf(userId: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.run(() => this.memories.vectorsOf(userId, ids));
  }

  pendingVectors(collection: Collection, limit: number): Promise<Array<{ userId: string; id: string; content: string }>> {
    return this.run(() => {
      const rows = this.db
        .prepare(`SELECT user_id, id, content FROM ${collection} WHERE ${this.pendingWhere(collection)} ORDER BY rid LIMIT ?`)
        .all(this.meta('embedder_id') ?? null, limit) as Array<{ user_id: string; id: string; content: string }>;
      return rows.map((r) => ({ userId: r.user_id, id: r.id, content: r.content }));
    });
  }

  /**
   * Rows without a vector from the bound embedder: never embedded, embedded by another one, or
   * (files written by older versions) marked embedded although their vector is missing.
   */
  private pendingWhere(collection: Collection): string {
    const vec = collection === 'memories' ? MEMORY_VEC : MESSAGE_VEC;
    const bound = this.shared.bound.current() !== null;
    return `(embedder_id IS NULL OR embedder_id != ?${bound ? ` OR NOT EXISTS (SELECT 1 FROM ${vec} v WHERE v.rid = ${collection}.rid)` : ''})`;
  }

  vectorStatus(): Promise<VectorStatus> {
    return this.run(() => {
      const current = this.meta('embedder_id') ?? null;
      const dims = this.meta('embedder_dimensions');
      const count = (collection: Collection, where: string) => (this.db.prepare(`SELECT count(*) AS n FROM ${collection} WHERE ${where}`).get(...(where === '1' ? [] : [current])) as { n: number }).n;
      const pending = { memories: count('memories', this.pendingWhere('memories')), messages: count('messages', this.pendingWhere('messages')) };
      return {
        embedder: current === null || dims === undefined ? null : { id: current, dimensions: Number(dims) },
        total: { memories: count('memories', '1'), messages: count('messages', '1') },
        pending,
        complete: pending.memories + pending.messages === 0,
      };
    });
  }

  setVectors(collection: Collection, rows: ReadonlyArray<{ userId: string; id: string; vector: Float32Array }>, embedderId: string): Promise<void> {
    return this.run(() => {
      const vec = this.requireVectors(collection);
      const find = this.db.prepare(`SELECT rid, ${collection === 'memories' ? 'status' : "'active' AS status"} FROM ${collection} WHERE user_id = ? AND id = ?`);
      const mark = this.db.prepare(`UPDATE ${collection} SET embedder_id = ? WHERE rid = ?`);
      this.db.transaction(() => {
        // Fenced: another process may have re-bound the store to another embedder meanwhile.
        const bound = this.shared.bound.current();
        if (bound === null || bound.id !== embedderId) throw new EmbedderMismatchError(bound?.id ?? 'none', embedderId);
        for (const r of rows) {
          if (r.vector.length !== bound.dimensions) throw new EmbedderMismatchError(bound.id, `${embedderId} (${r.vector.length} dimensions)`);
          const row = find.get(r.userId, r.id) as { rid: number; status: string } | undefined;
          if (!row) continue;
          vec.upsert(row.rid, r.userId, row.status, r.vector);
          mark.run(embedderId, row.rid);
        }
      }).immediate();
    });
  }

  appendMessages(userId: string, sessionId: string, messages: ReadonlyArray<NewStoredMessage>): Promise<Message[]> {
    return this.run(() => this.db.transaction(() => this.messages.append(userId, sessionId, messages, this.shared.bound.current())).immediate());
  }

  getSession(userId: string, sessionId: string): Promise<Session | null> {
    return this.run(() => this.messages.session(userId, sessionId));
  }

  listMessages(query: MessageQuery): Promise<Message[]> {
    return this.run(() => this.messages.list(query));
  }

  messageNeighbours(userId: string, ids: readonly string[], radius: number): Promise<Message[]> {
    return this.run(() => this.messages.neighbours(userId, ids, radius));
  }

  searchMessageVector(q: Omit<VectorSearch, 'statuses'> & { sessionId?: string }): Promise<SearchHit[]> {
    return this.run(() => {
      const bound = this.shared.bound.current();
      if (bound && q.vector.length !== bound.dimensions) throw new EmbedderMismatchError(bound.id, `an embedder of ${q.vector.length} dimensions`);
      const hits = this.requireVectors('messages').search(q.userId, q.vector, q.sessionId === undefined ? q.k : q.k * 4, ['active']);
      const ids = this.messages.idsOf(q.userId, hits.map((h) => h.rowid), q.sessionId);
      return hits.flatMap((h) => (ids.has(h.rowid) ? [{ id: ids.get(h.rowid)!, score: h.score }] : [])).slice(0, q.k);
    });
  }

  searchMessageKeyword(q: Omit<KeywordSearch, 'statuses'> & { sessionId?: string }): Promise<SearchHit[]> {
    return this.run(() => this.messages.keyword(q.userId, q.terms, q.k, q.bm25, q.sessionId));
  }

  messageVectorsOf(userId: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.run(() => {
      const out = new Map<string, Float32Array>();
      const vec = this.vec('messages');
      if (!vec) return out;
      const rows = this.messages.rowidsOf(userId, ids);
      const vectors = vec.vectorsOf(userId, rows.map((r) => r.rid));
      for (const r of rows) {
        const v = vectors.get(r.rid);
        if (v) out.set(r.id, v);
      }
      return out;
    });
  }

  deleteExpiredMessages(now: Date): Promise<number> {
    return this.run(() => this.db.transaction(() => this.messages.deleteExpired(now, this.vec('messages'))).immediate());
  }

  purgeMessages(userId: string, ids: readonly string[]): Promise<number> {
    return this.run(() => this.db.transaction(() => this.messages.purge(userId, ids, this.vec('messages'))).immediate());
  }

  acquireSessionLease(userId: string, sessionId: string, owner: string, now: Date, until: Date, options: { isAbandoned?: (owner: string) => boolean } = {}): Promise<number | null> {
    return this.run(() => this.shared.extraction.acquireLease(userId, sessionId, owner, now, until, options.isAbandoned));
  }

  renewSessionLease(userId: string, sessionId: string, owner: string, token: number, until: Date): Promise<boolean> {
    return this.run(() => this.shared.extraction.renewLease(userId, sessionId, owner, token, until));
  }

  holdsSessionLease(userId: string, sessionId: string, owner: string, token: number): Promise<boolean> {
    return this.run(() => this.shared.extraction.holdsLease(userId, sessionId, owner, token));
  }

  releaseSessionLease(userId: string, sessionId: string, owner: string, token?: number): Promise<void> {
    return this.run(() => this.shared.extraction.releaseLease(userId, sessionId, owner, token));
  }

  sessionsWithBacklog(limit: number): Promise<Array<{ session: Session; unprocessed: number }>> {
    return this.run(() => this.shared.extraction.backlog(limit));
  }

  markProcessed(userId: string, sessionId: string, throughSeq: number, messageId: string, at: Date): Promise<void> {
    return this.run(() => this.shared.extraction.markProcessed(userId, sessionId, throughSeq, messageId, at));
  }

  recordExtractionFailure(userId: string, sessionId: string, failure: { error: string; failures: number; state: 'retrying' | 'failed'; nextAttemptAt: Date }): Promise<void> {
    return this.run(() => this.shared.extraction.recordFailure(userId, sessionId, failure));
  }

  endSession(userId: string, sessionId: string, at: Date): Promise<void> {
    return this.run(() => this.shared.extraction.endSession(userId, sessionId, at));
  }

  recordExtractionRun(run: ExtractionRun): Promise<void> {
    return this.run(() => this.shared.extraction.recordRun(run));
  }

  listExtractionRuns(userId: string, sessionId: string): Promise<ExtractionRun[]> {
    return this.run(() => this.shared.extraction.runs(userId, sessionId));
  }

  getSettings(userId: string): Promise<Record<string, unknown>> {
    return this.run(() => this.shared.extraction.settings(userId));
  }

  setSettings(userId: string, values: Record<string, unknown>): Promise<void> {
    return this.run(() => this.shared.extraction.setSettings(userId, values));
  }

  insertTodo(todo: Todo): Promise<void> {
    return this.run(() => this.shared.todos.insert(todo));
  }

  listTodos(query: { userId: string; completed?: boolean; dueBefore?: Date; limit?: number }): Promise<Todo[]> {
    return this.run(() => this.shared.todos.list(query));
  }

  updateTodo(userId: string, id: string, changes: Partial<Pick<Todo, 'completed' | 'completedAt' | 'reminded' | 'dueAt' | 'remindAt' | 'content'>>): Promise<Todo> {
    return this.run(() => this.shared.todos.update(userId, id, changes));
  }

  deleteTodo(userId: string, id: string): Promise<void> {
    return this.run(() => this.shared.todos.delete(userId, id));
  }

  insertRelation(relation: Relation): Promise<void> {
    return this.run(() => this.shared.lifecycle.insertRelation(relation));
  }

  relationsOf(userId: string, memoryId: string): Promise<Relation[]> {
    return this.run(() => this.shared.lifecycle.relationsOf(userId, memoryId));
  }

  deleteRelation(userId: string, id: string): Promise<boolean> {
    return this.run(() => this.shared.lifecycle.deleteRelation(userId, id));
  }

  latestProfile(userId: string): Promise<Profile | null> {
    return this.run(() => this.shared.lifecycle.latestProfile(userId));
  }

  profileVersions(userId: string): Promise<Profile[]> {
    return this.run(() => this.shared.lifecycle.profileVersions(userId));
  }

  insertProfile(profile: Profile): Promise<void> {
    return this.run(() => this.shared.lifecycle.insertProfile(profile));
  }

  deleteProfileVersions(userId: string, versions: readonly number[]): Promise<void> {
    return this.run(() => this.shared.lifecycle.deleteProfileVersions(userId, versions));
  }

  sessionsToSummarize(limit: number): Promise<Array<{ session: Session; unsummarized: number }>> {
    return this.run(() => this.shared.lifecycle.sessionsToSummarize(limit));
  }

  markSummarized(userId: string, sessionId: string, throughSeq: number, retryAt: Date | null, failures: number): Promise<void> {
    return this.run(() => this.shared.lifecycle.markSummarized(userId, sessionId, throughSeq, retryAt, failures));
  }

  dueReminders(now: Date, limit: number): Promise<Todo[]> {
    return this.run(() => this.shared.lifecycle.dueReminders(now, limit));
  }

  recordDelivery(userId: string, todoId: string, deliveryId: string, at: Date): Promise<boolean> {
    return this.run(() => this.db.transaction(() => this.shared.lifecycle.recordDelivery(userId, todoId, deliveryId, at)).immediate());
  }

  recordDeliveryFailure(userId: string, todoId: string, error: string, nextAt: Date): Promise<void> {
    return this.run(() => this.shared.lifecycle.recordDeliveryFailure(userId, todoId, error, nextAt));
  }

  userIds(): Promise<string[]> {
    return this.run(() => this.shared.lifecycle.userIds());
  }

  forgetUser(userId: string): Promise<Record<string, number>> {
    return this.run(() => {
      const counts = this.db.transaction(() => {
        const counts: Record<string, number> = {};
        for (const [table, collection, keywords] of [['memories', 'memories', this.keywords], ['messages', 'messages', this.messages.keywords]] as const) {
          const rids = this.db.prepare(`SELECT rid FROM ${table} WHERE user_id = ?`).all(userId) as Array<{ rid: number }>;
          const vec = this.vec(collection);
          for (const { rid } of rids) vec?.remove(rid);
          keywords.removeUser(userId);
          counts[table] = rids.length;
        }
        for (const table of ['memories', 'messages', 'memory_history', 'sessions', 'todos', 'reminder_deliveries', 'settings', 'extraction_runs', 'memory_relations', 'profiles', 'keyword_stats']) {
          counts[table] = this.db.prepare(`DELETE FROM ${table} WHERE user_id = ?`).run(userId).changes;
        }
        this.fence.bump(userId);
        return counts;
      }).immediate();
      // secure_delete zeroes the freed pages in the file; the WAL still holds the old pages until a
      // checkpoint copies them back, so copy and truncate it now rather than at close.
      if (!this.inTransaction) this.db.pragma('wal_checkpoint(TRUNCATE)');
      return counts;
    });
  }

  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    return this.mutex.run(async () => {
      const tx = new SqliteStore(this.db, this.mutex, this.ids, this.chunkSize, true, this.shared);
      typed(() => this.db.exec('BEGIN IMMEDIATE'), 'BEGIN IMMEDIATE');
      try {
        const result = await fn(tx);
        typed(() => this.db.exec('COMMIT'), 'COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  backup(path: string): Promise<{ path: string; pages: number }> {
    // Under the connection lock, so close() cannot run mid-copy; other processes keep writing
    // (the backup restarts on their changes and ends with a consistent snapshot).
    return this.mutex.run(async () => {
      try {
        const { totalPages } = await this.db.backup(path);
        return { path, pages: totalPages };
      } catch (error) {
        throw toStoreError(error, `backup to ${path}`);
      }
    });
  }

  close(): Promise<void> {
    return this.mutex.run(() => {
      if (this.db.open) this.db.close();
    });
  }
}
