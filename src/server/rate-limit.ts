import type { MiddlewareHandler } from 'hono';
import { EngramError } from '../errors.js';
import type { Clock } from '../deps.js';
import type { AppEnv } from './auth.js';

export interface RateLimitOptions {
  /** Requests per minute per key (a token bucket holding this many). @default 600 */
  perMinute: number;
}

/** A token bucket per API key; requests without a key (open loopback mode) are not limited. */
export function rateLimit(options: RateLimitOptions, clock: Clock): MiddlewareHandler<AppEnv> {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const perMs = options.perMinute / 60_000;
  return async (c, next) => {
    const key = c.var.auth.keyId;
    if (key === null) return next();
    const now = clock.now().getTime();
    const b = buckets.get(key) ?? { tokens: options.perMinute, at: now };
    b.tokens = Math.min(options.perMinute, b.tokens + (now - b.at) * perMs);
    b.at = now;
    if (b.tokens < 1) {
      buckets.set(key, b);
      throw new EngramError('RATE_LIMITED', `Too many requests for this key (${options.perMinute} per minute)`, { details: { retryAfterSeconds: Math.ceil((1 - b.tokens) / perMs / 1000) } });
    }
    b.tokens -= 1;
    buckets.set(key, b);
    return next();
  };
}
