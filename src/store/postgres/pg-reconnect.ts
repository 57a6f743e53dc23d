import type pg from 'pg';
import { EngramError } from '../../errors.js';

/** Connection-level SQLSTATEs: the server went away (08…), is shutting down or starting up (57P01–57P03). */
const CONNECTION = /^(08|57P0[1-3])/;
const NODE_CONNECTION = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);
const LOST = /Connection terminated|connection is closed|Client was closed|Client has encountered a connection error|not queryable/i;
/** node-postgres refused to send: the statement never reached the server, so sending it again is always safe. */
const NOT_SENT = /not queryable|Client was closed/i;

const rawOf = (error: unknown): unknown => (EngramError.isInstance(error) && error.cause !== undefined ? rawOf(error.cause) : error);

function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** True when `error` (or the error an EngramError wraps) means the connection to the server was lost or refused. */
export function isConnectionLoss(error: unknown): boolean {
  const raw = rawOf(error);
  const code = codeOf(raw);
  if (code !== undefined && (CONNECTION.test(code) || NODE_CONNECTION.has(code))) return true;
  return raw instanceof Error && LOST.test(raw.message);
}

/** True when node-postgres never sent the statement (the client was already unusable). */
export function wasNotSent(error: unknown): boolean {
  const raw = rawOf(error);
  return raw instanceof Error && NOT_SENT.test(raw.message);
}

/**
 * A statement that changes nothing, so running it again after a lost connection is safe: a plain
 * SELECT (or WITH … SELECT) that neither writes, locks nor notifies.
 */
export function isReadOnly(sql: string): boolean {
  return /^\s*(SELECT|WITH)\b/i.test(sql) && !/\b(INSERT|UPDATE|DELETE|FOR\s+(NO\s+KEY\s+)?UPDATE|FOR\s+(KEY\s+)?SHARE|pg_notify|nextval|setval|pg_advisory)/i.test(sql);
}

export interface ReconnectPolicy {
  pool: pg.Pool;
  /**
   * How long work keeps trying to reach the server after losing it (a restart, a failover), before
   * it fails with STORE_BUSY. Only work that is safe to repeat is tried again (see onConnection).
   */
  reconnectMs: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const backoff = (attempt: number) => Math.min(500, 25 * 2 ** attempt);

/**
 * Runs `fn` on a client of the pool and gives the client back, discarded when its connection broke
 * (an 'error' on a checked-out client is heard here: unheard, node would crash the process). A
 * failure to connect is tried again with backoff until `reconnectMs` has passed: nothing was sent.
 * A failure inside `fn` is tried again only when `replay(error)` says so (a connection loss is
 * then also bounded by `reconnectMs`). What finally fails is returned as the raw error for the
 * caller to type.
 */
export async function onConnection<T>(policy: ReconnectPolicy, fn: (client: pg.PoolClient, markBroken: (error: unknown) => void) => Promise<T>, replay: (error: unknown) => boolean): Promise<T> {
  const deadline = Date.now() + policy.reconnectMs;
  for (let attempt = 0; ; attempt++) {
    let client: pg.PoolClient;
    try {
      client = await policy.pool.connect();
    } catch (error) {
      if (isConnectionLoss(error) && Date.now() < deadline) {
        await sleep(backoff(attempt));
        continue;
      }
      throw error;
    }
    let broken: unknown;
    const markBroken = (error: unknown) => (broken ??= error);
    client.on('error', markBroken);
    try {
      return await fn(client, markBroken);
    } catch (error) {
      if (isConnectionLoss(error)) markBroken(error);
      if (!replay(error) || (isConnectionLoss(error) && Date.now() >= deadline)) throw error;
    } finally {
      client.off('error', markBroken);
      client.release(broken === undefined ? undefined : broken instanceof Error ? broken : new Error(String(broken)));
    }
    await sleep(backoff(attempt));
  }
}
