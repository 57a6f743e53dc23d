import { OpenAPIHono } from '@hono/zod-openapi';
import { cors } from 'hono/cors';
import { requestId } from 'hono/request-id';
import type { Clock, Logger } from '../deps.js';
import { silentLogger, systemClock } from '../deps.js';
import type { MemoryEngine } from '../memory-engine.js';
import { authenticate, requireAdmin, type AppEnv } from './auth.js';
import { EngramError } from '../errors.js';
import { PASSED_THROUGH } from '../proxy/chat-proxy.js';
import { MEMORY_PATHS } from '../proxy/wire.js';
import { allowedMethods } from './allowed-methods.js';
import { bodyLimit } from './body-limit.js';
import { mountDocs } from './docs.js';
import type { EventHub } from './event-hub.js';
import { jsonGuard } from './json-guard.js';
import { createMetrics, type ServerMetrics } from './metrics.js';
import type { KeyStore } from './keys/key-store.js';
import { onError } from './on-error.js';
import { PAGE_GUARD_HEADERS, setResponseHeaders } from './response-headers.js';
import { rateLimit, type RateLimitOptions } from './rate-limit.js';
import { validationHook } from './route-kit.js';
import type { LanguageModel } from 'ai';
import { compatRoutes } from './routes/compat.js';
import { eventRoutes } from './routes/events.js';
import { keyRoutes } from './routes/keys.js';
import { keylessMe, meRoutes } from './routes/me.js';
import { memoryRoutes } from './routes/memories.js';
import { searchRoutes } from './routes/search.js';
import { sessionRoutes } from './routes/sessions.js';
import { todoRoutes } from './routes/todos.js';
import { relationRoutes } from './routes/relations.js';
import { userRoutes } from './routes/users.js';
import { sessionLister } from './sessions-view.js';
import type { Activity } from '../util/activity.js';
import { originGuard } from './origin-guard.js';

export interface CreateAppOptions {
  memory: MemoryEngine;
  /** Where API keys live (see keys/sqlite-key-store.ts). */
  keys: KeyStore;
  /** ENGRAM_ADMIN_KEY: creates keys, acts in any tenant (X-Engram-Tenant). */
  adminKey?: string;
  /**
   * The server listens on loopback: answer without a key while no admin key and no active key
   * exist, and only to loopback Host names (see originGuard). @default false
   */
  allowOpen?: boolean;
  /** Engine events fanned out on /v1/events; the same hub must be the engine's `events` sink. */
  events?: EventHub;
  /** Request bodies above this many bytes get 413. @default 1 MiB */
  bodyLimitBytes?: number;
  /**
   * The same for POST /v1/users/{userId}/import, whose body is an export: GET …/export of a user
   * with a few thousand memories is already past 1 MiB. @default 16 MiB (about 15,000 memories), or
   * bodyLimitBytes when larger
   */
  importBodyLimitBytes?: number;
  /**
   * The same for the chat proxy (POST /v1/chat/completions, and the embeddings and moderations it
   * passes through): a chat with a photo in it is a few MB of base64, which the model accepts and
   * 1 MiB refused. @default 32 MiB, or bodyLimitBytes when larger
   */
  chatBodyLimitBytes?: number;
  /** Per-key rate limit; false turns it off. @default { perMinute: 600 } */
  rateLimit?: RateLimitOptions | false;
  /** Allowed CORS origins; CORS is off when absent. */
  corsOrigins?: readonly string[];
  /** The built web page served at `/`. @default web/dist of the repository */
  webDir?: string;
  /** Tells /ready the server is draining (graceful shutdown). */
  isDraining?: () => boolean;
  /**
   * Tells /ready the server is still starting: loading its embedder, or re-embedding a store of an
   * earlier version of it. Requests are served meanwhile, but a chat's context build would time out.
   */
  isStarting?: () => boolean;
  /** Prometheus registry and request metrics. @default a new registry */
  metrics?: ServerMetrics;
  /** The memory.md workspace, for GET /v1/users/{userId}/mirror. */
  workspace?: string;
  /** The chat model behind POST /api/topics/{id}/messages (+ /stream); without one messages are only stored. */
  chat?: LanguageModel;
  /**
   * The process's requests in flight: each request counts from its start until its handler has
   * answered (a stream's body may flow on), so housekeeping waits for moments without one.
   */
  activity?: Activity;
  /** Mounts more routers (the chat proxy, MCP over HTTP) behind the same auth, before the web page's fallback. */
  mount?: (app: OpenAPIHono<AppEnv>) => void;
  logger?: Logger;
  clock?: Clock;
  /** @default the package version */
  version?: string;
}

/** The import route, whose body (an export) has a limit of its own. */
const IMPORT_PATH = /^\/v1\/users\/[^/]+\/import\/?$/;
/** The chat proxy's routes, whose bodies may carry images (base64) or a batch of texts for the model. */
const CHAT_PATH = new RegExp(`^/v1/(?:${[...MEMORY_PATHS, ...PASSED_THROUGH].map((p) => p.slice(1)).join('|')})/?$`);

