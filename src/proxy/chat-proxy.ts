import { Hono, type Context, type Env } from 'hono';
import { silentLogger, systemClock, type Clock, type Logger } from '../deps.js';
import { userIdProblem } from '../domain/user-id.js';
import { strictUtf8 } from '../util/strict-utf8.js';
import { EngramError, type ErrorCode } from '../errors.js';
import { createActivity, type Activity } from '../util/activity.js';
import { idleCollection } from '../util/idle-collector.js';
import { createBackground, dailySessionId, prepareTurn, recordTurn, turnMessageId, type PreparedTurn, type TurnMemory } from './memory-turn.js';
import type { SseReply } from './sse-reply.js';
import { createUpstreamFetch, UpstreamTimeout, type UpstreamFetch, type UpstreamRequest } from './upstream-fetch.js';
import { CHAT_WIRE, RESPONSES_WIRE, type ModelRequest, type ProxyWire } from './wire.js';
import { headerText } from '../util/header-text.js';

export interface ChatProxyOptions<E extends Env = Env> {
  memory: TurnMemory;
  /** The OpenAI-compatible model server the proxy forwards to. Its key never reaches the client. */
  upstream: {
    /** e.g. https://api.openai.com/v1 (the part before /chat/completions). */
    baseURL: string;
    apiKey?: string;
    /** Used when a request names no model. */
    model?: string;
  };
  /**
   * Maps the caller's user (body `user`, else the X-Engram-User header) to Engram's user id, or
   * throws an EngramError to refuse. The server scopes it to the API key's tenant here.
   * @default the requested id as given
   */
  resolveUser?: (requested: string | undefined, c: Context<E>) => string | undefined | Promise<string | undefined>;
  /** Token budget of the memory block. @default 800 */
  tokenBudget?: number;
  /**
   * Longest wait for the memory block; past it the request is forwarded without memory and
   * `x-engram-memory: timeout` says so. @default 2000
   */
  contextTimeoutMs?: number;
  clock?: Clock;
  logger?: Logger;
  /** How the model server is called (`globalThis.fetch` fits). @default node:http(s) with keep-alive (`createUpstreamFetch`) */
  fetch?: UpstreamFetch;
  /**
   * Longest wait for the model server's response headers (the default fetch only); past it the
   * client gets 504 and the request is dropped upstream. @default 600000 (the OpenAI client's own)
   */
  upstreamTimeoutMs?: number;
  /**
   * Told when a chat request starts and when it is over (its turn recorded, or answered without
   * one), so housekeeping (young garbage collection, the SQLite store's delayed access writes when
   * it shares this activity) runs between requests rather than during one. The server passes the
   * process's one activity. @default createActivity({ onIdle: idleCollection() })
   */
  activity?: Activity;
}

export type ChatProxy<E extends Env = Env> = Hono<E> & {
  /** Resolves when the turns of responses sent so far are recorded. */
  idle(): Promise<void>;
};

/** OpenAI endpoints passed to the model server unchanged (POST), beside the chat completions Engram adds memory to. */
export const PASSED_THROUGH = ['/embeddings', '/moderations'] as const;

/** Response headers dropped when the upstream's response is passed on (hop-by-hop, or no longer true after fetch decoded the body). */
const DROPPED_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive', 'set-cookie']);

const STATUS: Partial<Record<ErrorCode, 400 | 404 | 502>> = { INVALID_INPUT: 400, NOT_FOUND: 404, UPSTREAM_FAILED: 502 };

/** An error in OpenAI's shape, so OpenAI clients show its message. */
function openAiError(code: ErrorCode, message: string, status: number): Response {
  const type = status < 500 ? 'invalid_request_error' : 'api_error';
  return Response.json({ error: { message, type, code, param: null } }, { status });
}

function memoryHeaders(turn: PreparedTurn, sessionId: string): Record<string, string> {
  return {
    'x-engram-memory': turn.status,
    'x-engram-memories-used': String(turn.recalledIds.length),
    'x-engram-context-tokens': String(turn.tokens),
    'x-engram-session': sessionId,
    ...(turn.errorCode ? { 'x-engram-memory-error': turn.errorCode } : {}),
  };
}

function passHeaders(from: Headers, extra: Record<string, string>): Headers {
  const headers = new Headers();
  from.forEach((value, key) => {
    if (!DROPPED_HEADERS.has(key.toLowerCase())) headers.set(key, value);
  });
  for (const [k, v] of Object.entries(extra)) headers.set(k, v);
  return headers;
}

