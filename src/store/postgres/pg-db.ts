import pg from 'pg';
import type { IdGenerator } from '../../deps.js';
import { EngramError } from '../../errors.js';
import { isConnectionLoss, isReadOnly, onConnection, wasNotSent, type ReconnectPolicy } from './pg-reconnect.js';

/** SQLSTATEs after which the same work may succeed when tried again. */
const RETRYABLE = new Set(['40001', '40P01']);

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
  if (code !== undefined && RETRYABLE.has(code)) {
    return new EngramError('STORE_BUSY', `The database could not complete ${what} (${code}: ${message}); retry later`, { cause: error, details });
  }
  if (isConnectionLoss(error)) {
    return new EngramError('STORE_BUSY', `The database connection was lost or refused during ${what} (${code ?? 'no code'}: ${message}); retry later`, { cause: error, details });
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

export interface PgRuntime extends ReconnectPolicy {
  /** The schema's migrations, run once (tried again on the next call when they could not run). */
  ready: () => Promise<void>;
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

const what = (sql: string) => sql.trim().split(/\s+/).slice(0, 3).join(' ');

async function sendOn(db: Queryable, sql: string, params: readonly unknown[]): Promise<pg.QueryResult<Row>> {
  try {
    return await db.query({ text: sql, values: params.map(withoutNul), types: TYPES });
  } catch (error) {
    throw toPgStoreError(error, what(sql));
  }
}

function contextOn(db: Queryable, rt: PgRuntime, inTransaction: boolean): PgContext {
  // A transaction's client runs one query at a time: calls made together inside it are queued here.
  let queue: Promise<unknown> = Promise.resolve();
  const send = (sql: string, params: readonly unknown[]) => sendOn(db, sql, params);
  const exec = async (sql: string, params: readonly unknown[] = []) => {
    if (!inTransaction) {
      await rt.ready();
      // A read lost with its connection is sent again on another; a write outside a transaction is
      // not (it may have been applied): it fails with STORE_BUSY unless it never left this process.
      const replay = (error: unknown) => isConnectionLoss(error) && (wasNotSent(error) || isReadOnly(sql));
      return onConnection(rt, (client) => sendOn(client, sql, params), replay).catch((error: unknown) => Promise.reject(toPgStoreError(error, what(sql))));
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
 * throws. A deadlock or serialization failure runs it again (bounded by `retries`). A connection
 * lost before COMMIT was sent leaves nothing applied (the server rolls back), so the whole
 * transaction runs again on a new connection while the server comes back (bounded by
 * `reconnectMs`); one lost during COMMIT may or may not have committed: STORE_BUSY with
 * `details.commitUnknown` (Engram's writes are idempotent by id, so the caller may send it again).
 */
export async function inNewTransaction<T>(rt: PgRuntime, fn: (ctx: PgContext) => Promise<T>): Promise<T> {
  await rt.ready();
  let conflicts = 0;
  let committing = false;
  const replay = (error: unknown) => {
    if (isRetryable(error)) return conflicts++ < rt.retries;
    // A COMMIT node-postgres could not even send (the client was already unusable) is safe to repeat too.
    return isConnectionLoss(error) && (!committing || wasNotSent(error));
  };
  try {
    return await onConnection(
      rt,
      async (client, markBroken) => {
        committing = false;
        await client.query('BEGIN');
        try {
          const result = await fn(contextOn(client, rt, true));
          committing = true;
          await client.query('COMMIT');
          return result;
        } catch (error) {
          if (!committing) {
            // A failed ROLLBACK means the connection is gone: the server has rolled back; drop this client.
            await client.query('ROLLBACK').catch((rollbackError: unknown) => markBroken(rollbackError));
          }
          throw error;
        }
      },
      replay,
    );
  } catch (error) {
    const typed = toPgStoreError(error, committing ? 'commit' : 'transaction');
    if (committing && isConnectionLoss(error)) {
      return Promise.reject(new EngramError('STORE_BUSY', 'The connection was lost during COMMIT: the transaction may or may not have been applied; retry later (appending messages is idempotent by message id)', { cause: error, details: { ...typed.details, commitUnknown: true } }));
    }
    throw typed;
  }
}

/** A schema name safe to splice into SQL (it is quoted, but kept simple on purpose). */
export function checkSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new EngramError('CONFIG_INVALID', `PostgreSQL schema name "${schema}" must be lower-case letters, digits and "_"`);
  return schema;
}
