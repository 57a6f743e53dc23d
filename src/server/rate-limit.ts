import type { MiddlewareHandler } from 'hono';
import { EngramError } from '../errors.js';
import type { Clock } from '../deps.js';
import type { AppEnv } from './auth.js';

export interface RateLimitOptions {
  /** Requests per minute per key (a token bucket holding this many). @default 600 */
  perMinute: number;
}

/**
 * A token bucket per API key; requests without a key (open loopback mode) are not limited. The
 * middleware charges one request; `batches` charges the rest of a JSON-RPC batch once its body is
 * read (100 MCP tool calls in one POST are 100 requests).
 */
export function rateLimit(options: RateLimitOptions, clock: Clock): MiddlewareHandler<AppEnv> & { batches: MiddlewareHandler<AppEnv> } {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const perMs = options.perMinute / 60_000;
  const charge = (key: string, n: number): void => {
    const now = clock.now().getTime();
    const b = buckets.get(key) ?? { tokens: options.perMinute, at: now };
    b.tokens = Math.min(options.perMinute, b.tokens + (now - b.at) * perMs);
    b.at = now;
    if (b.tokens < n) {
      buckets.set(key, b);
      throw new EngramError('RATE_LIMITED', `Too many requests for this key (${options.perMinute} per minute)`, { details: { retryAfterSeconds: Math.ceil((n - b.tokens) / perMs / 1000) } });
    }
    b.tokens -= n;
    buckets.set(key, b);
  };
  const limit: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (c.var.auth.keyId !== null) charge(c.var.auth.keyId, 1);
    return next();
  };
  const batches: MiddlewareHandler<AppEnv> = async (c, next) => {
    const key = c.var.auth.keyId;
    if (key === null || c.req.method !== 'POST' || !/json/i.test(c.req.header('content-type') ?? '')) return next();
    // jsonGuard refused malformed JSON already: a body that still does not parse is no batch.
    const body: unknown = await c.req.json().catch(() => undefined);
    if (Array.isArray(body) && body.length > 1) charge(key, body.length - 1);
    return next();
  };
  return Object.assign(limit, { batches });
}
