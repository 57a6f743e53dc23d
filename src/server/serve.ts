import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { openEngine, resolveEngineSettings } from '../cli/config.js';
import type { Logger } from '../deps.js';
import { consoleLogger } from '../deps.js';
import { EngramError } from '../errors.js';
import type { MemoryEngine } from '../memory-engine.js';
import { callbackNotifier, type Notifier } from '../notify/notifier.js';
import { webhookNotifier } from '../notify/webhook-notifier.js';
import { splitUserId } from './auth.js';
import { createApp } from './app.js';
import type { AppEnv } from './auth.js';
import { mountDoors } from './doors.js';
import { createEventHub } from './event-hub.js';
import type { EventSink } from '../events.js';
import { postgresHandleOf } from '../store/postgres/postgres-store.js';
import { startPgEventRelay, type EventRelay } from './pg-event-relay.js';
import { keyStoreOf } from './keys/key-store-of.js';
import { createActivity } from '../util/activity.js';
import { idleCollection } from '../util/idle-collector.js';

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = '127.0.0.1';

export interface StartServerOptions {
  /** @default PORT or 8787; 0 picks a free port */
  port?: number;
  /** @default HOST or 127.0.0.1 */
  host?: string;
  /** @default ENGRAM_DB or ./engram.db */
  db?: string;
  /** --embedder, as the CLI takes it. */
  embedder?: string;
  /**
   * Read for PORT, HOST, ENGRAM_DB, ENGRAM_ADMIN_KEY, ENGRAM_CORS_ORIGINS (comma-separated),
   * ENGRAM_WEBHOOK_URL + ENGRAM_WEBHOOK_SECRET, ENGRAM_WORKSPACE, ENGRAM_TICK_MS, ENGRAM_BODY_LIMIT, ENGRAM_IMPORT_BODY_LIMIT, ENGRAM_CHAT_BODY_LIMIT,
   * ENGRAM_RATE_LIMIT (requests per minute per key; 0 turns it off), and the engine's ENGRAM_* settings.
   */
  env: Readonly<Record<string, string | undefined>>;
  logger?: Logger;
  /** Engine override (tests). */
  memory?: MemoryEngine;
  /** Extra routers (the chat proxy, MCP over HTTP). */
  mount?: (app: OpenAPIHono<AppEnv>) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  host: string;
  /** False when the server answers without keys (loopback only). */
  protected: boolean;
  memory: MemoryEngine;
  app: OpenAPIHono<AppEnv>;
  /** Stops accepting, lets in-flight requests and extractions finish, closes the database. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const num = (raw: string | undefined, name: string): number | undefined => {
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new EngramError('CONFIG_INVALID', `${name} must be a non-negative integer, got "${raw}"`);
  return n;
};

/** Characters an admin key has at least. */
export const MIN_ADMIN_KEY_LENGTH = 16;

/** `npm start` / `engram serve`: the engine, its scheduler and the HTTP API in one process. */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { env } = options;
  const logger = options.logger ?? consoleLogger('info');
  const port = options.port ?? num(env['PORT'], 'PORT') ?? DEFAULT_PORT;
  const host = options.host ?? (env['HOST']?.trim() || DEFAULT_HOST);
  const adminKey = env['ENGRAM_ADMIN_KEY']?.trim() || undefined;
  // The admin key opens every tenant: one a person could guess ("change-me") is refused.
  if (adminKey !== undefined && adminKey.length < MIN_ADMIN_KEY_LENGTH) {
    throw new EngramError('CONFIG_INVALID', `ENGRAM_ADMIN_KEY must be at least ${MIN_ADMIN_KEY_LENGTH} characters (it opens every tenant): make one with \`openssl rand -hex 24\``);
  }
  const hub = createEventHub();
  // On PostgreSQL the events of every process on the database reach every stream (pg-event-relay.ts).
  let relay: EventRelay | undefined;
  const events: EventSink = { emit: (e) => (relay ? relay.emit(e) : hub.emit(e)) };
  const toEvents = callbackNotifier((r) => events.emit({ type: 'todo.due', userId: r.userId, todoId: r.todoId, content: r.content, ...(r.dueAt ? { dueAt: r.dueAt } : {}), remindAt: r.remindAt, deliveryId: r.deliveryId, at: new Date(), ...(r.repeat ? { repeat: r.repeat } : {}) }));
  const url = env['ENGRAM_WEBHOOK_URL']?.trim();
  const webhook = url ? webhookNotifier({ url, secret: env['ENGRAM_WEBHOOK_SECRET'] ?? '' }) : undefined;
  // The webhook decides delivery (a failure is retried); the event stream is told once it succeeded.
  // The operator's webhook serves every tenant: it gets the tenant and that tenant's id of the user, never the engine's `t:…` id.
  const notifier: Notifier = { notify: async (r) => { if (webhook) await webhook.notify({ ...r, ...splitUserId(r.userId) }); await toEvents.notify(r); } };
  const workspace = env['ENGRAM_WORKSPACE']?.trim() || undefined;
  // One count of requests in flight for the whole process: garbage is collected and delayed access
  // records are written between requests (a chat request holds it until its turn is recorded).
  const activity = createActivity({ onIdle: idleCollection() });
  const memory = options.memory ?? openEngine({ settings: resolveEngineSettings({ db: options.db, embedder: options.embedder, env }), logger, runtime: { events, notifier, workspace }, activity, embedderThread: true, checkpoint: 'background' });

