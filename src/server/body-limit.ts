import type { MiddlewareHandler } from 'hono';
import { bodyLimit as streamingBodyLimit } from 'hono/body-limit';
import { EngramError } from '../errors.js';
import type { AppEnv } from './auth.js';

/**
 * 413 PAYLOAD_TOO_LARGE above `maxBytes`. A request that declares its length (no chunked
 * transfer) is judged by the header alone, without touching the body: Node's parser never reads
 * past Content-Length, and Hono's own body limit would build a web `Request` with a body stream for
 * every POST (about a third of a small search's HTTP cost) instead of letting the server read the
 * body straight from the socket. Chunked bodies are counted as they stream in.
 */
export function bodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  const tooLarge = (): never => {
    throw new EngramError('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes`, { details: { limitBytes: maxBytes } });
  };
  const streaming = streamingBodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (!/^\d+$/.test(declared)) throw new EngramError('INVALID_INPUT', 'Invalid Content-Length header', { details: { field: 'Content-Length' } });
      if (Number(declared) > maxBytes) tooLarge();
      return next();
    }
    return streaming(c, next);
  };
}
