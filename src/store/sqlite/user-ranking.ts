import type { MemoryKind, MemoryStatus } from '../../domain/memory.js';
import type { MemoryQuery, RankingFields } from '../store.js';
import { MEMORY_COLUMNS } from './memory-rows.js';

/**
 * What is held of one memory row: its values as MEMORY_COLUMNS lists them (a whole memory is made
 * from them when asked), and the fields ranking and the filters read, taken out of them.
 */
export interface RankingRow {
  readonly values: readonly unknown[];
  readonly rid: number;
  readonly id: string;
  readonly kind: MemoryKind;
  readonly content: string;
  readonly importance: number;
  readonly status: MemoryStatus;
  readonly agentId: string | null;
  readonly sessionId: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly happenedAt: number | null;
  readonly lastAccessedAt: number | null;
  readonly accessCount: number;
  readonly expiresAt: number | null;
  /** Its ranking fields, made on first use and then handed out as they are (frozen). */
  fields?: RankingFields;
}

/** The columns held, in the order `RankingRow.values` keeps them. */
export const HELD_COLUMNS = MEMORY_COLUMNS.join(', ');
const at = (name: (typeof MEMORY_COLUMNS)[number]): number => MEMORY_COLUMNS.indexOf(name);
const RID = at('rid'), ID = at('id'), USER = at('user_id'), KIND = at('kind'), CONTENT = at('content'), IMPORTANCE = at('importance');
const STATUS = at('status'), AGENT = at('agent_id'), SESSION = at('session_id'), CREATED = at('created_at'), UPDATED = at('updated_at');
const HAPPENED = at('happened_at'), ACCESSED = at('last_accessed_at'), COUNT = at('access_count'), EXPIRES = at('expires_at');
/** A held row from a raw read of HELD_COLUMNS. */
export const toRow = (v: readonly unknown[]): RankingRow => ({
  values: v,
  rid: v[RID] as number, id: v[ID] as string, kind: v[KIND] as MemoryKind, content: v[CONTENT] as string, importance: v[IMPORTANCE] as number,
  status: v[STATUS] as MemoryStatus, agentId: v[AGENT] as string | null, sessionId: v[SESSION] as string | null,
  createdAt: v[CREATED] as number, updatedAt: v[UPDATED] as number, happenedAt: v[HAPPENED] as number | null,
  lastAccessedAt: v[ACCESSED] as number | null, accessCount: v[COUNT] as number, expiresAt: v[EXPIRES] as number | null,
});

/** Bytes a row costs beyond its strings (two objects, two map entries, numbers), roughly. */
const ROW_OVERHEAD = 600;
const rowBytes = (r: RankingRow): number => {
  let chars = 0;
  for (const v of r.values) if (typeof v === 'string') chars += v.length;
  return ROW_OVERHEAD + 2 * chars;
};

/** One user's rows, by rowid and by id. */
export class UserRanking {
  readonly byRid = new Map<number, RankingRow>();
  readonly byId = new Map<string, RankingRow>();
  bytes = 0;

  set(row: RankingRow): void {
    this.remove(row.rid);
    this.byRid.set(row.rid, row);
    this.byId.set(row.id, row);
    this.bytes += rowBytes(row);
  }

  remove(rid: number): void {
    const old = this.byRid.get(rid);
    if (!old) return;
    this.byRid.delete(rid);
    if (this.byId.get(old.id) === old) this.byId.delete(old.id);
    this.bytes -= rowBytes(old);
  }

  /**
   * The rows of the given ids that pass the query's filters, as `SELECT … WHERE +user_id = ? AND
   * … AND id IN (…)` returns them: each id once, in id order (SQLite walks the unique id index
   * through the sorted IN list), so ranking meets ties in the same order either way.
   */
  select(q: MemoryQuery & { ids: readonly string[] }, statuses: readonly MemoryStatus[]): RankingRow[] {
    const out: RankingRow[] = [];
    const seen = new Set<string>();
    for (const id of q.ids) {
      const r = this.byId.get(id);
      if (!r || seen.has(id) || !matches(r, q, statuses)) continue;
      seen.add(id);
      out.push(r);
    }
    return out.sort((a, b) => compareBinary(a.id, b.id));
  }

