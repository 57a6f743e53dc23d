import type Database from 'better-sqlite3';
import type { IdGenerator } from '../../deps.js';
import type { ChangeContext, HistoryAction, HistoryEvent } from '../../domain/history.js';
import type { Memory } from '../../domain/memory.js';
import { assertVersion, atVersion, DRIFT_LOOKBACK } from '../../domain/memory-version.js';
import { EmbedderMismatchError, EngramError, NotFoundError } from '../../errors.js';
import { indexTerms } from '../../text/segment.js';
import type { KeywordSearch, MemoryChanges, MemoryQuery, RankingFields, SearchHit, UpdateCondition, VectorSearch } from '../store.js';
import { AccessLog } from './access-log.js';
import type { KeywordIndex } from './keyword-index.js';
import { changedFields, MEMORY_COLUMNS, memoryToColumns, RANKING_COLUMNS, rowFromValues, rowToMemory, rowToRankingFields, snapshot, type MemoryRow } from './memory-rows.js';
import type { Binding } from './bound-vectors.js';
import { limitClause, marks, padded, Statements } from './statements.js';
import type { VectorIndex } from './vector-index.js';
import { RankingCache, type RankingCacheOptions } from './ranking-cache.js';
import { rankingFieldsOf } from './user-ranking.js';

const ACTIVE = ['active'] as const;

/**
 * The semantic layer's tables: memories, their history, and their rows in the keyword and vector
 * indexes, kept in step. Synchronous; the store wraps each call in its lock and a transaction.
 */
export class MemoryTables {
  /** Statements by SQL text: recall runs the same few queries over and over. */
  private readonly sql: Statements;
  /** Accesses recorded outside a transaction, written in batches (see access-log.ts). */
  readonly accesses = new AccessLog();
  /** Searched users' memory rows (ranking fields, rowid ↔ id, whole rows by id), in step with the file (see ranking-cache.ts). */
  readonly ranking: RankingCache;

  constructor(
    private readonly db: Database.Database,
    private readonly keywords: KeywordIndex,
    private readonly ids: IdGenerator,
    /** The bound embedder and its vector indexes, once an embedder is bound. */
    private readonly bound: () => Binding | null,
    rankingCache?: RankingCacheOptions,
  ) {
    this.sql = new Statements(db);
    this.ranking = new RankingCache(db, rankingCache);
  }

  private vec(): VectorIndex | null {
    return this.bound()?.memories ?? null;
  }

  private requireVectors(): VectorIndex {
    const v = this.vec();
    if (!v) throw new EngramError('STORE_FAILED', 'No embedder is bound to this store yet (bindEmbedder first)');
    return v;
  }

  /**
   * Fences writers of another embedder: a vector is written only when it comes from the embedder
   * the store is bound to now (another process may have re-bound it by a reindex), checked inside
   * the write transaction, so old-embedder vectors never enter the new index.
   */
  private vectorIndexFor(embedderId: string | undefined, vector: Float32Array): VectorIndex {
    const b = this.bound();
    if (!b) throw new EngramError('STORE_FAILED', 'No embedder is bound to this store yet (bindEmbedder first)');
    if (embedderId !== b.id || vector.length !== b.dimensions) throw new EmbedderMismatchError(b.id, embedderId ?? `unknown (${vector.length} dimensions)`);
    return b.memories;
  }

  rowOf(userId: string, id: string): MemoryRow | undefined {
    return this.sql.get('SELECT * FROM memories WHERE id = ? AND user_id = ?').get(id, userId) as MemoryRow | undefined;
  }

