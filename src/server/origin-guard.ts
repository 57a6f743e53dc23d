import type { MiddlewareHandler } from 'hono';
import { EngramError } from '../errors.js';

export interface OriginGuardOptions {
  /** The server listens on loopback only: a Host naming anything else came through DNS rebinding. */
  loopback: boolean;
  /** Origins allowed besides the server's own (ENGRAM_CORS_ORIGINS). */
  allowedOrigins?: readonly string[];
}

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;

/**
 * What a web page elsewhere must not do to a server on this machine. On a loopback listener a
 * Host that names another site is refused: a page that rebinds its own name to 127.0.0.1 would
 * otherwise read and write everything in the open (keyless) mode. And a request carrying no key
 * from another origin's page (the browser says so in `Origin`) is refused: in the open mode it
 * would act for the user (a chat turn sent as text/plain needs no preflight). A request with a key
 * is the key holder's, whatever page sent it.
 */
export function originGuard(options: OriginGuardOptions): MiddlewareHandler {
  const allowed = new Set(options.allowedOrigins ?? []);
  return async (c, next) => {
    const host = c.req.header('host');
    if (options.loopback && host !== undefined && !LOOPBACK_HOST.test(host)) {
      throw new EngramError('FORBIDDEN', `Host "${host}" is not this server's: on loopback only localhost, 127.0.0.1 and [::1] are answered`, { details: { host } });
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && c.req.header('authorization') === undefined && !allowed.has(origin) && !sameHost(origin, host)) {
      throw new EngramError('FORBIDDEN', `A request without a key from another origin (${origin}) is refused`, { details: { origin } });
    }
    return next();
  };
}

/** Whether an Origin names the host the request was sent to ("http://127.0.0.1:8787" for Host "127.0.0.1:8787"). */
function sameHost(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    // "null" (a sandboxed frame, a file) and anything unparsable name no host.
    return false;
  }
}
