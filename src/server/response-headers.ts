import type { Context } from 'hono';

/** What no page elsewhere may do with ours: frame it (clickjacking), or sniff a body as another type. */
export const PAGE_GUARD_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
});

/**
 * Sets headers on the response a handler returned, in place. Hono's `c.header` after the handler
 * copies the response at every call (body stream and all), and the Node adapter then reads a
 * copied body ahead to measure it, waiting a timer turn (~1 ms) for a second chunk before the
 * first is written: three headers cost a streamed reply's first token about a millisecond
 * (bench/results/2026-11-27-s27.md). Only a response whose headers cannot change (one from
 * `fetch`, passed on as it came) is copied, by `c.header`.
 */
export function setResponseHeaders(c: Context, headers: Readonly<Record<string, string>>): void {
  const entries = Object.entries(headers);
  try {
    for (const [name, value] of entries) c.res.headers.set(name, value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    for (const [name, value] of entries) c.header(name, value);
  }
}