  private writeHistory(memory: Pick<Memory, 'id' | 'userId'>, action: HistoryAction, changed: string[], before: Record<string, unknown> | null, after: Record<string, unknown> | null, change: ChangeContext, at: Date): void {
    this.sql
      .get(
        `INSERT INTO memory_history (id, memory_id, user_id, action, changed, before, after, actor, reason, produced_by, message_ids, at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        this.ids.next(),
        memory.id,
        memory.userId,
        action,
        JSON.stringify(changed),
        before === null ? null : JSON.stringify(before),
        after === null ? null : JSON.stringify(after),
        change.actor,
        change.reason ?? null,
        change.producedBy ?? null,
        JSON.stringify(change.messageIds ?? []),
        at.getTime(),
      );
  }

  insertMemory(memory: Memory, vector: Float32Array | null, change: ChangeContext): void {
    return this.db.transaction(() => {
        const index = vector ? this.vectorIndexFor(memory.embedderId, vector) : null;
        // Never marked embedded without its vector: reindex finds it by the missing embedder id.
        const cols = { ...memoryToColumns(memory), embedder_id: index ? (memory.embedderId ?? null) : null };
        const names = Object.keys(cols);
        let rid: number;
        try {
          const info = this.sql.get(`INSERT INTO memories (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`).run(...Object.values(cols));
          rid = Number(info.lastInsertRowid);
          this.ranking.touched(memory.userId, rid);
        } catch (cause) {
          if (String(cause).includes('UNIQUE')) throw new EngramError('CONFLICT', `Memory ${memory.id} already exists`, { cause });
          throw cause;
        }
        this.keywords.upsert(rid, memory.userId, indexTerms(memory.content));
        if (vector) index!.upsert(rid, memory.userId, memory.status, vector);
        const fields = Object.keys(memory).filter((k) => k !== 'id' && k !== 'userId');
        this.writeHistory(memory, change.action ?? 'create', fields, null, snapshot(memory, fields), change, memory.createdAt);
      }).immediate();
  }

  updateMemory(userId: string, id: string, changes: MemoryChanges, vector: Float32Array | null | undefined, change: ChangeContext, condition?: UpdateCondition): Memory {
    return this.db.transaction(() => {
        const row = this.rowOf(userId, id);
        if (!row) throw new NotFoundError('Memory', id);
        const before = rowToMemory(row);
        // Read under the write lock (an immediate transaction): no other process can change the row
        // between this check and the UPDATE below.
        this.checkVersion(before, changes, condition);
        const changed = changedFields(before, changes).filter((f) => f !== 'updatedAt');
        const after: Memory = { ...before, ...stripNulls(changes) } as Memory;
        if (changed.length === 0 && vector === undefined) return this.accesses.overlay(before);
        const index = vector ? this.vectorIndexFor(after.embedderId, vector) : null;
        const cols = memoryToColumns(after);
        delete cols.id;
        delete cols.user_id;
        if (vector === null) cols.embedder_id = null;
        this.sql.get(`UPDATE memories SET ${Object.keys(cols).map((c) => `${c} = ?`).join(', ')} WHERE rid = ?`).run(...Object.values(cols), row.rid);
        this.ranking.touched(userId, row.rid);
        if (changed.includes('content')) this.keywords.upsert(row.rid, userId, indexTerms(after.content));
        const vec = this.vec();
        if (vector) index!.upsert(row.rid, userId, after.status, vector);
        else if (vector === null) vec?.remove(row.rid);
        else if (changed.includes('status')) vec?.setStatus(row.rid, after.status);
        if (changed.length > 0) this.writeHistory(after, change.action ?? actionFor(before, after, changed), changed, snapshot(before, changed), snapshot(after, changed), change, after.updatedAt);
        return this.accesses.overlay(after);
      }).immediate();
  }

  purgeMemory(userId: string, id: string, change: ChangeContext, condition?: UpdateCondition): void {
    return this.db.transaction(() => {
        const row = this.rowOf(userId, id);
        if (!row) throw new NotFoundError('Memory', id);
        this.checkVersion(rowToMemory(row), null, condition);
        this.keywords.remove(row.rid, userId);
        this.vec()?.remove(row.rid);
        // A memory imported later under the same id must not inherit these.
        this.accesses.drop(userId, id);
        this.sql.get('DELETE FROM memories WHERE rid = ?').run(row.rid);
        this.ranking.touched(userId, row.rid);
        // A purge erases the content from history too; one event without content says it happened.
        this.sql.get('UPDATE memory_history SET before = NULL, after = NULL WHERE user_id = ? AND memory_id = ?').run(userId, id);
        this.writeHistory({ id, userId }, 'purge', [], null, null, change, change.at ?? new Date());
      }).immediate();
  }

  getMemory(userId: string, id: string): Memory | null {
    const row = this.rowOf(userId, id);
    return row ? this.accesses.overlay(rowToMemory(row)) : null;
  }

  private where(q: MemoryQuery): { sql: string; args: unknown[] } {
    // Looking up given ids goes through the unique id index; "+user_id" keeps SQLite from scanning
    // the user's rows through the (user_id, created_at) index instead.
    const clauses = [q.ids ? '+user_id = ?' : 'user_id = ?'];
    const args: unknown[] = [q.userId];
    const statuses = q.statuses ?? ACTIVE;
    clauses.push(`status IN (${statuses.map(() => '?').join(', ')})`);
    args.push(...statuses);
    if (q.ids) {
      // Padded with '' (no memory has an empty id), so similar lengths share one statement.
      const ids = q.ids.length === 0 ? [] : padded(q.ids, '');
      clauses.push(`id IN (${marks(ids.length) || 'NULL'})`);
      args.push(...ids);
    }
    if (q.kinds && q.kinds.length > 0) {
      clauses.push(`kind IN (${q.kinds.map(() => '?').join(', ')})`);
      args.push(...q.kinds);
    }
    if (q.agentId !== undefined) (clauses.push('agent_id = ?'), args.push(q.agentId));
    if (q.sessionId !== undefined) (clauses.push('session_id = ?'), args.push(q.sessionId));
    if (q.createdFrom) (clauses.push('created_at >= ?'), args.push(q.createdFrom.getTime()));
    if (q.createdTo) (clauses.push('created_at <= ?'), args.push(q.createdTo.getTime()));
    if (q.happenedFrom) (clauses.push('happened_at >= ?'), args.push(q.happenedFrom.getTime()));
    if (q.happenedTo) (clauses.push('happened_at <= ?'), args.push(q.happenedTo.getTime()));
    if (q.notExpiredAt) (clauses.push('(expires_at IS NULL OR expires_at > ?)'), args.push(q.notExpiredAt.getTime()));
    return { sql: clauses.join(' AND '), args };
  }

  listMemories(q: MemoryQuery): Memory[] {
    const cached = q.ids ? this.ranking.user(q.userId) : undefined;
    if (cached) return cached.list({ ...q, ids: q.ids! }, q.statuses ?? ACTIVE).map((r) => this.accesses.overlay(rowToMemory(rowFromValues(r.values))));
    const { sql, args } = this.where(q);
    const column = { createdAt: 'created_at', updatedAt: 'updated_at', importance: 'importance', happenedAt: 'coalesce(happened_at, created_at)' }[q.orderBy ?? 'createdAt'];
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const rows = this.sql
      .raw(`SELECT ${MEMORY_COLUMNS.join(', ')} FROM memories WHERE ${sql} ORDER BY ${column} ${dir}, rid ${dir} ${limitClause(q.limit)} OFFSET ?`)
      .all(...args, q.offset ?? 0) as unknown[][];
    return rows.map((values) => this.accesses.overlay(rowToMemory(rowFromValues(values))));
  }

  listRankingFields(q: MemoryQuery): RankingFields[] {
    const cached = q.ids ? this.ranking.user(q.userId) : undefined;
    if (cached) return cached.select({ ...q, ids: q.ids! }, q.statuses ?? ACTIVE).map((r) => this.accesses.overlay(rankingFieldsOf(q.userId, r)));
    const { sql, args } = this.where(q);
    const rows = this.sql.get(`SELECT ${RANKING_COLUMNS} FROM memories WHERE ${sql}`).all(...args) as MemoryRow[];
    return rows.map((row) => this.accesses.overlay(rowToRankingFields(row)));
  }

  countMemories(q: MemoryQuery): number {
    const { sql, args } = this.where(q);
    return (this.sql.get(`SELECT count(*) AS n FROM memories WHERE ${sql}`).get(...args) as { n: number }).n;
  }

  history(userId: string, memoryId: string): HistoryEvent[] {
    return this.historyRows('SELECT * FROM memory_history WHERE user_id = ? AND memory_id = ? ORDER BY seq', userId, memoryId);
  }

  historyOfUser(userId: string): HistoryEvent[] {
    return this.historyRows('SELECT * FROM memory_history WHERE user_id = ? ORDER BY seq', userId);
  }

  importMemory(memory: Memory | null, vector: Float32Array | null, history: readonly HistoryEvent[]): void {
    return this.db.transaction(() => {
        if (memory) {
          const index = vector ? this.vectorIndexFor(memory.embedderId, vector) : null;
          const cols = { ...memoryToColumns(memory), embedder_id: index ? (memory.embedderId ?? null) : null };
          const info = this.sql.get(`INSERT INTO memories (${Object.keys(cols).join(', ')}) VALUES (${Object.keys(cols).map(() => '?').join(', ')})`).run(...Object.values(cols));
          const rid = Number(info.lastInsertRowid);
          this.ranking.touched(memory.userId, rid);
          this.keywords.upsert(rid, memory.userId, indexTerms(memory.content));
          if (vector) index!.upsert(rid, memory.userId, memory.status, vector);
        }
        const insert = this.sql.get(
          `INSERT INTO memory_history (id, memory_id, user_id, action, changed, before, after, actor, reason, produced_by, message_ids, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        );
        for (const e of history) {
          insert.run(e.id, e.memoryId, e.userId, e.action, JSON.stringify(e.changed), e.before === null ? null : JSON.stringify(e.before), e.after === null ? null : JSON.stringify(e.after), e.actor, e.reason ?? null, e.producedBy ?? null, JSON.stringify(e.messageIds), e.at.getTime());
        }
      }).immediate();
  }

