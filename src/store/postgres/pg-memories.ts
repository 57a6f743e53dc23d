import type { ChangeContext, HistoryAction } from '../../domain/history.js';
import type { Memory } from '../../domain/memory.js';
import { assertVersion, atVersion, DRIFT_LOOKBACK } from '../../domain/memory-version.js';
import { EmbedderMismatchError, EngramError, NotFoundError } from '../../errors.js';
import { indexTerms } from '../../text/segment.js';
import { actionFor, rowToHistoryEvent, stripNulls } from '../sqlite/memory-tables.js';
import { changedFields, memoryToColumns, RANKING_COLUMNS, rowToMemory, rowToRankingFields, snapshot, type MemoryRow } from '../sqlite/memory-rows.js';
import type { MemoryChanges, MemoryQuery, Store, UpdateCondition } from '../store.js';
import type { PgContext } from './pg-db.js';
import { bumpForgetFence } from './pg-forget.js';
import { cast, derived, historyValues, HISTORY_COLUMNS, insertMemoryWithHistory, slots, type Cols } from './pg-memory-write.js';
import { keywordColumns, scoresOf, searchKeywords, searchVectors, vectorColumns, vectorsOfRows } from './pg-search.js';
import { boundEmbedder, requireBindingFor } from './pg-vectors.js';
import { cachedKeywordSearch, cachedVectorSearch } from './pg-cached-search.js';
import { readSearchState, type PgSearchCache } from './pg-search-cache.js';
import { DEFAULT_BM25 } from '../sqlite/keyword-index.js';

const ACTIVE = ['active'] as const;
const COLUMNS = ['rid', ...Object.keys(memoryToColumns({ provenance: {}, createdAt: new Date(0), updatedAt: new Date(0) } as Memory))].join(', ');

async function insertRow(ctx: PgContext, cols: Cols): Promise<void> {
  const names = Object.keys(cols);
  await ctx.run(`INSERT INTO memories (${names.join(', ')}) VALUES (${names.map((n, i) => cast(n, `$${i + 1}`)).join(', ')})`, Object.values(cols));
}

async function writeHistory(ctx: PgContext, memory: Pick<Memory, 'id' | 'userId'>, action: HistoryAction, changed: string[], before: Cols | null, after: Cols | null, change: ChangeContext, at: Date): Promise<void> {
  await ctx.run(`INSERT INTO memory_history (${HISTORY_COLUMNS}) VALUES (${slots(1, 12)})`, historyValues(ctx.ids.next(), memory, action, changed, before, after, change, at));
}

function where(q: MemoryQuery): { sql: string; args: unknown[] } {
  const args: unknown[] = [q.userId, [...(q.statuses ?? ACTIVE)]];
  const clauses = ['user_id = $1', 'status = ANY($2::text[])'];
  const add = (sql: string, value: unknown) => {
    args.push(value);
    clauses.push(sql.replace('?', `$${args.length}`));
  };
  if (q.ids) add('id = ANY(?::text[])', [...q.ids]);
  if (q.kinds && q.kinds.length > 0) add('kind = ANY(?::text[])', [...q.kinds]);
  if (q.agentId !== undefined) add('agent_id = ?', q.agentId);
  if (q.sessionId !== undefined) add('session_id = ?', q.sessionId);
  if (q.createdFrom) add('created_at >= ?', q.createdFrom.getTime());
  if (q.createdTo) add('created_at <= ?', q.createdTo.getTime());
  if (q.happenedFrom) add('happened_at >= ?', q.happenedFrom.getTime());
  if (q.happenedTo) add('happened_at <= ?', q.happenedTo.getTime());
  if (q.notExpiredAt) add('(expires_at IS NULL OR expires_at > ?)', q.notExpiredAt.getTime());
  return { sql: clauses.join(' AND '), args };
}

/** The semantic layer: memories, their history, keyword and vector columns, kept in step. */
/**
 * The condition's version check, on the row the transaction holds FOR UPDATE. Only when the memory
 * is not at the version does it read the latest history, to let drift (decay, reinforcement) pass
 * a change that does not set importance itself (memory-version.ts).
 */
async function checkVersion(tx: PgContext, before: Memory, changes: MemoryChanges | null, condition: UpdateCondition | undefined): Promise<void> {
  if (!condition || atVersion(before, condition.ifVersion)) return;
  const drift = changes?.importance !== undefined ? [] : (await tx.rows('SELECT * FROM memory_history WHERE user_id = $1 AND memory_id = $2 ORDER BY seq DESC LIMIT $3', [before.userId, before.id, DRIFT_LOOKBACK])).map(rowToHistoryEvent);
  assertVersion(before, condition.ifVersion, drift);
}