/**
 * OpenAI-compatible endpoints with memory: POST /v1/chat/completions and POST /v1/responses, with
 * GET /v1/models, POST /v1/embeddings and POST /v1/moderations passed through.
 * Before forwarding, the memory block for the user's last message is appended to the system
 * prompt (the system message; the Responses API's `instructions`); after the reply (streamed
 * replies assembled as they pass), both turns are appended to the session and the memories that
 * shaped the reply are reinforced.
 */
export function createChatProxy<E extends Env = Env>(options: ChatProxyOptions<E>): ChatProxy<E> {
  const logger = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const doFetch = options.fetch ?? createUpstreamFetch({ headersTimeoutMs: options.upstreamTimeoutMs ?? 600_000 });
  const tokenBudget = options.tokenBudget ?? 800;
  const base = options.upstream.baseURL.replace(/\/+$/, '');
  const upstreamHeaders = (): Record<string, string> => ({
    'content-type': 'application/json',
    ...(options.upstream.apiKey ? { authorization: `Bearer ${options.upstream.apiKey}` } : {}),
  });
  const background = createBackground();
  const activity = options.activity ?? createActivity({ onIdle: idleCollection() });
  const app = new Hono<E>();

  const callUpstream = async (path: string, init: UpstreamRequest): Promise<Response> => {
    try {
      return await doFetch(`${base}${path}`, init);
    } catch (error) {
      if (init.signal?.aborted) throw error;
      if (error instanceof UpstreamTimeout) {
        logger.error('upstream timed out', { code: 'UPSTREAM_FAILED', path, ms: error.ms });
        return openAiError('UPSTREAM_FAILED', `The model server sent no answer within ${Math.round(error.ms / 1000)} s`, 504);
      }
      logger.error('upstream unreachable', { code: 'UPSTREAM_FAILED', path, error: String(error) });
      return openAiError('UPSTREAM_FAILED', `The model server could not be reached (${error instanceof Error ? error.message : String(error)})`, 502);
    }
  };

  /** The upstream key written out: a model server that echoes it (an error quoting the header) must not hand it to the client. */
  const secret = options.upstream.apiKey && options.upstream.apiKey.length >= 8 ? options.upstream.apiKey : undefined;
  const unkeyed = (text: string): string => (secret ? text.split(secret).join('[redacted]') : text);
  /** An error's body with the key taken out (a success's body passes untouched, streamed as it comes). */
  const errorBody = async (res: Response): Promise<string | null> => (res.body === null ? null : unkeyed(await res.text()));
  const headersOf = (res: Response, extra: Record<string, string>): Headers => {
    const headers = passHeaders(res.headers, extra);
    const keyed: Array<[string, string]> = [];
    headers.forEach((value, key) => void (secret && value.includes(secret) && keyed.push([key, value])));
    for (const [key, value] of keyed) headers.set(key, unkeyed(value));
    return headers;
  };
  /** The model server's answer as it is, save the hop-by-hop headers (and the upstream key, in an error). */
  const passOn = async (res: Response): Promise<Response> => new Response(res.ok ? res.body : await errorBody(res), { status: res.status, headers: headersOf(res, {}) });
  app.get('/v1/models', async (c) => passOn(await callUpstream('/models', { method: 'GET', headers: upstreamHeaders(), signal: c.req.raw.signal })));
  // What else an app calls with the same client goes to the model server as it is, with the
  // upstream key: pointing the client at Engram must not break its embeddings.
  for (const path of PASSED_THROUGH) {
    app.post(`/v1${path}`, async (c) => passOn(await callUpstream(path, { method: 'POST', headers: upstreamHeaders(), body: await c.req.text(), signal: c.req.raw.signal })));
  }

  /**
   * The user's last message in the session, for a request that continues a thread with tool
   * outputs only: the memory the model had for the question it is still answering. '' when the
   * engine cannot say (the request goes on without memory). The question is recorded just after
   * its response: a follow-up sent within that moment finds the one before it, still this user's.
   */
  const threadQuery = async (userId: string, sessionId: string): Promise<string> => {
    if (!options.memory.workingWindow) return '';
    try {
      const window = await options.memory.workingWindow(userId, sessionId, 10);
      return window.findLast((m) => m.role === 'user')?.content ?? '';
    } catch (error) {
      logger.warn('reading the session for a continued thread failed; the call goes on without memory', { code: EngramError.isInstance(error) ? error.code : 'UNKNOWN', userId, sessionId, error: String(error) });
      return '';
    }
  };

  /** A request to a memory endpoint: over when its turn is recorded, or, answered without one, when answered. */
  const withMemory = <Body extends ModelRequest>(wire: ProxyWire<Body>) => async (c: Context<E>): Promise<Response> => {
    const over = activity.begin();
    let promised = false;
    try {
      return await turn(c, wire, {
        promise: () => void (promised = true),
        record: (task) => {
          promised = true;
          background.run(task.finally(over));
        },
      });
    } finally {
      if (!promised) over();
    }
  };
  app.post(`/v1${CHAT_WIRE.path}`, withMemory(CHAT_WIRE));
  app.post(`/v1${RESPONSES_WIRE.path}`, withMemory(RESPONSES_WIRE));
  // Every user shares the upstream key: a stored response (its instructions hold one user's
  // memory block) is not read, cancelled or deleted through Engram, whoever knows its id.
  app.all(`/v1${RESPONSES_WIRE.path}/*`, () =>
    openAiError('NOT_FOUND', 'Stored responses are not proxied (they hold the memory block of the user who made them): read them from the model server directly', 404),
  );

  /**
   * One request in the wire's protocol. `turnEnd.record` takes the task that records its turn
   * (started once); `turnEnd.promise()` says ahead of it that the turn will be recorded (a
   * stream's relay records it however the stream ends).
   */
  const turn = async <Body extends ModelRequest>(c: Context<E>, wire: ProxyWire<Body>, turnEnd: { promise(): void; record(task: Promise<void>): void }): Promise<Response> => {
    // Decoded strictly here too: a proxy mounted in an app without the server's JSON guard would
    // otherwise store U+FFFD for bytes that are not UTF-8.
    const decoded = strictUtf8(new Uint8Array(await c.req.arrayBuffer()));
    if ('byteOffset' in decoded) return openAiError('INVALID_INPUT', `The body is not valid UTF-8 (byte ${decoded.byteOffset})`, 400);
    let raw: unknown;
    try {
      raw = JSON.parse(decoded.text);
    } catch (error) {
      return openAiError('INVALID_INPUT', `The body is not JSON (${error instanceof Error ? error.message : String(error)})`, 400);
    }
    const parsed = wire.schema.safeParse(raw);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');
      return openAiError('INVALID_INPUT', `Invalid ${wire.name}: ${issues}`, 400);
    }
    const body = parsed.data;
    const requested = body.user ?? (headerText(c.req.header('x-engram-user'))?.trim() || undefined);
    let userId: string | undefined;
    try {
      userId = await (options.resolveUser ? options.resolveUser(requested, c) : requested);
    } catch (error) {
      const status = EngramError.isInstance(error) ? STATUS[error.code] : undefined;
      if (!EngramError.isInstance(error) || status === undefined) throw error;
      return openAiError(error.code, error.message, status);
    }
    if (!userId) return openAiError('INVALID_INPUT', 'No user: set the body field "user" or the X-Engram-User header', 400);
    // Refused here, as every other route refuses it: forwarded, the turn could never be recorded.
    const problem = userIdProblem(userId);
    if (problem) return openAiError('INVALID_INPUT', `Invalid user: ${problem}`, 400);
    const model = body.model ?? options.upstream.model;
    if (!model) return openAiError('INVALID_INPUT', 'No model: set the body field "model" (no default model is configured)', 400);
    const sessionId = headerText(c.req.header('x-engram-session'))?.trim() || dailySessionId(clock.now());
    if (sessionId.length > 200) return openAiError('INVALID_INPUT', 'X-Engram-Session must be at most 200 characters (as every route takes a session id)', 400);

    const said = wire.userTurn(body);
    const query = said?.text ?? (wire.continuesThread(body) ? await threadQuery(userId, sessionId) : '');
    const prepared: PreparedTurn = query.trim() === '' ? { status: 'empty', text: '', tokens: 0, recalledIds: [] } : await prepareTurn(options.memory, { userId, query, tokenBudget, logger, sessionId, timeoutMs: options.contextTimeoutMs ?? 2000 });
    // Recording writes to the store synchronously in places; it starts on the next turn of the
    // event loop, so the response (or the stream's last chunk) is on the socket first. The turn
    // ids (hashes of the whole conversation) are made then too: nothing before forwarding needs them.
    const recordReply = (reply: string | undefined): void =>
      turnEnd.record(
        afterResponse().then(() => {
          const user = said === undefined ? undefined : { id: turnMessageId([userId, sessionId, ...said.key]), content: query };
          const answer = reply === undefined ? undefined : { id: turnMessageId([userId, sessionId, ...wire.replyKey(body)]), content: reply };
          return recordTurn(options.memory, { userId, sessionId, user, reply: answer, recalledIds: prepared.recalledIds, logger });
        }),
      );

    const forwarded = wire.withMemory({ ...body, model }, prepared.text);
    const res = await callUpstream(wire.path, { method: 'POST', headers: upstreamHeaders(), body: JSON.stringify(forwarded), signal: c.req.raw.signal });
    const headers = headersOf(res, memoryHeaders(prepared, sessionId));
    // Upstream errors reach the client unchanged (save the upstream key); a request the model refused is not a turn.
    if (!res.ok || res.body === null) return new Response(await errorBody(res), { status: res.status, headers });

    if (body.stream !== true) {
      const text = unkeyed(await res.text());
      recordReply(replyOf(wire, text, logger));
      return new Response(text, { status: res.status, headers });
    }
    // The relay records the turn however the stream ends: done, failed or cancelled.
    turnEnd.promise();
    // Said chunked, as Hono's own stream helpers say it: the Node adapter then writes each chunk as
    // it comes. Without it the adapter reads ahead to measure a short body, and a stream whose
    // first chunk is there at once waited a timer turn (~1 ms) for a second one before the first
    // was written (bench/results/2026-11-27-s27.md).
    headers.set('transfer-encoding', 'chunked');
    return new Response(relay(res.body, wire.streamReply(), recordReply, logger, wire.streamFailure('The model server broke off the stream mid-reply')), { status: res.status, headers });
  };

  return Object.assign(app, { idle: () => background.idle() });
}