/**
 * The HTTP face of one engine: `/v1/users/{userId}/…` resources, keys, events, health, OpenAPI,
 * docs and the web page. Tests call `app.request()`; `serve.ts` listens.
 */
export function createApp(options: CreateAppOptions): OpenAPIHono<AppEnv> {
  const { memory } = options;
  const logger = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.onError(onError(logger));
  // A path that exists under other methods is a 405 naming them (the Allow header), not a 404.
  const allowed = allowedMethods(app);
  app.notFound((c) => {
    const allow = allowed(c.req.path);
    if (allow.length > 0) throw new EngramError('METHOD_NOT_ALLOWED', `${c.req.method} is not allowed on ${c.req.path}: use ${allow.join(', ')}`, { details: { method: c.req.method, allow } });
    return c.json({ error: { code: 'NOT_FOUND', message: `No route ${c.req.method} ${c.req.path}`, requestId: c.get('requestId') } }, 404);
  });
  app.use(requestId());
  // The page keeps its key in the browser: no other site may frame it (clickjacking); no body is sniffed as another type.
  app.use(async (c, next) => {
    await next();
    setResponseHeaders(c, PAGE_GUARD_HEADERS);
  });
  const activity = options.activity;
  if (activity) {
    app.use(async (_c, next) => {
      const end = activity.begin();
      try {
        await next();
      } finally {
        end();
      }
    });
  }
  const metrics = options.metrics ?? createMetrics(memory);
  app.use(metrics.middleware);
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    logger.debug('request', { requestId: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) });
  });
  // ETag exposed: a page on another origin reads a memory's version to send back in If-Match.
  if (options.corsOrigins && options.corsOrigins.length > 0) app.use(cors({ origin: [...options.corsOrigins], exposeHeaders: ['X-Request-Id', 'ETag'] }));

  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.get('/ready', async (c) => {
    if (options.isDraining?.()) return c.json({ status: 'draining' }, 503);
    if (options.isStarting?.()) return c.json({ status: 'starting' }, 503);
    await memory.deps.store.embedderInfo();
    return c.json({ status: 'ready' });
  });

  // Before the key is read: a page elsewhere gets nothing from a loopback server (DNS rebinding, a keyless cross-site request).
  const guard = originGuard({ loopback: options.allowOpen ?? false, allowedOrigins: options.corsOrigins });
  for (const path of ['/v1/*', '/api/*', '/metrics', '/mcp']) app.use(path, guard);
  const authOptions = { keys: options.keys, adminKey: options.adminKey, allowOpen: options.allowOpen ?? false };
  app.use('/v1/me', keylessMe(authOptions));
  const auth = authenticate(authOptions);
  for (const path of ['/v1/*', '/api/*', '/metrics', '/mcp']) app.use(path, auth);
  const limiter = options.rateLimit === false ? undefined : rateLimit(options.rateLimit ?? { perMinute: 600 }, clock);
  if (limiter) for (const path of ['/v1/*', '/api/*', '/mcp']) app.use(path, limiter);
  app.use('/metrics', requireAdmin);
  // One import at a time per process: each holds its whole export in memory, read and parsed.
  let importing = false;
  app.use(async (c, next) => {
    if (c.req.method !== 'POST' || !IMPORT_PATH.test(c.req.path)) return next();
    if (importing) throw new EngramError('RATE_LIMITED', 'Another import is running on this server; retry when it is done', { details: { retryAfterSeconds: 5 } });
    importing = true;
    try {
      await next();
    } finally {
      importing = false;
    }
  });
  // Bodies are read only once the caller is known: a request without a key gets 401 unread, not a
  // buffer and a parse of whatever it sent (a chunked body is read whole to be measured).
  const limit = options.bodyLimitBytes ?? 1024 * 1024;
  app.use(
    bodyLimit(limit, [
      { path: IMPORT_PATH, maxBytes: options.importBodyLimitBytes ?? Math.max(limit, 16 * 1024 * 1024) },
      { path: CHAT_PATH, maxBytes: options.chatBodyLimitBytes ?? Math.max(limit, 32 * 1024 * 1024) },
    ]),
  );
  app.use(jsonGuard);
  if (limiter) app.use('/mcp', limiter.batches);
  app.get('/metrics', async (c) => c.body(await metrics.registry.metrics(), 200, { 'content-type': metrics.registry.contentType }));

  app.route('/', memoryRoutes(memory));
  app.route('/', searchRoutes(memory));
  app.route('/', sessionRoutes(memory, sessionLister(memory)));
  app.route('/', userRoutes(memory, { workspace: options.workspace }));
  app.route('/', todoRoutes(memory));
  app.route('/', relationRoutes(memory));
  app.route('/', compatRoutes(memory, { chat: options.chat, logger }));
  app.route('/', keyRoutes(options.keys));
  app.route('/', meRoutes());
  app.route('/', eventRoutes(options.events, { keys: options.keys }));
  options.mount?.(app);

  mountDocs(app, { webDir: options.webDir, version: options.version ?? '0.1.0' });
  return app;
}
