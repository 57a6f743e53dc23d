import type Database from 'better-sqlite3';

/**
 * Prepared statements by their SQL text, so a query built the same way twice is prepared once
 * (preparing costs as much as running a short query). Lists bound into `IN (…)` are padded to a
 * few bucket sizes by `padded`, so their statements repeat too. Bounded: past `max` texts the
 * cache starts over.
 */
export class Statements {
  private readonly cache = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly max = 500,
  ) {}

  get(sql: string): Database.Statement {
    return this.cached(sql, sql, () => this.db.prepare(sql));
  }

  /** The statement in raw mode (rows as arrays of values), cached apart from `get`'s. */
  raw(sql: string): Database.Statement {
    return this.cached(`raw\u0000${sql}`, sql, () => this.db.prepare(sql).raw(true));
  }

  private cached(key: string, sql: string, prepare: () => Database.Statement): Database.Statement {
    let stmt = this.cache.get(key);
    if (!stmt) {
      if (this.cache.size >= this.max) this.cache.clear();
      stmt = prepare();
      this.cache.set(key, stmt);
    }
    return stmt;
  }
}

/**
 * The list padded with `filler` (a value no row holds) to the next of 1, 2, 4, … 64, then
 * multiples of 64, so lists of similar length share one statement.
 */
export function padded<T>(values: readonly T[], filler: T): T[] {
  const n = values.length;
  const size = n <= 1 ? 1 : n <= 64 ? 2 ** Math.ceil(Math.log2(n)) : Math.ceil(n / 64) * 64;
  const out = values.slice();
  while (out.length < size) out.push(filler);
  return out;
}

/** `?, ?, …` for n values. */
export const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/**
 * `PRAGMA data_version` as a prepared statement: `db.pragma()` prepares on every call, and the
 * version is read on every search.
 */
export function dataVersion(db: Database.Database): () => number {
  const stmt = db.prepare('PRAGMA data_version').pluck();
  return () => stmt.get() as number;
}
