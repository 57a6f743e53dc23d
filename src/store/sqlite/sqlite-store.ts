import type { DeliverySettlement } from '../ports/todos.js';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { chmodSync, existsSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { IdGenerator } from '../../deps.js';
import { randomIds } from '../../deps.js';
import type { Message } from '../../domain/conversation.js';
import type { ChangeContext } from '../../domain/history.js';
import { EmbedderMismatchError, EngramError } from '../../errors.js';
import { Mutex } from '../mutex.js';
import type { Collection, VectorStatus, EmbedderInfo, KeywordSearch, NewStoredMessage, RestoredMessage, SearchHit, Store, UpdateCondition, VectorSearch } from '../store.js';
import type { KeptVectors } from '../ports/vectors.js';
import { ForgetFence } from './forget-fence.js';
import type { KeywordCacheOptions } from './keyword-cache.js';
import type { KeywordIndex } from './keyword-index.js';
import type { MemoryTables } from './memory-tables.js';
import type { MessageTables } from './message-tables.js';
import type { MessageCacheOptions } from './message-cache.js';
import type { RankingCacheOptions } from './ranking-cache.js';
import { migrate } from './schema.js';
import { limitClause, readOnce } from './statements.js';
import { sharedTables, sqliteRoles, type Shared, type SqliteRoles } from './sqlite-roles.js';
import { toStoreError, typed } from './store-errors.js';
import { MEMORY_VEC, MESSAGE_VEC } from './bound-vectors.js';
import { changeFeed } from './change-feed.js';
import { DEFAULT_CHUNK_SIZE, VectorIndex, type VectorSearchOptions } from './vector-index.js';
import { noActivity, type Activity } from '../../util/activity.js';
import { startBackgroundCheckpoints, type BackgroundCheckpoints } from './background-checkpoints.js';

/**
 * What a failed idle cache refresh leaves: nothing changed, the rows stay marked dirty, and the
 * next read of that cache does the same work in its own call and reports its own error there.
 */
const leftToTheNextRead = (_error: unknown): void => undefined;

/** Accesses written per transaction by the delayed flush (a close or a backup writes them all). */
const ACCESS_FLUSH_CHUNK = 100;

export interface SqliteStoreOptions {
  /** File path, or ":memory:". @default "engram.db" */
  path?: string;
  /** vec0 chunk size (rows reserved per user partition; see vector-index.ts). @default 8 */
  chunkSize?: number;
  ids?: IdGenerator;
  /** How long to wait for another process's write lock. @default 5000 */
  busyTimeoutMs?: number;
  /**
   * Recall's access records (lastAccessedAt, accessCount) are held this long, then written 100
   * to a transaction with the event loop free between them; this process reads them at once,
   * others after the write, and close() writes what is left. 0 writes each recall's at once (one
   * fsync per recall). @default 1000
   */
  accessFlushMs?: number;
  /**
   * The process's requests in flight (the server's): the delayed access writes wait for a moment
   * with none, accessFlushMs longer at most, so a write never stalls a chat request that could
   * have gone first. @default noActivity (written on the next turn of the event loop)
   */
  activity?: Activity;
  /**
   * Who copies the write-ahead log back into the database file. 'auto': SQLite's default, the
   * commit that finds 1,000 pages in the log, held 10–25 ms for it. 'background': a worker thread
   * with a connection of its own, every `checkpointIntervalMs`, holding up nobody (see
   * background-checkpoints.ts); what the server uses. A file only (":memory:" has no log). Where
   * the worker's script is missing (a bundle without checkpoint-worker.js beside this module) the
   * store goes back to 'auto' with a warning.
   * @default 'auto'
   */
  checkpoint?: 'auto' | 'background';
  /** How often the background checkpoint runs. @default 1000 */
  checkpointIntervalMs?: number;
  /** How vector search runs (two-stage or exact, candidate counts, cache size): see VectorSearchOptions. */
  vectorSearch?: VectorSearchOptions;
  /** Whether searched users' keyword postings are kept in memory, and how much: see KeywordCacheOptions. */
  keywordSearch?: KeywordCacheOptions;
  /** Whether searched users' memory ranking fields are kept in memory, and how much: see RankingCacheOptions. */
  rankingCache?: RankingCacheOptions;
  /** Whether searched users' message rows are kept in memory, and how much: see MessageCacheOptions. */
  messageCache?: MessageCacheOptions;
}

/**
 * The embedded default store: SQLite (WAL) through better-sqlite3, vectors in sqlite-vec,
 * keywords in FTS5. better-sqlite3 is synchronous; a mutex keeps an async transaction's
 * statements from interleaving with other calls on the same connection, and SQLite's own
 * locking (BEGIN IMMEDIATE + busy timeout) serialises writers across processes.
 */
export function openSqliteStore(options: SqliteStoreOptions = {}): Store {
  const path = options.path ?? 'engram.db';
  const created = path !== ':memory:' && path !== '' && !existsSync(path);
  const db = typed(() => new Database(path), `opening the database ${path}`);
  // Everything a user said is in it: a new file is the owner's alone (SQLite gives its WAL the same mode).
  if (created) typed(() => chmodSync(path, 0o600), `restricting the database ${path} to its owner`);
  try {
    // The busy timeout first: switching to WAL and migrating wait for other processes opening the same file.
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    typed(() => toWal(db, busyTimeoutMs), 'switching to WAL');
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
  const ids = options.ids ?? randomIds;
  const shared = prepareTables(db, () => sharedTables(db, ids, options.vectorSearch, options.keywordSearch, options.rankingCache, options.messageCache));
  const store = new SqliteStore(db, new Mutex(), ids, options.chunkSize ?? DEFAULT_CHUNK_SIZE, false, shared);
  store.accessFlushMs = options.accessFlushMs ?? 1000;
  store.activity = options.activity ?? noActivity;
  if (options.checkpoint === 'background' && !db.memory) store.checkpoints = startBackgroundCheckpoints(db, resolvePath(db.name), { intervalMs: options.checkpointIntervalMs });
  return store;
}

/**
 * Copies the WAL into the database file and truncates it. SQLite answers "busy" at once, without
 * waiting, while another connection checkpoints (the background checkpoints' worker, another
 * process): tried again for up to the busy timeout, as a reader would be waited for, so what an
 * erase zeroed does not stay readable in the log.
 */
function truncateWal(db: Database.Database): void {
  const deadline = Date.now() + (db.pragma('busy_timeout', { simple: true }) as number);
  for (let attempt = 1; ; attempt++) {
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
    if (!result || result.busy === 0 || Date.now() >= deadline) return;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(20, 2 * attempt));
  }
}

/** Runs `write` (one transaction of its own) with its commit not synced to disk; synchronous is FULL again after it. */
export function unsynced<T>(db: Database.Database, write: () => T): T {
  db.pragma('synchronous = NORMAL');
  try {
    return write();
  } finally {
    db.pragma('synchronous = FULL');
  }
}

/**
 * Switches a new file to WAL. Several processes opening one new file at once can meet in SQLite's
 * deadlock guard (each holds a shared lock and wants the exclusive one), which answers SQLITE_BUSY
 * at once without the busy handler: wait a little and try again, within the busy timeout. Seen in
 * the multi-process soak on a loaded machine; once the file is in WAL the switch takes no lock.
 */
function toWal(db: Database.Database, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(50, 5 * attempt));
    }
  }
}