export function memoryRole(ctx: PgContext, cache?: PgSearchCache): Pick<Store, 'insertMemory' | 'updateMemory' | 'purgeMemory' | 'getMemory' | 'listMemories' | 'listRankingFields' | 'countMemories' | 'history' | 'historyOfUser' | 'recordAccess' | 'importMemory' | 'takenIds' | 'searchVector' | 'searchKeyword' | 'vectorsOf' | 'vectorScores'> {
  const rowOf = async (c: PgContext, userId: string, id: string, lock = false) =>
    (await c.rows<MemoryRow>(`SELECT ${COLUMNS} FROM memories WHERE id = $1 AND user_id = $2${lock ? ' FOR UPDATE' : ''}`, [id, userId]))[0];

  return {
    // One statement that writes all or nothing: atomic without a transaction or savepoint of its own.
    insertMemory: (memory, vector, change) => insertMemoryWithHistory(ctx, memory, vector, change),

    updateMemory: (userId, id, changes, vector, change, condition) =>
      ctx.atomic(async (tx) => {
        const row = await rowOf(tx, userId, id, true);
        if (!row) throw new NotFoundError('Memory', id);
        const before = rowToMemory(row);
        // The row is locked FOR UPDATE until this transaction ends: another process's change either
        // committed before this read (and the version differs) or waits for this one.
        await checkVersion(tx, before, changes, condition);
        const changed = changedFields(before, changes).filter((f) => f !== 'updatedAt');
        const after: Memory = { ...before, ...stripNulls(changes) } as Memory;
        if (changed.length === 0 && vector === undefined) return before;
        if (vector) await requireBindingFor(tx, after.embedderId, vector);
        const cols: Cols = memoryToColumns(after);
        delete cols.id;
        delete cols.user_id;
        if (vector === null) Object.assign(cols, { embedder_id: null, vec: null, vec_code: null });
        if (vector) Object.assign(cols, { vec: vectorColumns(vector).bytes, vec_code: vectorColumns(vector).code });
        if (changed.includes('content')) {
          const kw = keywordColumns(indexTerms(after.content));
          Object.assign(cols, { terms: kw.terms, term_count: kw.termCount, kw: kw.lexemes });
        }
        const names = Object.keys(cols);
        await tx.run(`UPDATE memories SET ${names.map((n, i) => `${n} = ${cast(n, `$${i + 1}`)}`).join(', ')} WHERE rid = $${names.length + 1}`, [...Object.values(cols), row.rid]);
        if (changed.length > 0) await writeHistory(tx, after, change.action ?? actionFor(before, after, changed), changed, snapshot(before, changed), snapshot(after, changed), change, after.updatedAt);
        return after;
      }),

    purgeMemory: (userId, id, change, condition) =>
      ctx.atomic(async (tx) => {
        const row = await rowOf(tx, userId, id, true);
        if (!row) throw new NotFoundError('Memory', id);
        await checkVersion(tx, rowToMemory(row), null, condition);
        // The row holds its keyword terms and vector: deleting it erases them too.
        await tx.run('DELETE FROM memories WHERE rid = $1', [row.rid]);
        // What was said about it goes too: earlier events lose content, reasons and message links;
        // one purge event without content says it happened. Its todos (with deliveries) and relations go.
        await tx.run("UPDATE memory_history SET before = NULL, after = NULL, reason = NULL, message_ids = '[]' WHERE user_id = $1 AND memory_id = $2", [userId, id]);
        await writeHistory(tx, { id, userId }, 'purge', [], null, null, { ...change, reason: undefined, messageIds: [] }, change.at ?? new Date());
        await tx.run('DELETE FROM reminder_deliveries WHERE user_id = $1 AND todo_id IN (SELECT id FROM todos WHERE user_id = $1 AND memory_id = $2)', [userId, id]);
        await tx.run('DELETE FROM todos WHERE user_id = $1 AND memory_id = $2', [userId, id]);
        await tx.run('DELETE FROM memory_relations WHERE user_id = $1 AND (source_id = $2 OR target_id = $2)', [userId, id]);
        await bumpForgetFence(tx, userId);
      }),

    getMemory: async (userId, id) => {
      const row = await rowOf(ctx, userId, id);
      return row ? rowToMemory(row) : null;
    },

    listMemories: async (q) => {
      const { sql, args } = where(q);
      const column = { createdAt: 'created_at', updatedAt: 'updated_at', importance: 'importance', happenedAt: 'coalesce(happened_at, created_at)' }[q.orderBy ?? 'createdAt'];
      const dir = q.order === 'asc' ? 'ASC' : 'DESC';
      const rows = await ctx.rows<MemoryRow>(`SELECT ${COLUMNS} FROM memories WHERE ${sql} ORDER BY ${column} ${dir}, rid ${dir} LIMIT $${args.length + 1} OFFSET $${args.length + 2}`, [...args, q.limit ?? null, q.offset ?? 0]);
      return rows.map(rowToMemory);
    },

    listRankingFields: async (q) => {
      const { sql, args } = where(q);
      return (await ctx.rows<MemoryRow>(`SELECT ${RANKING_COLUMNS} FROM memories WHERE ${sql}`, args)).map(rowToRankingFields);
    },

    countMemories: async (q) => {
      const { sql, args } = where(q);
      return (await ctx.rows<{ n: number }>(`SELECT count(*) AS n FROM memories WHERE ${sql}`, args))[0]!.n;
    },

    history: async (userId, memoryId) => (await ctx.rows('SELECT * FROM memory_history WHERE user_id = $1 AND memory_id = $2 ORDER BY seq', [userId, memoryId])).map(rowToHistoryEvent),

    historyOfUser: async (userId) => (await ctx.rows('SELECT * FROM memory_history WHERE user_id = $1 ORDER BY seq', [userId])).map(rowToHistoryEvent),

    recordAccess: async (userId, ids, at) => {
      if (ids.length === 0) return;
      // One statement per id, as on SQLite: an id recalled twice counts twice.
      await ctx.atomic(async (tx) => {
        for (const id of ids) await tx.run('UPDATE memories SET last_accessed_at = $1, access_count = access_count + 1 WHERE user_id = $2 AND id = $3', [at.getTime(), userId, id]);
      });
    },

    importMemory: (memory, vector, history) =>
      ctx.atomic(async (tx) => {
        if (memory) {
          const bound = vector ? await requireBindingFor(tx, memory.embedderId, vector) : null;
          await insertRow(tx, derived(memory, vector, bound ? (memory.embedderId ?? null) : null));
        }
        for (const e of history) {
          await tx.run(
            `INSERT INTO memory_history (id, memory_id, user_id, action, changed, before, after, actor, reason, produced_by, message_ids, at) VALUES (${slots(1, 12)})`,
            [e.id, e.memoryId, e.userId, e.action, JSON.stringify(e.changed), e.before === null ? null : JSON.stringify(e.before), e.after === null ? null : JSON.stringify(e.after), e.actor, e.reason ?? null, e.producedBy ?? null, JSON.stringify(e.messageIds), e.at.getTime()],
          );
        }
      }),

    takenIds: async (table, ids) => {
      const name = { memories: 'memories', history: 'memory_history', relations: 'memory_relations', todos: 'todos' }[table];
      const rows = await ctx.rows<{ id: string }>(`SELECT id FROM ${name} WHERE id = ANY($1::text[])`, [[...ids]]);
      return new Set(rows.map((r) => r.id));
    },

    searchVector: async (q) => {
      // Outside a transaction the binding comes with the user's change counter, in one query.
      const state = cache && !ctx.inTransaction ? await readSearchState(ctx, 'memories', q.userId) : undefined;
      const bound = state ? state.embedder : await boundEmbedder(ctx);
      if (!bound) throw new EngramError('STORE_FAILED', 'No embedder is bound to this store yet (bindEmbedder first)');
      if (q.vector.length !== bound.dimensions) throw new EmbedderMismatchError(bound.id, `an embedder of ${q.vector.length} dimensions`);
      if (q.embedderId !== undefined && q.embedderId !== bound.id) throw new EmbedderMismatchError(bound.id, q.embedderId);
      const statuses = [...(q.statuses ?? ACTIVE)];
      if (statuses.length === 0) return [];
      const user = state && (await cache!.user(ctx, q.userId, state));
      if (user) return cachedVectorSearch(ctx, 'memories', q.userId, user, q.vector, q.k, statuses);
      return searchVectors(ctx, 'memories', q.userId, bound.id, q.vector, q.k, { sql: (n) => `status = ANY($${n}::text[])`, params: [statuses] });
    },

    searchKeyword: async (q) => {
      const statuses = [...(q.statuses ?? ACTIVE)];
      if (cache && !ctx.inTransaction) {
        const user = await cache.user(ctx, q.userId, await readSearchState(ctx, 'memories', q.userId));
        if (user) return cachedKeywordSearch(user, q.terms, q.k, q.bm25 ?? DEFAULT_BM25, statuses);
      }
      return searchKeywords(ctx, 'memories', q.userId, q.terms, q.k, q.bm25, { sql: (n) => `status = ANY($${n}::text[])`, params: [statuses] });
    },

    vectorsOf: async (userId, ids) => vectorsOfRows(ctx, 'memories', userId, ids, (await boundEmbedder(ctx))?.id ?? null),
    vectorScores: async (userId, ids, vector) => scoresOf(await vectorsOfRows(ctx, 'memories', userId, ids, (await boundEmbedder(ctx))?.id ?? null), vector),
  };
}
