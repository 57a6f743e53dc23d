import type { MiddlewareHandler } from 'hono';
import { bodyLimit as streamingBodyLimit } from 'hono/body-limit';
import { EngramError } from '../errors.js';
import type { AppEnv } from './auth.js';

/**
 * 413 PAYLOAD_TOO_LARGE above `maxBytes`. A request that declares its length (no chunked
 * transfer) is judged by the header alone, without touching the body: Node's parser never reads
 * past Content-Length, and Hono's own body limit would build a web `Request` with a body stream for
 * every POST (about a third of a small search's HTTP cost) instead of letting the server read the
 * body straight from the socket. Chunked bodies are counted as they stream in. `routes` give some
 * paths a limit of their own (the first that matches), e.g. an import larger than any other body.
 */
export function bodyLimit(maxBytes: number, routes: ReadonlyArray<{ path: RegExp; maxBytes: number }> = []): MiddlewareHandler<AppEnv> {
  const limits = [...routes, { path: /(?:)/, maxBytes }].map((r) => {
    const tooLarge = (): never => {
      throw new EngramError('PAYLOAD_TOO_LARGE', `The request body is larger than ${r.maxBytes} bytes`, { details: { limitBytes: r.maxBytes } });
    };
    return { ...r, tooLarge, streaming: streamingBodyLimit({ maxSize: r.maxBytes, onError: tooLarge }) };
  });
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const limit = limits.find((r) => r.path.test(c.req.path))!;
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (!/^\d+$/.test(declared)) throw new EngramError('INVALID_INPUT', 'Invalid Content-Length header', { details: { field: 'Content-Length' } });
      if (Number(declared) > limit.maxBytes) limit.tooLarge();
      return next();
    }
    return limit.streaming(c, next);
  };
}
