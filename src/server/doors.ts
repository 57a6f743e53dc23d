import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Clock, Logger } from '../deps.js';
import { EngramError, InvalidInputError } from '../errors.js';
import type { MemoryEngine } from '../memory-engine.js';
import { createChatProxy, PASSED_THROUGH } from '../proxy/chat-proxy.js';
import { MEMORY_PATHS } from '../proxy/wire.js';
import type { Activity } from '../util/activity.js';
import type { AppEnv } from './auth.js';
import { userOf } from './route-kit.js';

export interface DoorsOptions {
  memory: MemoryEngine;
  /** Read for ENGRAM_LLM_BASE_URL, ENGRAM_LLM_API_KEY, ENGRAM_LLM_MODEL (the proxy's upstream). */
  env: Readonly<Record<string, string | undefined>>;
  logger?: Logger;
  clock?: Clock;
  /** The process's requests in flight; the proxy holds its requests in it until their turns are recorded. */
  activity?: Activity;
}

/**
 * The engine user for a request: the requested external id (checked against the key's binding and
 * scoped to its tenant), else the key's bound user, else none.
 */
function requestUser(c: Context<AppEnv>, requested: string | undefined): string | undefined {
  const external = requested ?? c.var.auth.boundUserId;
  return external === undefined ? undefined : userOf(c, external);
}

/**
 * Mounts the doors behind the server's API-key auth: the OpenAI-compatible chat proxy at
 * /v1/chat/completions and /v1/responses, with /v1/models, /v1/embeddings and /v1/moderations passed through (when
 * ENGRAM_LLM_BASE_URL names the upstream), and MCP over
 * Streamable HTTP at /mcp. Returns a function for `createApp({ mount })`; the proxy's `idle`
 * is returned alongside for graceful shutdown and tests.
 */
export function mountDoors(options: DoorsOptions): { mount: (app: OpenAPIHono<AppEnv>) => void; idle: () => Promise<void> } {
  const { env } = options;
  const baseURL = env['ENGRAM_LLM_BASE_URL']?.trim();
  const proxy = baseURL
    ? createChatProxy<AppEnv>({
        memory: options.memory,
        upstream: { baseURL, apiKey: env['ENGRAM_LLM_API_KEY']?.trim() || undefined, model: env['ENGRAM_LLM_MODEL']?.trim() || undefined },
        ...(upstreamTimeoutMs(env) === undefined ? {} : { upstreamTimeoutMs: upstreamTimeoutMs(env) }),
        resolveUser: (requested, c) => requestUser(c, requested),
        logger: options.logger,
        clock: options.clock,
        ...(options.activity ? { activity: options.activity } : {}),
      })
    : undefined;
  // The MCP SDK is loaded on the first /mcp request, so the CLI and a server without MCP clients start without it.
  let mcp: Promise<(request: Request, resolveUser: (requested: string | undefined) => string, parsedBody?: unknown) => Promise<Response>> | undefined;
  const mcpHandler = () => (mcp ??= import('../mcp/http-handler.js').then((m) => m.createMcpHttpHandler({ memory: options.memory })));
  return {
    mount(app) {
      if (proxy) app.route('/', proxy);
      else {
        const missing = (): never => {
          throw new EngramError('CONFIG_INVALID', 'The chat proxy needs an upstream model server: set ENGRAM_LLM_BASE_URL (and ENGRAM_LLM_API_KEY, ENGRAM_LLM_MODEL)');
        };
        for (const path of MEMORY_PATHS) app.post(`/v1${path}`, missing);
        app.get('/v1/models', missing);
        for (const path of PASSED_THROUGH) app.post(`/v1${path}`, missing);
      }
      app.all('/mcp', async (c) => {
        // The server's JSON guard has read the body already; Hono keeps the parsed value.
        const json = c.req.method === 'POST' && /json/i.test(c.req.header('content-type') ?? '');
        const parsedBody: unknown = json ? await c.req.json() : undefined;
        const handle = await mcpHandler();
        return handle(
          c.req.raw,
          (requested) => {
            const user = requestUser(c, requested);
            if (user === undefined) throw new InvalidInputError('user_id is required: this API key is not bound to a user');
            return user;
          },
          parsedBody,
        );
      });
    },
    idle: () => proxy?.idle() ?? Promise.resolve(),
  };
}

/** ENGRAM_LLM_TIMEOUT_MS: the proxy's longest wait for the model server's answer to begin. */
function upstreamTimeoutMs(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const raw = env['ENGRAM_LLM_TIMEOUT_MS']?.trim();
  if (!raw) return undefined;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0) throw new EngramError('CONFIG_INVALID', `ENGRAM_LLM_TIMEOUT_MS must be a positive whole number of milliseconds, not "${raw}"`);
  return ms;
}
