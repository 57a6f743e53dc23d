import type { ChangeContext, HistoryAction } from '../../domain/history.js';
import type { Memory } from '../../domain/memory.js';
import { EmbedderMismatchError, EngramError } from '../../errors.js';
import { indexTerms } from '../../text/segment.js';
import { memoryToColumns, snapshot } from '../sqlite/memory-rows.js';
import type { PgContext } from './pg-db.js';
import { keywordColumns, vectorColumns } from './pg-search.js';

export type Cols = Record<string, unknown>;

/** Placeholders $from, $from+1, … for n values. */
export const slots = (from: number, n: number): string => Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');

/** Row values with the keyword and vector columns derived from the content and the vector. */
export function derived(memory: Memory, vector: Float32Array | null, embedderId: string | null): Cols {
  const kw = keywordColumns(indexTerms(memory.content));
  const v = vector ? vectorColumns(vector) : null;
  return { ...memoryToColumns(memory), embedder_id: v ? embedderId : null, terms: kw.terms, term_count: kw.termCount, kw: kw.lexemes, vec: v?.bytes ?? null, vec_code: v?.code ?? null };
}

/** A column's value placeholder, with the casts the derived columns need. */
export const cast = (name: string, slot: string): string => (name === 'kw' ? `array_to_tsvector(${slot}::text[])` : name === 'vec_code' ? `${slot}::varbit` : slot);

export const HISTORY_COLUMNS = 'id, memory_id, user_id, action, changed, before, after, actor, reason, produced_by, message_ids, at';

/** The 12 values of a memory_history row, in HISTORY_COLUMNS order. */
export function historyValues(id: string, memory: Pick<Memory, 'id' | 'userId'>, action: HistoryAction, changed: string[], before: Cols | null, after: Cols | null, change: ChangeContext, at: Date): unknown[] {
  return [id, memory.id, memory.userId, action, JSON.stringify(changed), before === null ? null : JSON.stringify(before), after === null ? null : JSON.stringify(after), change.actor, change.reason ?? null, change.producedBy ?? null, JSON.stringify(change.messageIds ?? []), at.getTime()];
}

/**
 * SQL types of the memories columns that are not text. In `INSERT … SELECT` PostgreSQL cannot take
 * a parameter's type from its column (only in VALUES), so each is cast; a new non-text column
 * missing here fails loudly on the first insert.
 */
const NOT_TEXT: Readonly<Record<string, string>> = {
  importance: 'double precision', confidence: 'double precision',
  verified: 'integer', core: 'integer', access_count: 'integer', term_count: 'integer',
  created_at: 'bigint', updated_at: 'bigint', last_accessed_at: 'bigint', expires_at: 'bigint', happened_at: 'bigint', decayed_at: 'bigint', reviewed_at: 'bigint',
  vec: 'bytea', vec_code: 'varbit',
};
const typed = (name: string, slot: string): string => (name === 'kw' ? cast(name, slot) : `${slot}::${NOT_TEXT[name] ?? 'text'}`);

/**
 * A new memory and its creation event in one statement, which writes nothing when the id is taken
 * or (with a vector) the vector does not match the embedder binding, share-locked meanwhile. No
 * statement fails, so no savepoint is needed inside a transaction and none outside: one round
 * trip instead of five per memory of a batch, most of an import's time on PostgreSQL.
 */
export async function insertMemoryWithHistory(ctx: PgContext, memory: Memory, vector: Float32Array | null, change: ChangeContext): Promise<void> {
  // Never marked embedded without its vector: reindex finds it by the missing embedder id.
  const cols = derived(memory, vector, vector ? (memory.embedderId ?? null) : null);
  const names = Object.keys(cols);
  const fields = Object.keys(memory).filter((k) => k !== 'id' && k !== 'userId');
  const history = historyValues(ctx.ids.next(), memory, change.action ?? 'create', fields, null, snapshot(memory, fields), change, memory.createdAt);
  const h = names.length + 1;
  const params: unknown[] = [...Object.values(cols), ...history];
  let bound = "SELECT NULL::text AS key, NULL::text AS value WHERE FALSE";
  let guard = 'TRUE';
  if (vector) {
    params.push(memory.embedderId ?? null, String(vector.length));
    bound = "SELECT key, value FROM engram_meta WHERE key IN ('embedder_id', 'embedder_dimensions') ORDER BY key FOR SHARE";
    guard = `(SELECT value FROM bound WHERE key = 'embedder_id') = $${params.length - 1}::text AND (SELECT value FROM bound WHERE key = 'embedder_dimensions') = $${params.length}::text`;
  }
  const historyCols = HISTORY_COLUMNS.split(', ');
  const [result] = await ctx.rows<{ inserted: number; id: string | null; dimensions: string | null }>(
    `WITH bound AS (${bound}),
     inserted AS (INSERT INTO memories (${names.join(', ')}) SELECT ${names.map((n, i) => typed(n, `$${i + 1}`)).join(', ')} WHERE ${guard} ON CONFLICT (id) DO NOTHING RETURNING rid),
     logged AS (INSERT INTO memory_history (${HISTORY_COLUMNS}) SELECT ${historyCols.map((c, i) => `$${h + i}::${c === 'at' ? 'bigint' : 'text'}`).join(', ')} FROM inserted)
     SELECT (SELECT count(*) FROM inserted)::int AS inserted, (SELECT value FROM bound WHERE key = 'embedder_id') AS id, (SELECT value FROM bound WHERE key = 'embedder_dimensions') AS dimensions`,
    params,
  );
  if (result?.inserted === 1) return;
  if (vector) {
    const dimensions = Number(result?.dimensions);
    if (result?.id == null || !Number.isInteger(dimensions) || dimensions <= 0) throw new EngramError('STORE_FAILED', 'No embedder is bound to this store yet (bindEmbedder first)');
    if (memory.embedderId !== result.id || vector.length !== dimensions) throw new EmbedderMismatchError(result.id, memory.embedderId ?? `unknown (${vector.length} dimensions)`);
  }
  throw new EngramError('CONFLICT', `Memory ${memory.id} already exists`);
}
