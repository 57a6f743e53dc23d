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

/**
 * `LIMIT n`, the number written into the SQL (none when undefined or negative, as SQLite reads a
 * negative limit). Not `LIMIT ?`: SQLite 3.47+ reads a bound limit when it plans the query and
 * then marks the statement to be prepared again whenever that parameter is bound, and
 * better-sqlite3 binds on every call. Each run of such a statement was a fresh preparation: about
 * 22 µs more for a query that finds nothing (.scratch measurement, session 15). Limits take few
 * values (page sizes, k), so their texts are cached as statements like any other.
 */
export function limitClause(limit: number | undefined): string {
  if (limit === undefined) return 'LIMIT -1';
  if (!Number.isSafeInteger(limit)) throw new TypeError(`A row limit must be an integer, got ${limit}`);
  return `LIMIT ${limit < 0 ? -1 : limit}`;
}

/** `?, ?, …` for n values. */
export const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** One connection's `PRAGMA data_version` statement, and the value read in the current read-only operation. */
interface VersionReader {
  readonly stmt: Database.Statement;
  depth: number;
  value: number | undefined;
}
const readers = new WeakMap<Database.Database, VersionReader>();

function readerOf(db: Database.Database): VersionReader {
  let reader = readers.get(db);
  if (!reader) readers.set(db, (reader = { stmt: db.prepare('PRAGMA data_version').pluck(), depth: 0, value: undefined }));
  return reader;
}

/**
 * `PRAGMA data_version` as a prepared statement (`db.pragma()` prepares on every call), read by
 * every cache before each use. Within `readOnce` it is read once: a read costs about 7 µs (the
 * WAL index is consulted, unlike for a statement that reads no table), and a context build's
 * dozen store calls made some 90 of them (each keyword term's document frequency checks it).
 */
export function dataVersion(db: Database.Database): () => number {
  const reader = readerOf(db);
  return () => (reader.depth > 0 ? (reader.value ??= reader.stmt.get() as number) : (reader.stmt.get() as number));
}

/**
 * Runs one read-only store operation with `data_version` read at most once, by its first cache
 * check. Without a read transaction around it the operation was never one snapshot: each
 * statement sees the commits made before it started. With the version read once, every cache
 * of the operation answers as of its first check, so a commit made by another connection before
 * the operation began is still always seen. Only for work that opens no transaction: waiting for
 * a write lock, another connection may commit meanwhile, and the value read before would be stale.
 */
export function readOnce<T>(db: Database.Database, fn: () => T): T {
  const reader = readerOf(db);
  reader.depth++;
  try {
    return fn();
  } finally {
    if (--reader.depth === 0) reader.value = undefined;
  }
}