/**
 * Prepares the tables' statements. Another process changing the schema at that moment (binding an
 * embedder creates the vector tables) can fail a prepare with SQLITE_SCHEMA: wait a little and
 * prepare again; any other failure closes the connection and is typed.
 */
function prepareTables(db: Database.Database, prepare: () => Shared): Shared {
  for (let attempt = 1; ; attempt++) {
    try {
      return prepare();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'SQLITE_SCHEMA' && attempt < 20) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5 * attempt);
        continue;
      }
      db.close();
      throw toStoreError(error, 'preparing the database statements');
    }
  }
}

/** The one-table methods, composed from the table classes' roles in constructor (sqlite-roles.ts). */
interface SqliteStore extends SqliteRoles {}

class SqliteStore implements Store {
  private readonly keywords: KeywordIndex;
  private readonly memories: MemoryTables;
  private readonly messages: MessageTables;
  private readonly fence: ForgetFence;
  /** Set in a transaction view when it erased something: the WAL is checkpointed after its commit. */
  private erasedInTransaction = false;
  /** See SqliteStoreOptions.accessFlushMs; transaction views write accesses as part of their transaction. */
  accessFlushMs = 0;
  /** See SqliteStoreOptions.activity. */
  activity: Activity = noActivity;
  private flushTimer: NodeJS.Timeout | undefined;
  private refreshPending = false;
  /** See SqliteStoreOptions.checkpoint: the worker that checkpoints, when it is 'background'. */
  checkpoints: BackgroundCheckpoints | undefined;

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
    Object.assign(this, sqliteRoles(shared, (fn) => this.run(fn), (fn) => this.read(fn)));
  }

  /**
   * After an erase: secure_delete zeroes the freed pages in the file, but the WAL still holds the
   * old pages until a checkpoint copies them back, so copy and truncate it now rather than at close
   * (after the commit, when inside a transaction).
   */
  private erased(): void {
    if (this.inTransaction) this.erasedInTransaction = true;
    else truncateWal(this.db);
  }

  private vec(collection: Collection = 'memories'): VectorIndex | null {
    return this.shared.bound.current()?.[collection] ?? null;
  }

  /** Runs synchronous work under the connection lock (or directly inside a transaction). */
  private run<T>(fn: () => T): Promise<T> {
    if (this.inTransaction) return Promise.resolve().then(() => typed(fn));
    const result = this.mutex.run(() => typed(fn));
    this.scheduleRefresh();
    return result;
  }

  /**
   * With a server's activity, the caches read again what this connection wrote (a recorded turn,
   * a reinforced memory) in the next moment without a request in flight, so the next request does
   * not: measured about 0.6 ms of a context build after each turn (the new messages' vectors are
   * point reads from vec0). Without an activity they are read again lazily, at the next use, as a
   * library's bulk writes would otherwise pay a refresh per write.
   */
  private scheduleRefresh(): void {
    if (this.refreshPending || this.activity === noActivity) return;
    this.refreshPending = true;
    this.activity.whenIdle(() => {
      this.refreshPending = false;
      this.mutex
        .run(() => (this.db.open ? typed(() => readOnce(this.db, () => this.refreshCaches()), 'refreshing the caches') : undefined))
        .catch(leftToTheNextRead);
    });
  }

  private refreshCaches(): void {
    const { memories, messages, keywords, bound } = this.shared;
    memories.ranking.refreshDirty();
    messages.rows.refreshDirty();
    keywords.refreshCache();
    messages.keywords.refreshCache();
    const binding = bound.current();
    binding?.memories.refreshCache();
    binding?.messages.refreshCache();
  }

  /** As `run`, for work that only reads and opens no transaction: the caches check the data version once (see `readOnce`). */
  private read<T>(fn: () => T): Promise<T> {
    return this.run(() => readOnce(this.db, fn));
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

  bindEmbedder(info: EmbedderInfo, options: { replace?: boolean; keep?: KeptVectors } = {}): Promise<void> {
    return this.run(() => {
      // Read and decided inside the write lock: two processes binding a fresh file at once must
      // not both create (and so drop) the vector tables.
      const bind = this.db.transaction(() => {
        const current = this.meta('embedder_id');
        if (current === info.id && Number(this.meta('embedder_dimensions')) === info.dimensions) return;
        if (current !== undefined && !options.replace) throw new EmbedderMismatchError(current, info.id);
        const keep = options.keep;
        if (keep && current === keep.from && Number(this.meta('embedder_dimensions')) === info.dimensions && this.meta('vector_metric') === 'l2') {
          // An upgrade that left short texts' vectors as they were: those stay, relabelled; the rest go, to be made again.
          for (const [collection, table] of [['memories', MEMORY_VEC], ['messages', MESSAGE_VEC]] as const) {
            this.db.prepare(`UPDATE ${collection} SET embedder_id = ? WHERE embedder_id = ? AND length(CAST(content AS BLOB)) <= ?`).run(info.id, keep.from, keep.maxBytes);
            const stale = this.db.prepare(`SELECT rid FROM ${collection} WHERE embedder_id IS NOT NULL AND embedder_id != ?`).pluck().all(info.id) as number[];
            const drop = this.db.prepare(`DELETE FROM ${table} WHERE rid = ?`);
            for (const rid of stale) drop.run(BigInt(rid));
            this.db.prepare(`UPDATE ${collection} SET embedder_id = NULL WHERE embedder_id IS NOT NULL AND embedder_id != ?`).run(info.id);
          }
          // Every connection's vector caches start again (their rows changed under them).
          changeFeed(this.db).recordReset();
          this.setMeta('embedder_id', info.id);
          return;
        }
        for (const table of [MEMORY_VEC, MESSAGE_VEC]) {
          VectorIndex.drop(this.db, table);
          VectorIndex.create(this.db, table, info.dimensions, this.chunkSize, 'l2');
        }
        this.setMeta('vector_metric', 'l2');
        this.db.prepare('UPDATE memories SET embedder_id = NULL').run();
        this.db.prepare('UPDATE messages SET embedder_id = NULL').run();
        // Every connection's vector caches start again.
        changeFeed(this.db).recordReset();
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

  purgeMemory(userId: string, id: string, change: ChangeContext, condition?: UpdateCondition): Promise<void> {
    return this.run(() => {
      this.db.transaction(() => {
        // What was said about it goes too: the purge event carries no reason, and earlier events
        // lose their reasons and message links; its todo (with pending deliveries) and relations go.
        this.memories.purgeMemory(userId, id, { ...change, reason: undefined, messageIds: [] }, condition);
        this.db.prepare("UPDATE memory_history SET reason = NULL, message_ids = '[]' WHERE user_id = ? AND memory_id = ?").run(userId, id);
        this.db.prepare('DELETE FROM reminder_deliveries WHERE user_id = ? AND todo_id IN (SELECT id FROM todos WHERE user_id = ? AND memory_id = ?)').run(userId, userId, id);
        this.db.prepare('DELETE FROM todos WHERE user_id = ? AND memory_id = ?').run(userId, id);
        this.db.prepare('DELETE FROM memory_relations WHERE user_id = ? AND (source_id = ? OR target_id = ?)').run(userId, id, id);
        this.fence.bump(userId);
      })();
      this.erased();
    });
  }

  forgetGeneration(userId: string): Promise<number> {
    return this.run(() => this.fence.get(userId));
  }

  takenIds(table: 'memories' | 'history' | 'relations' | 'todos', ids: readonly string[]): Promise<Set<string>> {
    const name = { memories: 'memories', history: 'memory_history', relations: 'memory_relations', todos: 'todos' }[table];
    return this.run(() => {
      const find = this.db.prepare(`SELECT 1 FROM ${name} WHERE id = ?`).pluck();
      return new Set(ids.filter((id) => find.get(id) !== undefined));
    });
  }

  recordAccess(userId: string, ids: readonly string[], at: Date): Promise<void> {
    if (this.inTransaction || this.accessFlushMs <= 0) return this.run(() => this.memories.recordAccess(userId, ids, at));
    return this.run(() => {
      this.memories.accesses.add(userId, ids, at);
      this.scheduleAccessFlush();
    });
  }

  private scheduleAccessFlush(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.activity.whenIdle(() => this.flushAccessChunk(), this.accessFlushMs);
    }, this.accessFlushMs);
    this.flushTimer.unref();
  }

  /**
   * Writes the next ACCESS_FLUSH_CHUNK accesses, then waits for the next idle moment (see
   * `activity`) before the next chunk: a second's accesses of a busy server (a thousand rows, about
   * 20 ms in one transaction) would otherwise hold up every request arriving meanwhile.
   * The chunk's commit is not synced to disk by itself (synchronous NORMAL for it alone): the
   * next synced commit, or checkpoint, syncs it with its own. A power cut may lose the last
   * seconds of access counts, never anything else; the sync was most of the write (p95 3.9 →
   * 1.6 ms, p99 7.2 → 2.6 ms for 100 rows with checkpoints in the background), and a request
   * arriving meanwhile waits for all of it.
   */
  private flushAccessChunk(): void {
    // A failed write (another process holding the lock past the busy timeout) keeps the accesses for the next try.
    this.mutex
      .run(() => (this.db.open ? typed(() => unsynced(this.db, () => this.memories.flushAccesses(ACCESS_FLUSH_CHUNK)), 'writing recorded accesses') : 0))
      .then((left) => {
        if (left > 0) this.activity.whenIdle(() => this.flushAccessChunk(), this.accessFlushMs);
      }, () => this.scheduleAccessFlush());
  }

  pendingVectors(collection: Collection, limit: number): Promise<Array<{ userId: string; id: string; content: string }>> {
    return this.run(() => {
      const rows = this.db
        .prepare(`SELECT user_id, id, content FROM ${collection} WHERE ${this.pendingWhere(collection)} ORDER BY rid ${limitClause(limit)}`)
        .all(this.meta('embedder_id') ?? null) as Array<{ user_id: string; id: string; content: string }>;
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

  searchMessageVector(q: Omit<VectorSearch, 'statuses'> & { sessionId?: string }): Promise<SearchHit[]> {
    return this.read(() => {
      const bound = this.shared.bound.current();
      if (bound && q.vector.length !== bound.dimensions) throw new EmbedderMismatchError(bound.id, `an embedder of ${q.vector.length} dimensions`);
      if (bound && q.embedderId !== undefined && q.embedderId !== bound.id) throw new EmbedderMismatchError(bound.id, q.embedderId);
      const hits = this.requireVectors('messages').search(q.userId, q.vector, q.sessionId === undefined ? q.k : q.k * 4, ['active']);
      const ids = this.messages.idsOf(q.userId, hits.map((h) => h.rowid), q.sessionId);
      return hits.flatMap((h) => (ids.has(h.rowid) ? [{ id: ids.get(h.rowid)!, score: h.score }] : [])).slice(0, q.k);
    });
  }

  searchMessageKeyword(q: Omit<KeywordSearch, 'statuses'> & { sessionId?: string }): Promise<SearchHit[]> {
    return this.read(() => this.messages.keyword(q.userId, q.terms, q.k, q.bm25, q.sessionId));
  }

  messageVectorsOf(userId: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.read(() => {
      const out = new Map<string, Float32Array>();
      const vec = this.vec('messages');
      if (!vec) return out;
      const rows = this.messages.rowidsOf(userId, ids);
      const vectors = vec.vectorsOf(rows.map((r) => r.rid));
      for (const r of rows) {
        const v = vectors.get(r.rid);
        if (v) out.set(r.id, v);
      }
      return out;
    });
  }

  scoredNeighbours(userId: string, ids: readonly string[], radius: number, vector: Float32Array): Promise<{ messages: Message[]; vectorScores: Map<string, number> }> {
    return this.read(() => {
      const rows = this.messages.neighbourRows(userId, ids, radius);
      const vectorScores = new Map<string, number>();
      const vec = this.vec('messages');
      if (vec) {
        const scores = vec.scoresOf(userId, rows.map((r) => r.rid), vector);
        for (const r of rows) {
          const s = scores.get(r.rid);
          if (s !== undefined) vectorScores.set(r.message.id, s);
        }
      }
      return { messages: rows.map((r) => r.message), vectorScores };
    });
  }

  messageVectorScores(userId: string, ids: readonly string[], vector: Float32Array): Promise<Map<string, number>> {
    return this.read(() => {
      const out = new Map<string, number>();
      const vec = this.vec('messages');
      if (!vec) return out;
      const rows = this.messages.rowidsOf(userId, ids);
      const scores = vec.scoresOf(userId, rows.map((r) => r.rid), vector);
      for (const r of rows) {
        const s = scores.get(r.rid);
        if (s !== undefined) out.set(r.id, s);
      }
      return out;
    });
  }

  restoreMessages(userId: string, messages: readonly RestoredMessage[]): Promise<Message[]> {
    return this.run(() => this.db.transaction(() => this.messages.restore(userId, messages, this.shared.bound.current())).immediate());
  }

  deleteExpiredMessages(now: Date): Promise<number> {
    return this.run(() => this.db.transaction(() => this.messages.deleteExpired(now, this.vec('messages'))).immediate());
  }

  purgeMessages(userId: string, ids: readonly string[]): Promise<number> {
    return this.run(() => {
      const purged = this.db
        .transaction(() => {
          // Forgetting raw messages fences work in flight too: an extraction or a summary may be reading them.
          if (ids.length > 0) this.fence.bump(userId);
          return this.messages.purge(userId, ids, this.vec('messages'));
        })
        .immediate();
      this.erased();
      return purged;
    });
  }

  deleteTodo(userId: string, id: string): Promise<void> {
    return this.run(() => {
      this.shared.todos.delete(userId, id);
      this.erased();
    });
  }

  deleteProfileVersions(userId: string, versions: readonly number[]): Promise<void> {
    return this.run(() => {
      this.shared.lifecycle.deleteProfileVersions(userId, versions);
      if (versions.length > 0) this.erased();
    });
  }
  recordDelivery(userId: string, todoId: string, deliveryId: string, at: Date, settle?: DeliverySettlement): Promise<boolean> {
    return this.run(() => this.db.transaction(() => this.shared.lifecycle.recordDelivery(userId, todoId, deliveryId, at, settle)).immediate());
  }

  forgetUser(userId: string): Promise<Record<string, number>> {
    return this.run(() => {
      // Their memories are erased: pending accesses must not land on memories imported later under the same ids.
      this.memories.accesses.drop(userId);
      const counts = this.db.transaction(() => {
        this.memories.ranking.dropUser(userId);
        this.messages.rows.dropUser(userId);
        const counts: Record<string, number> = {};
        for (const [table, collection, keywords] of [['memories', 'memories', this.keywords], ['messages', 'messages', this.messages.keywords]] as const) {
          const rids = this.db.prepare(`SELECT rid FROM ${table} WHERE user_id = ?`).all(userId) as Array<{ rid: number }>;
          const vec = this.vec(collection);
          for (const { rid } of rids) vec?.remove(rid);
          keywords.removeUser(userId);
          counts[table] = rids.length;
        }
        for (const table of ['memories', 'messages', 'memory_history', 'sessions', 'todos', 'reminder_deliveries', 'settings', 'extraction_runs', 'memory_relations', 'profiles', 'keyword_stats', 'forgotten_requests']) {
          counts[table] = this.db.prepare(`DELETE FROM ${table} WHERE user_id = ?`).run(userId).changes;
        }
        // The change journal names the user too: their entries go, and every other connection's
        // caches start again (they would have dropped the user on reading them).
        this.db.prepare('DELETE FROM cache_changes WHERE user_id = ?').run(userId);
        changeFeed(this.db).recordReset();
        this.fence.bump(userId);
        return counts;
      }).immediate();
      this.erased();
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
        if (tx.erasedInTransaction) typed(() => this.erased(), 'checkpointing the WAL after an erase');
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
        // The copy holds every access recorded so far.
        this.memories.flushAccesses();
        const { totalPages } = await this.db.backup(path);
        return { path, pages: totalPages };
      } catch (error) {
        throw toStoreError(error, `backup to ${path}`);
      }
    });
  }

  async close(): Promise<void> {
    await this.checkpoints?.stop();
    return this.mutex.run(() => {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
      if (!this.db.open) return;
      try {
        typed(() => this.memories.flushAccesses(), 'writing recorded accesses');
      } finally {
        this.db.close();
      }
    });
  }
}
