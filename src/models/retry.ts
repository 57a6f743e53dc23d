import { APICallError, RetryError } from 'ai';

/** Backoff between attempts: `initialMs * 2^(retry-1)`, capped at `maxMs`. */
export interface BackoffOptions {
  /** @default 500 */
  initialMs?: number;
  /** @default 8000 */
  maxMs?: number;
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** What went wrong in one attempt, and whether another attempt may help. */
export interface FailureInfo {
  retryable: boolean;
  /** HTTP status when the server answered. */
  status?: number;
  /** Delay the server asked for (Retry-After), in ms. */
  retryAfterMs?: number;
  message: string;
}

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

export function backoffDelay(retry: number, backoff: BackoffOptions = {}): number {
  const initial = backoff.initialMs ?? 500;
  const max = backoff.maxMs ?? 8000;
  return Math.min(max, initial * 2 ** Math.max(0, retry - 1));
}

/** Sleeps, waking early (with the signal's reason) when the caller aborts. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

function parseRetryAfter(headers: Record<string, string> | undefined): number | undefined {
  const value = headers?.['retry-after'] ?? headers?.['Retry-After'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function hasNetworkCode(error: unknown): boolean {
  // Walk the cause chain: undici wraps the socket error in TypeError("fetch failed").
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  }
  return false;
}

/**
 * Retry on 408, 429, 5xx and network errors (also mid-response); everything else (400, 401, 404, ...) will fail the
 * same way again. Timeouts are classified by the caller, which owns the timer.
 */
export function classifyFailure(error: unknown): FailureInfo {
  const inner = RetryError.isInstance(error) && error.lastError !== undefined ? error.lastError : error;
  const message = inner instanceof Error ? inner.message : String(inner);
  if (APICallError.isInstance(inner)) {
    const status = inner.statusCode;
    const info: FailureInfo = {
      // A connection dropped mid-response arrives as a 200 whose body failed ("terminated",
      // UND_ERR_SOCKET in the causes): the network failed, not the request, so try again.
      retryable: hasNetworkCode(inner) || (status === undefined ? inner.isRetryable : status === 408 || status === 429 || status >= 500),
      message,
    };
    if (status !== undefined) info.status = status;
    const retryAfterMs = parseRetryAfter(inner.responseHeaders);
    if (retryAfterMs !== undefined) info.retryAfterMs = retryAfterMs;
    return info;
  }
  return { retryable: hasNetworkCode(inner), message };
}
