import pg from 'pg';
import type { IdGenerator } from '../../deps.js';
import { EngramError } from '../../errors.js';

/** SQLSTATEs after which the same work may succeed when tried again. */
const RETRYABLE = new Set(['40001', '40P01']);
/** Connection-level failures: the server went away, is starting or shutting down. */
const CONNECTION = /^(08|57P0[1-3])/;
const NODE_CONNECTION = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND']);

function sqlState(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** True for a deadlock or serialization failure: the whole transaction may be run again. */
export function isRetryable(error: unknown): boolean {
  const code = sqlState(EngramError.isInstance(error) ? error.cause : error);
  return code !== undefined && RETRYABLE.has(code);
}

/**
 * Anything node-postgres throws, as a typed EngramError with the raw error as its cause:
 * STORE_BUSY for deadlocks, serialization failures and lost connections (retry later), CONFLICT
 * for unique violations, STORE_FAILED otherwise. Engram's own errors pass through.
 */
export function toPgStoreError(error: unknown, what = 'store operation'): EngramError {
  if (EngramError.isInstance(error)) return error;
  const code = sqlState(error);
  const message = error instanceof Error ? error.message : String(error);
  const details = code === undefined ? undefined : { sqlState: code };
  if (code !== undefined && (RETRYABLE.has(code) || CONNECTION.test(code) || NODE_CONNECTION.has(code))) {
    return new EngramError('STORE_BUSY', `The database could not complete ${what} (${code}: ${message}); retry later`, { cause: error, details });
  }
  if (/Connection terminated|connection is closed|Client was closed|Client has encountered a connection error/i.test(message)) {
    return new EngramError('STORE_BUSY', `The database connection was lost during ${what}: ${message}; retry later`, { cause: error, details });
  }
  if (code === '23505') return new EngramError('CONFLICT', `Conflicts with data already stored during ${what}: ${message}`, { cause: error, details });
  return new EngramError('STORE_FAILED', `${what} failed: ${message}`, { cause: error, details });
}

/** int8 (counts, millisecond times) as a number: every value Engram stores fits in 2^53. */
const TYPES = {
  getTypeParser: ((oid: number, format?: string) => (oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser,
};

export type Row = Record<string, unknown>;

/** Something that runs a query: the pool, or one client inside a transaction. */
export interface Queryable {
  query(config: pg.QueryConfig): Promise<pg.QueryResult<Row>>;
}

/**
 * What every role of the PostgreSQL store works with: queries on the current connection (the pool,
 * or the transaction's client), and `atomic` for several statements that must commit together
 * (its own transaction outside one, joining it inside).
 */
export interface PgContext {
  rows<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Rows affected. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  atomic<T>(fn: (ctx: PgContext) => Promise<T>): Promise<T>;
  readonly inTransaction: boolean;
  readonly ids: IdGenerator;
}

export interface PgRuntime {
  pool: pg.Pool;
  ready: Promise<void>;
  ids: IdGenerator;
  /** How many times a transaction that hit a deadlock or serialization failure is run again. */
  retries: number;
}

/**
 * PostgreSQL text cannot hold NUL, which SQLite stores and Engram uses in lookups no row can match
 * (the global settings are read as user "\u0000"). NUL is sent as U+FFFD: such lookups still match
 * nothing, and text holding NUL is stored with U+FFFD in its place rather than refused.
 */
function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\u0000') ? value.replace(/\u0000/g, '\uFFFD') : value;
  if (Array.isArray(value)) return value.map(withoutNul);
  return value;
}

function contextOn(db: Queryable, rt: PgRuntime, inTransaction: boolean): PgContext {
  // A transaction's client runs one query at a time: calls made together inside it are queued here.
  let queue: Promise<unknown> = Promise.resolve();
  const send = async (sql: string, params: readonly unknown[]) => {
    try {
      return await db.query({ text: sql, values: params.map(withoutNul), types: TYPES });
    } catch (error) {
      throw toPgStoreError(error, sql.trim().split(/\s+/).slice(0, 3).join(' '));
    }
  };
  const exec = async (sql: string, params: readonly unknown[] = []) => {
    if (!inTransaction) {
      await rt.ready;
      return send(sql, params);
    }
    const result = queue.then(() => send(sql, params));
    queue = result.catch((error: unknown) => error);
    return result;
  };
  const ctx: PgContext = {
    inTransaction,
    ids: rt.ids,
    rows: async <T>(sql: string, params?: readonly unknown[]) => (await exec(sql, params)).rows as T[],
    run: async (sql, params) => (await exec(sql, params)).rowCount ?? 0,
    atomic: (fn) => (inTransaction ? inSavepoint(ctx, fn) : inNewTransaction(rt, fn)),
  };
  return ctx;
}

let savepoints = 0;

/**
 * Nested atomic work inside a transaction runs under a savepoint: when it fails (a duplicate id
 * the caller handles), the transaction stays usable, as it does on SQLite.
 */
async function inSavepoint<T>(ctx: PgContext, fn: (ctx: PgContext) => Promise<T>): Promise<T> {
  const name = `engram_sp_${++savepoints}`;
  await ctx.run(`SAVEPOINT ${name}`);
  try {
    const result = await fn(ctx);
    await ctx.run(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    await ctx.run(`ROLLBACK TO SAVEPOINT ${name}`);
    throw error;
  }
}

export function poolContext(rt: PgRuntime): PgContext {
  return contextOn(rt.pool, rt, false);
}

/**
 * Runs `fn` in a transaction on a dedicated client: COMMIT when it resolves, ROLLBACK when it
 * throws. A deadlock or serialization failure runs it again (bounded); a connection lost
 * mid-transaction leaves nothing applied (the server rolls back) and the client is discarded.
 */
export async function inNewTransaction<T>(rt: PgRuntime, fn: (ctx: PgContext) => Promise<T>): Promise<T> {
  await rt.ready;
  for (let attempt = 0; ; attempt++) {
    let client: pg.PoolClient;
    try {
      client = await rt.pool.connect();
    } catch (error) {
      throw toPgStoreError(error, 'connecting');
    }
    let broken: unknown;
    // A checked-out client whose connection dies emits 'error'; unheard, node would crash the
    // process. The failing query reports it; the client is discarded on release.
    const onError = (error: unknown) => (broken = error);
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await fn(contextOn(client, rt, true));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // The connection is gone: the server has rolled the transaction back; drop this client.
        broken = rollbackError;
      }
      if (attempt < rt.retries && isRetryable(error)) continue;
      throw toPgStoreError(error, 'transaction');
    } finally {
      client.off('error', onError);
      client.release(broken === undefined ? undefined : broken instanceof Error ? broken : new Error(String(broken)));
    }
  }
}

/** A schema name safe to splice into SQL (it is quoted, but kept simple on purpose). */
export function checkSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new EngramError('CONFIG_INVALID', `PostgreSQL schema name "${schema}" must be lower-case letters, digits and "_"`);
  return schema;
}
