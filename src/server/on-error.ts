import type { ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from '../deps.js';
import { EngramError, type ErrorCode } from '../errors.js';
import type { AppEnv } from './auth.js';

/** The one place an error code becomes an HTTP status (STYLE habit 7). */
export const STATUS_OF: Record<ErrorCode, ContentfulStatusCode> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  EMBEDDER_MISMATCH: 409,
  CONFIG_INVALID: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  STORE_FAILED: 500,
  STORE_BUSY: 503,
  MIRROR_FAILED: 500,
  MIGRATION_FAILED: 500,
  MODEL_FAILED: 502,
  MODEL_OUTPUT_INVALID: 502,
  EMBEDDING_FAILED: 502,
  DELIVERY_FAILED: 502,
  UPSTREAM_FAILED: 502,
  MODEL_TIMEOUT: 504,
};

const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = { 400: 'INVALID_INPUT', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED', 413: 'PAYLOAD_TOO_LARGE', 429: 'RATE_LIMITED' };

export interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown>; requestId?: string };
}

/** Maps every thrown error to `{ error: { code, message, details, requestId } }`; unknown errors are a logged 500. */
export function onError(logger: Logger): ErrorHandler<AppEnv> {
  return (err, c) => {
    const requestId = c.get('requestId');
    if (EngramError.isInstance(err)) {
      const status = STATUS_OF[err.code] ?? 500;
      if (status >= 500) logger.error('request failed', { requestId, code: err.code, message: err.message });
      if (err.code === 'RATE_LIMITED' && typeof err.details?.retryAfterSeconds === 'number') c.header('Retry-After', String(err.details.retryAfterSeconds));
      if (err.code === 'METHOD_NOT_ALLOWED' && Array.isArray(err.details?.allow)) c.header('Allow', err.details.allow.join(', '));
      return c.json<ErrorBody>({ error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}), requestId } }, status);
    }
    if (err instanceof HTTPException) {
      const status = err.status as ContentfulStatusCode;
      const code = CODE_OF_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_INPUT');
      return c.json<ErrorBody>({ error: { code, message: err.message || 'Request failed', requestId } }, status);
    }
    // A store constraint (e.g. importing memory ids this database already holds) is the caller's conflict, not a crash.
    if (err instanceof Error && typeof (err as unknown as { code?: unknown }).code === 'string' && (err as unknown as { code: string }).code.startsWith('SQLITE_CONSTRAINT')) {
      return c.json<ErrorBody>({ error: { code: 'CONFLICT', message: `Conflicts with data already stored: ${err.message}`, requestId } }, 409);
    }
    logger.error('unexpected error', { requestId, error: err instanceof Error ? err.stack ?? err.message : String(err) });
    return c.json<ErrorBody>({ error: { code: 'INTERNAL', message: 'Internal error', requestId } }, 500);
  };
}
