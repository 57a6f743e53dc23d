import { EngramError } from '../../errors.js';

/** The SQLite result codes that mean "another connection holds the lock": retrying later can succeed. */
const BUSY_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY', 'SQLITE_BUSY_TIMEOUT', 'SQLITE_LOCKED', 'SQLITE_LOCKED_SHAREDCACHE']);

function sqliteCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/**
 * Turns anything thrown by better-sqlite3 or sqlite-vec into a typed EngramError, keeping the raw
 * error as its cause: callers branch on STORE_BUSY (retry later) or STORE_FAILED, never on a
 * SqliteError. Engram's own errors pass through unchanged.
 */
export function toStoreError(error: unknown, what = 'store operation'): EngramError {
  if (EngramError.isInstance(error)) return error;
  const code = sqliteCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code !== undefined && BUSY_CODES.has(code)) {
    return new EngramError('STORE_BUSY', `The database is locked by another process (${code}) during ${what}; retry later`, { cause: error, details: { sqliteCode: code } });
  }
  if (code?.startsWith('SQLITE_CONSTRAINT')) {
    return new EngramError('CONFLICT', `Conflicts with data already stored (${code}) during ${what}: ${message}`, { cause: error, details: { sqliteCode: code } });
  }
  return new EngramError('STORE_FAILED', `${what} failed: ${message}`, { cause: error, details: code === undefined ? undefined : { sqliteCode: code } });
}

/** Runs synchronous store work, rethrowing any raw error as a typed one. */
export function typed<T>(fn: () => T, what?: string): T {
  try {
    return fn();
  } catch (error) {
    throw toStoreError(error, what);
  }
}
