import pg from 'pg';
import type { IdGenerator } from '../../deps.js';
import { randomIds } from '../../deps.js';
import { EngramError } from '../../errors.js';
import type { Store } from '../store.js';
import { checkSchemaName, inNewTransaction, poolContext, toPgStoreError, type PgContext, type PgRuntime } from './pg-db.js';
import { onConnection } from './pg-reconnect.js';
import { forgottenRole } from './pg-forgotten.js';
import { forgetRole } from './pg-forget.js';
import { memoryRole } from './pg-memories.js';
import { messageRole } from './pg-messages.js';
import { profileRole } from './pg-profiles.js';
import { migratePg } from './pg-schema.js';
import { PgSearchCache, type PgSearchCacheOptions } from './pg-search-cache.js';
import { sessionRole } from './pg-sessions.js';
import { settingsRole } from './pg-settings.js';
import { jobLeaseRole } from './pg-job-leases.js';
import { todoRole } from './pg-todos.js';
import { vectorRole } from './pg-vectors.js';

export interface PostgresStoreOptions {
  /** A connection string, `postgres://user@host:port/db`; `?schema=name` picks the schema. One of `url` or `pool`. */
  url?: string;
  /** A pool the caller owns (not ended by close()). Its new connections get this store's search_path. */
  pool?: pg.Pool;
  /** The schema holding Engram's tables, created on first use. @default "public" */
  schema?: string;
  ids?: IdGenerator;
  /** Connections in the pool this store creates from `url`. @default 10 */
  maxConnections?: number;
  /** Runs of a transaction after a deadlock or serialization failure. @default 3 */
  retries?: number;
  /** Searched users' memory codes and keyword postings held in this process, validated against the database on each search (pg-search-cache.ts). */
  searchCache?: PgSearchCacheOptions;
  /**
   * How long a call keeps trying to reach a server that went away (a restart, a failover) before
   * failing with STORE_BUSY. Only work safe to repeat is tried again: connecting, reads, and
   * transactions that lost their connection before COMMIT. @default 5000
   */
  reconnectMs?: number;
}

/** The PostgreSQL store's handle on its pool and schema (the server's key store and event bus use it). */
export interface PostgresHandle {
  pool: pg.Pool;
  schema: string;
  /** The schema's migrations (tried again on the next read of `ready` when the server was unreachable). */
  readonly ready: Promise<void>;
  /** Rows of one statement (name tables with the schema), with the store's reconnect policy and typed errors. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

const HANDLE = Symbol.for('engram.postgres-handle');

/** The pool and schema under an Engram PostgreSQL store, or null for another store. */
export function postgresHandleOf(store: Store): PostgresHandle | null {
  const handle = (store as { [HANDLE]?: PostgresHandle })[HANDLE];
  return handle ?? null;
}

/** `?schema=` taken out of a connection string (node-postgres would pass it on as a server setting). */
function splitSchema(url: string): { url: string; schema?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    throw new EngramError('CONFIG_INVALID', 'The PostgreSQL URL is not a valid URL (expected postgres://user:password@host:port/database)', { cause });
  }
  const schema = parsed.searchParams.get('schema') ?? undefined;
  if (schema === undefined) return { url };
  parsed.searchParams.delete('schema');
  return { url: parsed.toString(), schema };
}

/** The store's roles over one connection (the pool, or a transaction's client). */
function rolesOn(ctx: PgContext, cache: PgSearchCache | undefined): Omit<Store, 'backup' | 'transaction' | 'close'> {
  return { ...vectorRole(ctx), ...memoryRole(ctx, cache), ...messageRole(ctx), ...sessionRole(ctx), ...todoRole(ctx), ...profileRole(ctx), ...settingsRole(ctx), ...forgetRole(ctx), ...forgottenRole(ctx), ...jobLeaseRole(ctx) };
}

const noBackup = (): Promise<never> =>
  Promise.reject(new EngramError('CONFIG_INVALID', 'engram backup copies a SQLite file; for PostgreSQL use pg_dump (e.g. pg_dump --format=custom --schema=<schema> <url> > engram.dump)'));

/**
 * Engram's store on PostgreSQL (node-postgres), with the same semantics as the SQLite store:
 * history in the same transaction as every change, the forget fence, leases with fencing tokens,
 * idempotent reminder deliveries. Returns at once; migrations run on first use (under an
 * advisory lock, so several processes may open one database together) and every call waits
 * for them. Vectors need no extension: sign codes in `varbit` narrow candidates in SQL, float32
 * `bytea` vectors are scored exactly in Node.
 */
export function openPostgresStore(options: PostgresStoreOptions): Store {
  if (!options.url && !options.pool) throw new EngramError('CONFIG_INVALID', 'openPostgresStore needs a url or a pool');
  const target = options.url ? splitSchema(options.url) : undefined;
  const schema = checkSchemaName(options.schema ?? target?.schema ?? 'public');
  const owned = !options.pool;
  // A pool made here sets the search_path at connection time; a caller's pool gets it on 'connect'.
  const pool = options.pool ?? new pg.Pool({ connectionString: target?.url, max: options.maxConnections ?? 10, options: `-c search_path="${schema}"` });
  // An idle client losing its connection (a server restart) is dropped by the pool; without a
  // listener node would treat the event as an uncaught error and exit.
  pool.on('error', (error) => error);
  if (!owned) {
    pool.on('connect', (client) => {
      client.query(`SET search_path TO "${schema}"`).catch((error: unknown) => client.emit('error', error));
    });
  }
  const reconnectMs = options.reconnectMs ?? 5_000;
  // Migrations run once; when the server could not be reached they run again on the next call.
  let migrated: Promise<void> | undefined;
  const ready = (): Promise<void> =>
    (migrated ??= onConnection({ pool, reconnectMs }, (client) => migratePg(client, schema), () => false).catch((error: unknown) => {
      migrated = undefined;
      throw toPgStoreError(error, `opening PostgreSQL schema "${schema}"`);
    }));
  // Nobody may be waiting yet: the failure is reported to every call instead.
  ready().catch((error: unknown) => error);
  // Per store, so two stores in one process (two pools) each check their own against the database.
  const cache = options.searchCache?.enabled === false ? undefined : new PgSearchCache('memories', options.searchCache);
  const rt: PgRuntime = { pool, reconnectMs, ready, ids: options.ids ?? randomIds, retries: options.retries ?? 3 };
  const handle: PostgresHandle = {
    pool,
    schema,
    get ready() {
      return ready();
    },
    query: <T>(sql: string, params: readonly unknown[] = []) => poolContext(rt).rows<T>(sql, params),
  };
  let closed: Promise<void> | undefined;

  const txStore = (ctx: PgContext): Store => ({
    ...rolesOn(ctx, cache),
    backup: noBackup,
    transaction: (fn) => fn(txStore(ctx)),
    close: () => Promise.resolve(),
  });

  const store: Store & { [HANDLE]: PostgresHandle } = {
    ...rolesOn(poolContext(rt), cache),
    backup: noBackup,
    transaction: (fn) => inNewTransaction(rt, (ctx) => fn(txStore(ctx))),
    close: () =>
      (closed ??= (async () => {
        await migrated?.catch((error: unknown) => error);
        if (owned) await pool.end();
      })()),
    [HANDLE]: handle,
  };
  return store;
}