  /** The rows `listMemories` returns for the query: ordered by its column then rowid, both one way; offset and limit applied. */
  list(q: MemoryQuery & { ids: readonly string[] }, statuses: readonly MemoryStatus[]): RankingRow[] {
    const rows = this.select(q, statuses);
    const key = ORDER_KEYS[q.orderBy ?? 'createdAt'];
    const sign = q.order === 'asc' ? 1 : -1;
    rows.sort((a, b) => sign * (key(a) - key(b) || a.rid - b.rid));
    const from = Math.max(0, q.offset ?? 0);
    return q.limit === undefined || q.limit < 0 ? rows.slice(from) : rows.slice(from, from + q.limit);
  }
}

/** listMemories' sort columns, as numbers (happenedAt falls back to createdAt, as its SQL does). */
const ORDER_KEYS: Record<NonNullable<MemoryQuery['orderBy']>, (r: RankingRow) => number> = {
  createdAt: (r) => r.createdAt,
  updatedAt: (r) => r.updatedAt,
  importance: (r) => r.importance,
  happenedAt: (r) => r.happenedAt ?? r.createdAt,
};

/** The row as `where()` in memory-tables.ts would judge it (the user aside). */
function matches(r: RankingRow, q: MemoryQuery, statuses: readonly MemoryStatus[]): boolean {
  if (!statuses.includes(r.status)) return false;
  if (q.kinds && q.kinds.length > 0 && !q.kinds.includes(r.kind)) return false;
  if (q.agentId !== undefined && r.agentId !== q.agentId) return false;
  if (q.sessionId !== undefined && r.sessionId !== q.sessionId) return false;
  if (q.createdFrom && !(r.createdAt >= q.createdFrom.getTime())) return false;
  if (q.createdTo && !(r.createdAt <= q.createdTo.getTime())) return false;
  // SQL's comparison with NULL is not true: a memory without happenedAt is outside any window.
  if (q.happenedFrom && !(r.happenedAt !== null && r.happenedAt >= q.happenedFrom.getTime())) return false;
  if (q.happenedTo && !(r.happenedAt !== null && r.happenedAt <= q.happenedTo.getTime())) return false;
  if (q.notExpiredAt && !(r.expiresAt === null || r.expiresAt > q.notExpiredAt.getTime())) return false;
  return true;
}

/**
 * SQLite's BINARY collation (memcmp of UTF-8) for JS strings: UTF-16 code units order the same
 * way except a surrogate (a character past U+FFFF) against U+E000–U+FFFF, which UTF-8 puts after.
 */
export function compareBinary(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && x <= 0xdfff) x += 0x10000;
    if (y >= 0xd800 && y <= 0xdfff) y += 0x10000;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * The ranking fields of a held row: one frozen object per row, made on first use and shared by
 * every lookup after (a new object per candidate and lookup was most of what recall allocated,
 * and V8 began to tenure them, which slowed every young-generation collection). Its dates are
 * never changed by anyone.
 */
export function rankingFieldsOf(userId: string, r: RankingRow): RankingFields {
  if (r.fields) return r.fields;
  const f: RankingFields = {
    id: r.id,
    userId,
    kind: r.kind,
    content: r.content,
    importance: r.importance,
    createdAt: new Date(r.createdAt),
    updatedAt: new Date(r.updatedAt),
    accessCount: r.accessCount,
  };
  if (r.lastAccessedAt !== null) f.lastAccessedAt = new Date(r.lastAccessedAt);
  if (r.happenedAt !== null) f.happenedAt = new Date(r.happenedAt);
  return (r.fields = Object.freeze(f));
}


/** The user a raw row of HELD_COLUMNS belongs to. */
export const userOf = (v: readonly unknown[]): string => v[USER] as string;

/** The row after an access was written: `access_count + count`, `last_accessed_at = at`, as the UPDATE does. */
export function withAccess(r: RankingRow, count: number, at: Date): RankingRow {
  const values = r.values.slice();
  values[COUNT] = r.accessCount + count;
  values[ACCESSED] = at.getTime();
  return toRow(values);
}