  /**
   * The condition's version check, on the row this transaction holds. Only when the memory is not
   * at the version does it read the latest history, to let drift (decay, reinforcement) pass a
   * change that does not set importance itself (memory-version.ts).
   */
  private checkVersion(before: Memory, changes: MemoryChanges | null, condition: UpdateCondition | undefined): void {
    if (!condition || atVersion(before, condition.ifVersion)) return;
    const drift = changes?.importance !== undefined ? [] : this.historyRows('SELECT * FROM memory_history WHERE user_id = ? AND memory_id = ? ORDER BY seq DESC LIMIT ?', before.userId, before.id, DRIFT_LOOKBACK);
    assertVersion(before, condition.ifVersion, drift);
  }

  private historyRows(sql: string, ...args: unknown[]): HistoryEvent[] {
    const rows = this.sql.get(sql).all(...args) as Array<Record<string, string | number | null>>;
    return rows.map(rowToHistoryEvent);
  }

  /** Writes the accesses now, in one transaction (or as part of the caller's). */
  recordAccess(userId: string, ids: readonly string[], at: Date): void {
    if (ids.length === 0) return;
    this.writeAccesses(ids.map((id) => ({ userId, id, count: 1, at })));
  }

  /** Writes the accesses held in this process, at most `limit` in one transaction (see access-log.ts); returns how many are left. */
  flushAccesses(limit = Infinity): number {
    return this.accesses.flush((batch) => this.writeAccesses(batch), limit);
  }

