import type { Store } from '../store/store.js';
import { postgresHandleOf } from '../store/postgres/postgres-store.js';
import { sqliteHandleOf } from './keys/sqlite-key-store.js';

/** Whole-store figures for the `/metrics` gauges (scans across users; the Store port has no such query). */
export interface StoreGauges {
  memoryCounts(): Promise<Array<{ kind: string; status: string; n: number }>>;
  /** Average importance of active memories; 0 with none. */
  averageImportance(): Promise<number>;
  extractionRuns(): Promise<Array<{ outcome: string; n: number }>>;
}

/** The queries, with table names as `table` gives them (schema-qualified on PostgreSQL). */
const queries = (table: (name: string) => string) => ({
  memoryCounts: `SELECT kind, status, COUNT(*) AS n FROM ${table('memories')} GROUP BY kind, status ORDER BY kind, status`,
  averageImportance: `SELECT AVG(importance) AS a FROM ${table('memories')} WHERE status = 'active'`,
  extractionRuns: `SELECT outcome, COUNT(*) AS n FROM ${table('extraction_runs')} GROUP BY outcome ORDER BY outcome`,
});

type Query = <T>(sql: string) => Promise<T[]>;

function gaugesOver(query: Query, table: (name: string) => string = (name) => name): StoreGauges {
  const SQL = queries(table);
  return {
    memoryCounts: async () => (await query<{ kind: string; status: string; n: number | string }>(SQL.memoryCounts)).map((r) => ({ kind: r.kind, status: r.status, n: Number(r.n) })),
    averageImportance: async () => Number((await query<{ a: number | string | null }>(SQL.averageImportance))[0]?.a ?? 0),
    extractionRuns: async () => (await query<{ outcome: string; n: number | string }>(SQL.extractionRuns)).map((r) => ({ outcome: r.outcome, n: Number(r.n) })),
  };
}

/**
 * The gauges' reader for the store under the engine: the SQLite file, or the PostgreSQL pool (tables
 * named with the store's schema). Null for another store: the gauges then stay empty.
 */
export function storeGaugesOf(store: Store): StoreGauges | null {
  const db = sqliteHandleOf(store);
  if (db) return gaugesOver(async <T>(sql: string) => db.prepare(sql).all() as T[]);
  const pg = postgresHandleOf(store);
  if (pg) {
    return gaugesOver(<T>(sql: string) => pg.query<T>(sql), (name) => `"${pg.schema}".${name}`);
  }
  return null;
}
