import type { Memory } from '../../domain/memory.js';
import { JsonObject, Provenance } from '../../domain/memory.js';
import type { MemoryChanges, RankingFields } from '../store.js';

export interface MemoryRow {
  rid: number;
  id: string;
  user_id: string;
  agent_id: string | null;
  session_id: string | null;
  kind: string;
  content: string;
  structured_data: string | null;
  importance: number;
  confidence: number;
  source: string;
  verified: number;
  core: number;
  status: string;
  provenance: string;
  language: string;
  created_at: number;
  updated_at: number;
  last_accessed_at: number | null;
  access_count: number;
  expires_at: number | null;
  happened_at: number | null;
  embedder_id: string | null;
  decayed_at: number | null;
  reviewed_at: number | null;
  flags: string | null;
}

const ms = (d: Date | undefined): number | null => (d === undefined ? null : d.getTime());

/** The columns of RankingFields, and their row back to them. */
export const RANKING_COLUMNS = 'id, user_id, kind, content, importance, created_at, updated_at, happened_at, last_accessed_at, access_count';
export function rowToRankingFields(row: Pick<MemoryRow, 'id' | 'user_id' | 'kind' | 'content' | 'importance' | 'created_at' | 'updated_at' | 'happened_at' | 'last_accessed_at' | 'access_count'>): RankingFields {
  const f: RankingFields = {
    id: row.id,
    userId: row.user_id,
    kind: row.kind as Memory['kind'],
    content: row.content,
    importance: row.importance,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    accessCount: row.access_count,
  };
  if (row.last_accessed_at !== null) f.lastAccessedAt = new Date(row.last_accessed_at);
  if (row.happened_at !== null) f.happenedAt = new Date(row.happened_at);
  return f;
}

/**
 * A row back to a memory. Rows are written only through memoryToColumns, so this maps without a
 * schema pass (recall reads dozens per query); the JSON columns are parsed with their schemas.
 */
export function rowToMemory(row: MemoryRow): Memory {
  const m: Memory = {
    id: row.id,
    userId: row.user_id,
    kind: row.kind as Memory['kind'],
    content: row.content,
    importance: row.importance,
    confidence: row.confidence,
    source: row.source as Memory['source'],
    verified: row.verified === 1,
    core: row.core === 1,
    status: row.status as Memory['status'],
    provenance: Provenance.parse(JSON.parse(row.provenance)),
    language: row.language,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    accessCount: row.access_count,
  };
  if (row.agent_id !== null) m.agentId = row.agent_id;
  if (row.session_id !== null) m.sessionId = row.session_id;
  if (row.structured_data !== null) m.structuredData = JsonObject.parse(JSON.parse(row.structured_data));
  if (row.last_accessed_at !== null) m.lastAccessedAt = new Date(row.last_accessed_at);
  if (row.expires_at !== null) m.expiresAt = new Date(row.expires_at);
  if (row.happened_at !== null) m.happenedAt = new Date(row.happened_at);
  if (row.embedder_id !== null) m.embedderId = row.embedder_id;
  if (row.decayed_at !== null) m.decayedAt = new Date(row.decayed_at);
  if (row.reviewed_at !== null) m.reviewedAt = new Date(row.reviewed_at);
  if (row.flags !== null) m.flags = JSON.parse(row.flags) as Memory['flags'];
  return m;
}

/** The columns of a memory row in the order `rowFromValues` reads them (for `.raw()` statements). */
export const MEMORY_COLUMNS = [
  'rid', 'id', 'user_id', 'agent_id', 'session_id', 'kind', 'content', 'structured_data', 'importance', 'confidence', 'source', 'verified', 'core',
  'status', 'provenance', 'language', 'created_at', 'updated_at', 'last_accessed_at', 'access_count', 'expires_at', 'happened_at', 'embedder_id',
  'decayed_at', 'reviewed_at', 'flags',
] as const satisfies ReadonlyArray<keyof MemoryRow>;

/**
 * A row read as an array of MEMORY_COLUMNS' values. better-sqlite3 builds a row object key by key
 * through the native API, which costs about as much as reading the row; an array plus this literal
 * halves row loading in recall (bench/row-loading-probe.ts).
 */
export function rowFromValues(v: readonly unknown[]): MemoryRow {
  return {
    rid: v[0] as number, id: v[1] as string, user_id: v[2] as string, agent_id: v[3] as string | null, session_id: v[4] as string | null,
    kind: v[5] as string, content: v[6] as string, structured_data: v[7] as string | null, importance: v[8] as number, confidence: v[9] as number,
    source: v[10] as string, verified: v[11] as number, core: v[12] as number, status: v[13] as string, provenance: v[14] as string,
    language: v[15] as string, created_at: v[16] as number, updated_at: v[17] as number, last_accessed_at: v[18] as number | null,
    access_count: v[19] as number, expires_at: v[20] as number | null, happened_at: v[21] as number | null, embedder_id: v[22] as string | null,
    decayed_at: v[23] as number | null, reviewed_at: v[24] as number | null, flags: v[25] as string | null,
  };
}

/** Column values for a memory, keyed by column name (everything but rid). */
export function memoryToColumns(m: Memory): Record<string, string | number | null> {
  return {
    id: m.id,
    user_id: m.userId,
    agent_id: m.agentId ?? null,
    session_id: m.sessionId ?? null,
    kind: m.kind,
    content: m.content,
    structured_data: m.structuredData === undefined ? null : JSON.stringify(m.structuredData),
    importance: m.importance,
    confidence: m.confidence,
    source: m.source,
    verified: m.verified ? 1 : 0,
    core: m.core ? 1 : 0,
    status: m.status,
    provenance: JSON.stringify(m.provenance),
    language: m.language,
    created_at: m.createdAt.getTime(),
    updated_at: m.updatedAt.getTime(),
    last_accessed_at: ms(m.lastAccessedAt),
    access_count: m.accessCount,
    expires_at: ms(m.expiresAt),
    happened_at: ms(m.happenedAt),
    embedder_id: m.embedderId ?? null,
    decayed_at: ms(m.decayedAt),
    reviewed_at: ms(m.reviewedAt),
    flags: m.flags === undefined || m.flags.length === 0 ? null : JSON.stringify(m.flags),
  };
}

/** A JSON-safe view of some fields of a memory, for history before/after. */
export function snapshot(m: Memory, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const rec = m as unknown as Record<string, unknown>;
  for (const f of fields) {
    const v = rec[f];
    out[f] = v instanceof Date ? v.toISOString() : v === undefined ? null : v;
  }
  return out;
}

/** Names of the fields whose value really differs between a memory and the changes applied to it. */
export function changedFields(before: Memory, changes: MemoryChanges): string[] {
  const rec = before as unknown as Record<string, unknown>;
  return Object.entries(changes)
    .filter(([key, value]) => JSON.stringify(norm(rec[key])) !== JSON.stringify(norm(value)))
    .map(([key]) => key);
}

function norm(v: unknown): unknown {
  return v instanceof Date ? v.toISOString() : v === null ? undefined : v;
}