  const keys = keyStoreOf(memory.deps.store);
  const loopback = LOOPBACK.has(host);
  const hasKeys = adminKey !== undefined || (await keys.hasActiveKeys());
  if (!loopback && !hasKeys) {
    await memory.close();
    throw new EngramError('CONFIG_INVALID', `Refusing to listen on ${host} without keys: set ENGRAM_ADMIN_KEY (and create keys), or listen on 127.0.0.1`);
  }
  const pgHandle = postgresHandleOf(memory.deps.store);
  if (pgHandle) relay = await startPgEventRelay(pgHandle, hub, logger);
  let draining = false;
  let starting = true;
  const doors = mountDoors({ memory, env, logger, activity });
  const chat = chatModelFromEnv(env);
  const rate = num(env['ENGRAM_RATE_LIMIT'], 'ENGRAM_RATE_LIMIT');
  const app = createApp({
    memory, keys, adminKey, events: hub, logger, workspace, activity,
    allowOpen: loopback,
    corsOrigins: env['ENGRAM_CORS_ORIGINS']?.split(',').map((s) => s.trim()).filter((s) => s !== ''),
    bodyLimitBytes: num(env['ENGRAM_BODY_LIMIT'], 'ENGRAM_BODY_LIMIT'),
    importBodyLimitBytes: num(env['ENGRAM_IMPORT_BODY_LIMIT'], 'ENGRAM_IMPORT_BODY_LIMIT'),
    chatBodyLimitBytes: num(env['ENGRAM_CHAT_BODY_LIMIT'], 'ENGRAM_CHAT_BODY_LIMIT'),
    rateLimit: rate === 0 ? false : rate === undefined ? undefined : { perMinute: rate },
    isDraining: () => draining,
    isStarting: () => starting,
    mount: (a) => {
      doors.mount(a);
      options.mount?.(a);
    },
    ...(chat ? { chat } : {}),
  });

  const server = serve({ fetch: app.fetch, port, hostname: host });
  // Longer than the usual client and proxy idle timeouts, so a reused keep-alive socket is never closed under a request.
  if ('keepAliveTimeout' in server) server.keepAliveTimeout = 65_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (error) {
    // Nothing may keep the process alive after it could not listen (the store, the embedder's thread).
    await memory.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new EngramError('CONFIG_INVALID', `Port ${port} on ${host} is already in use: stop what listens there, or set PORT (or --port)`, { cause: error });
    if (code === 'EACCES') throw new EngramError('CONFIG_INVALID', `No permission to listen on port ${port} on ${host}: use a port above 1023`, { cause: error });
    throw error;
  }
  const address = server.address() as AddressInfo;
  memory.startScheduler(num(env['ENGRAM_TICK_MS'], 'ENGRAM_TICK_MS') ?? 30_000);
  // The model loaded, then the store's binding checked: a store of an earlier bundled embedder is re-embedded now, not on the first request.
  // /ready answers 503 "starting" until then: a chat's context build would wait for the model (or the
  // re-embedding) past its deadline and go out without memory.
  const warming = warmEmbedder(memory, logger)
    .then(() => checkBinding(memory, logger))
    .finally(() => {
      starting = false;
    });
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shown}:${address.port}`,
    port: address.port,
    host,
    protected: hasKeys,
    memory,
    app,
    close: () =>
      (closing ??= (async () => {
        draining = true;
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // SSE streams never end by themselves: close idle and streaming connections.
          if ('closeAllConnections' in server) setTimeout(() => server.closeAllConnections(), 2000).unref();
        });
        await doors.idle();
        await warming;
        await relay?.stop();
        await memory.close();
      })()),
  };
}

/**
 * Loads a local embedder's model in the background as the server starts: loading the bundled one
 * takes seconds, and the first chat through the proxy would otherwise go out without memory (its
 * context build times out waiting for the model). A failure is logged; the first `embed` retries.
 */
export async function warmEmbedder(memory: Pick<MemoryEngine, 'deps'>, logger: Logger): Promise<void> {
  const { embedder } = memory.deps;
  if (!embedder.warm) return;
  const started = Date.now();
  try {
    await embedder.warm();
    logger.info('embedder ready', { embedder: embedder.id, ms: Date.now() - started });
  } catch (error) {
    logger.warn('embedder failed to load; the first embed will try again', { embedder: embedder.id, error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * The store's embedder binding checked at start (`MemoryEngine.ready`, which re-embeds a store of
 * an earlier version of the embedder), and rows still without a vector embedded: a reindex or such
 * an upgrade cut short by a restart is finished rather than leaving those rows to keyword search
 * alone. A failure is logged (a mismatch is reported by every call too).
 */
export async function checkBinding(memory: Pick<MemoryEngine, 'ready' | 'deps' | 'reindexStatus' | 'reindex'>, logger: Logger): Promise<void> {
  try {
    await memory.ready();
    const { complete, pending } = await memory.reindexStatus();
    if (complete) return;
    logger.warn('embedding the rows a cut-short reindex left without a vector', { code: 'REINDEX_RESUMED', embedder: memory.deps.embedder.id, pending });
    await memory.reindex();
  } catch (error) {
    logger.warn('the store\'s embedder binding could not be checked', { code: EngramError.isInstance(error) ? error.code : 'INTERNAL', embedder: memory.deps.embedder.id, error: error instanceof Error ? error.message : String(error) });
  }
}

/** The chat model of the seed-shaped /api/topics routes: the same ENGRAM_LLM_* endpoint as extraction. */
function chatModelFromEnv(env: Readonly<Record<string, string | undefined>>): LanguageModel | undefined {
  const baseURL = env['ENGRAM_LLM_BASE_URL']?.trim();
  const model = env['ENGRAM_LLM_MODEL']?.trim();
  if (!baseURL || !model) return undefined;
  const apiKey = env['ENGRAM_LLM_API_KEY']?.trim();
  return createOpenAICompatible({ name: 'openai-compatible', baseURL, ...(apiKey ? { apiKey } : {}) }).chatModel(model);
}
