import type { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';

/** The order methods are listed in an `Allow` header. */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The methods an app's routes answer on a path, for a 405 with `Allow` where Hono would say
 * 404. Middleware and all-method routes (`use`, `all`) say nothing about a path's methods, and
 * a GET on every path (the web page's fallback) is no route of its own: both are left out. The
 * table is built on first use, once every router is mounted, and again if routes were added.
 */
export function allowedMethods(app: Pick<Hono, 'routes'>): (path: string) => string[] {
  let built = -1;
  let router = new TrieRouter<string>();
  return (path) => {
    if (built !== app.routes.length) {
      router = new TrieRouter<string>();
      for (const r of app.routes) if (r.method !== 'ALL' && !/^\/?\*$/.test(r.path)) router.add('ALL', r.path, r.method);
      built = app.routes.length;
    }
    const methods = new Set(router.match('GET', path)[0].map(([method]) => method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort((a, b) => rank(a) - rank(b));
  };
}

const rank = (method: string): number => (ORDER.includes(method) ? ORDER.indexOf(method) : ORDER.length);
