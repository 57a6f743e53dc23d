import { DEFAULT_BM25, rankBm25, type Bm25Params } from '../sqlite/keyword-index.js';
import { toFloats } from '../sqlite/vector-cache.js';
import type { PgContext } from './pg-db.js';
import { dot } from '../../embedders/embedder.js';
import { similarity } from './pg-cached-search.js';

export type Table = 'memories' | 'messages';

/** Keyword columns of a row: the terms as indexTerms gave them (for BM25), their count, and the tsvector. */
export function keywordColumns(terms: readonly string[]): { terms: string; termCount: number; lexemes: string[] } {
  return { terms: terms.join(' '), termCount: terms.length, lexemes: [...terms] };
}

/** A term as a tsquery lexeme, quoted so no text is read as query syntax. */
function lexeme(term: string): string {
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** The float32 bytes of a vector and its sign code: one bit per positive, then one per negative component. */
export function vectorColumns(v: Float32Array): { bytes: Buffer; code: string } {
  const pos = new Array<string>(v.length);
  const neg = new Array<string>(v.length);
  for (let j = 0; j < v.length; j++) {
    pos[j] = v[j]! > 0 ? '1' : '0';
    neg[j] = v[j]! < 0 ? '1' : '0';
  }
  return { bytes: Buffer.from(v.buffer, v.byteOffset, v.byteLength), code: pos.join('') + neg.join('') };
}

export const bytesToVector = (b: Buffer): Float32Array => toFloats(b);

export interface Filter {
  /** Extra SQL conditions; parameters are numbered from `$from`. */
  sql: (from: number) => string;
  params: readonly unknown[];
}

const noFilter: Filter = { sql: () => 'TRUE', params: [] };

/**
 * Two-stage vector search within one user: the sign codes pick max(200, 20·k) candidates by
 * Hamming distance in SQL (`bit_count(code # query)`), then their float32 vectors are scored
 * exactly here (scoring in SQL was measured ~100× slower). For a user with fewer rows than
 * candidates this is exact.
 */
export async function searchVectors(ctx: PgContext, table: Table, userId: string, embedderId: string, vector: Float32Array, k: number, filter: Filter = noFilter): Promise<Array<{ id: string; score: number }>> {
  if (k <= 0) return [];
  const candidates = Math.max(200, 20 * k);
  const { code } = vectorColumns(vector);
  const rows = await ctx.rows<{ id: string; vec: Buffer }>(
    `SELECT id, vec FROM ${table}
     WHERE user_id = $1 AND embedder_id = $2 AND vec IS NOT NULL AND ${filter.sql(5)}
     ORDER BY bit_count(vec_code # $3::varbit), rid LIMIT $4`,
    [userId, embedderId, code, candidates, ...filter.params],
  );
  const hits = rows.map((r) => ({ id: r.id, score: similarity(vector, bytesToVector(r.vec)) }));
  hits.sort((a, b) => b.score - a.score);
  return hits.slice(0, k);
}

/**
 * BM25 over the user's rows with the same statistics, k1/b and coverage as SQLite's
 * KeywordIndex: per-user document count and average length, idf per query term (a term no row
 * holds still counts in the ideal score), coverage = score / ideal. The GIN index on `kw` finds
 * candidates (the 400 best by ts_rank are rescored, as FTS5's rank does on SQLite).
 */
export async function searchKeywords(ctx: PgContext, table: Table, userId: string, queryTerms: readonly string[], limit: number, params: Bm25Params = DEFAULT_BM25, filter: Filter = noFilter, candidateLimit = 400): Promise<Array<{ id: string; score: number; coverage: number }>> {
  const unique = [...new Set(queryTerms.filter((t) => t.length > 0))];
  if (unique.length === 0 || limit <= 0) return [];
  const [stats] = await ctx.rows<{ n: number; total: number }>(`SELECT count(*) AS n, coalesce(sum(term_count), 0)::bigint AS total FROM ${table} WHERE user_id = $1 AND term_count > 0`, [userId]);
  if (!stats || stats.n <= 0) return [];
  const dfs = await ctx.rows<{ t: string; df: number }>(
    `SELECT u.t, (SELECT count(*) FROM ${table} WHERE user_id = $1 AND kw @@ u.q::tsquery) AS df FROM unnest($2::text[], $3::text[]) AS u(t, q)`,
    [userId, unique, unique.map(lexeme)],
  );
  const idf = new Map<string, number>();
  let ideal = 0;
  for (const { t, df } of dfs) {
    const w = Math.log(1 + (stats.n - df + 0.5) / (df + 0.5));
    ideal += w;
    if (df > 0) idf.set(t, w);
  }
  if (idf.size === 0) return [];
  const query = [...idf.keys()].map(lexeme).join(' | ');
  const rows = await ctx.rows<{ id: string; terms: string }>(
    `SELECT id, terms FROM ${table} WHERE user_id = $1 AND kw @@ $2::tsquery AND ${filter.sql(4)} ORDER BY ts_rank(kw, $2::tsquery) DESC, rid LIMIT $3`,
    [userId, query, candidateLimit, ...filter.params],
  );
  return rankBm25(rows, idf, ideal, stats.total / stats.n, params, limit);
}

/** Vectors of the given rows of one user, from the bound embedder only. */
/** Each vector's dot product with `query`, by the same key. */
export function scoresOf<K>(vectors: ReadonlyMap<K, Float32Array>, query: Float32Array): Map<K, number> {
  return new Map([...vectors].map(([k, v]) => [k, dot(query, v)]));
}

export async function vectorsOfRows(ctx: PgContext, table: Table, userId: string, ids: readonly string[], embedderId: string | null): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  if (ids.length === 0 || embedderId === null) return out;
  const rows = await ctx.rows<{ id: string; vec: Buffer }>(`SELECT id, vec FROM ${table} WHERE user_id = $1 AND id = ANY($2::text[]) AND embedder_id = $3 AND vec IS NOT NULL`, [userId, [...ids], embedderId]);
  for (const r of rows) out.set(r.id, bytesToVector(r.vec));
  return out;
}