  private writeAccesses(batch: ReadonlyArray<{ userId: string; id: string; count: number; at: Date }>): void {
    // RETURNING: the row ids, for the change journal.
    const stmt = this.sql.get('UPDATE memories SET last_accessed_at = ?, access_count = access_count + ? WHERE user_id = ? AND id = ? RETURNING rid');
    // Inside a caller's transaction the held rows are read again later (it may roll back);
    // outside, the accesses are committed when the transaction returns and apply as written.
    const outer = this.db.inTransaction;
    this.db.transaction(() => {
      const written: Array<[string, number]> = [];
      for (const a of batch) {
        const row = stmt.get(a.at.getTime(), a.count, a.userId, a.id) as { rid: number } | undefined;
        if (row) written.push([a.userId, row.rid]);
      }
      this.ranking.wrote(written, outer);
    }).immediate();
    if (!outer) for (const a of batch) this.ranking.accessed(a.userId, a.id, a.count, a.at);
  }

  private idsOf(userId: string, rowids: readonly number[], statuses: readonly string[]): Map<number, string> {
    if (rowids.length === 0) return new Map();
    const cached = this.ranking.user(userId);
    if (cached) {
      const out = new Map<number, string>();
      for (const rid of rowids) {
        const r = cached.byRid.get(rid);
        if (r && statuses.includes(r.status)) out.set(rid, r.id);
      }
      return out;
    }
    const rids = padded(rowids, -1);
    const rows = this.sql
      .get(`SELECT rid, id FROM memories WHERE +user_id = ? AND status IN (${marks(statuses.length)}) AND rid IN (${marks(rids.length)})`)
      .all(userId, ...statuses, ...rids) as Array<{ rid: number; id: string }>;
    return new Map(rows.map((r) => [r.rid, r.id]));
  }