/** Resolves once the event loop has turned: after the response in hand has been written. */
const afterResponse = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The assistant text of a non-streamed reply; undefined when it has none (tool calls only). */
function replyOf(wire: ProxyWire<ModelRequest>, text: string, logger: Logger): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    logger.warn('upstream reply is not JSON; the reply is not recorded', { code: 'UPSTREAM_FAILED', path: wire.path, error: String(error) });
    return undefined;
  }
  return wire.replyOf(json);
}

/**
 * Passes the upstream's event stream on chunk by chunk (each chunk is forwarded the moment it
 * arrives) while assembling the reply. At the end both turns are recorded; when the client goes
 * away mid-stream the upstream call is cancelled and only the user's message is recorded: a
 * partial reply the user never saw in full is dropped. When the model server breaks off, the
 * stream ends with the API's error event (`ProxyWire.streamFailure`) and the partial reply is dropped too.
 */
function relay(upstream: ReadableStream<Uint8Array>, sse: SseReply, record: (reply: string | undefined) => void, logger: Logger, failure: string): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  let settled = false;
  /** Set by cancel(): the stream is closed from then on, and a controller call would throw. */
  let cancelled = false;
  const finish = (reply: string | undefined): void => {
    if (settled) return;
    settled = true;
    record(reply);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        // cancel() ends the read pending here with `done`: the stream is already closed, and
        // closing it again (or enqueueing) throws ERR_INVALID_STATE.
        if (cancelled) return;
        if (done) {
          sse.end();
          controller.close();
          finish(sse.text());
          return;
        }
        sse.push(value);
        controller.enqueue(value);
      } catch (error) {
        // A read that cancel() made fail is the client's going, logged there; the stream is closed.
        if (cancelled) return;
        logger.warn('upstream stream failed mid-reply; the partial reply is dropped', { code: 'UPSTREAM_FAILED', error: String(error) });
        finish(undefined);
        // Ended with the API's error event, not an errored stream: the Node adapter would print the
        // error and reset the connection, and the client could not tell a cut reply from a network fault.
        controller.enqueue(new TextEncoder().encode(failure));
        controller.close();
      }
    },
    async cancel(reason) {
      cancelled = true;
      // The client went away (its socket closed): not the model server's failure, nor ours.
      if (!settled) logger.info('client disconnected mid-stream; the upstream call is cancelled and the partial reply dropped', { droppedChars: sse.text().length });
      finish(undefined);
      await reader.cancel(reason);
    },
  });
}