  searchVector(q: VectorSearch): SearchHit[] {
    const statuses = q.statuses ?? ACTIVE;
    const b = this.bound();
    if (b && q.vector.length !== b.dimensions) throw new EmbedderMismatchError(b.id, `an embedder of ${q.vector.length} dimensions`);
    if (b && q.embedderId !== undefined && q.embedderId !== b.id) throw new EmbedderMismatchError(b.id, q.embedderId);
    const hits = this.requireVectors().search(q.userId, q.vector, q.k, statuses);
    const ids = this.idsOf(q.userId, hits.map((h) => h.rowid), statuses);
    return hits.flatMap((h) => (ids.has(h.rowid) ? [{ id: ids.get(h.rowid)!, score: h.score }] : []));
  }

  searchKeyword(q: KeywordSearch): SearchHit[] {
    const statuses = q.statuses ?? ACTIVE;
    // Over-fetch: soft-deleted rows stay in the keyword index and are filtered out here.
    const hits = this.keywords.search(q.userId, q.terms, q.k * 2 + 10, q.bm25);
    const ids = this.idsOf(q.userId, hits.map((h) => h.rowid), statuses);
    return hits.flatMap((h) => (ids.has(h.rowid) ? [{ id: ids.get(h.rowid)!, score: h.score, coverage: h.coverage }] : [])).slice(0, q.k);
  }

  vectorsOf(userId: string, ids: readonly string[]): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    const vec = this.vec();
    if (!vec || ids.length === 0) return out;
    const rows = this.ridsOf(userId, ids);
    const vectors = vec.vectorsOf(rows.map((r) => r.rid));
    for (const r of rows) {
      const v = vectors.get(r.rid);
      if (v) out.set(r.id, v);
    }
    return out;
  }

  /** Rowids of the user's given memories (by id; other users' ids find nothing). */
  private ridsOf(userId: string, ids: readonly string[]): Array<{ rid: number; id: string }> {
    const cached = this.ranking.user(userId);
    if (cached) return [...new Set(ids)].flatMap((id) => {
      const r = cached.byId.get(id);
      return r ? [{ rid: r.rid, id }] : [];
    });
    const keys = padded(ids, '');
    return this.sql.get(`SELECT rid, id FROM memories WHERE +user_id = ? AND id IN (${marks(keys.length)})`).all(userId, ...keys) as Array<{ rid: number; id: string }>;
  }

  vectorScores(userId: string, ids: readonly string[], vector: Float32Array): Map<string, number> {
    const out = new Map<string, number>();
    const vec = this.vec();
    if (!vec || ids.length === 0) return out;
    const rows = this.ridsOf(userId, ids);
    // From the user's vector cache when it is current, else a point read each.
    const scores = vec.scoresOf(userId, rows.map((r) => r.rid), vector);
    for (const r of rows) {
      const s = scores.get(r.rid);
      if (s !== undefined) out.set(r.id, s);
    }
    return out;
  }

}

export function stripNulls(changes: MemoryChanges): Partial<Memory> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(changes)) out[k] = v === null ? undefined : v;
  return out as Partial<Memory>;
}

export function actionFor(before: Memory, after: Memory, changed: string[]): HistoryAction {
  if (changed.includes('status')) {
    if (after.status === 'deleted') return 'delete';
    if (after.status === 'archived') return 'archive';
    if (before.status !== 'active' && after.status === 'active') return 'restore';
  }
  return 'update';
}

/** A memory_history row (either adapter) as a HistoryEvent. */
export function rowToHistoryEvent(r: Record<string, unknown>): HistoryEvent {
  return {
    id: String(r.id),
    memoryId: String(r.memory_id),
    userId: String(r.user_id),
    action: r.action as HistoryAction,
    changed: JSON.parse(String(r.changed)) as string[],
    before: r.before === null ? null : (JSON.parse(String(r.before)) as Record<string, unknown>),
    after: r.after === null ? null : (JSON.parse(String(r.after)) as Record<string, unknown>),
    actor: r.actor as HistoryEvent['actor'],
    reason: r.reason === null ? undefined : String(r.reason),
    producedBy: r.produced_by === null ? undefined : String(r.produced_by),
    messageIds: JSON.parse(String(r.message_ids)) as string[],
    at: new Date(Number(r.at)),
  };
}
