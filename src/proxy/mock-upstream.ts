import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the mock model server answers to one chat request. */
export type MockReply =
  | { kind: 'json'; status?: number; body: unknown; headers?: Record<string, string> }
  /**
   * An OpenAI event stream of these content deltas (Chat Completions chunks, or on /v1/responses
   * the Responses API's events); `hold` stops after the first delta until the client goes away.
   */
  | { kind: 'stream'; deltas: string[]; hold?: boolean };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface MockUpstream {
  /** Base URL, e.g. http://127.0.0.1:PORT/v1 */
  baseURL: string;
  requests: RecordedRequest[];
  /** Resolves when a held stream's client has gone away. */
  closedStreams: number;
  close(): Promise<void>;
}

/** A completion in OpenAI's shape. */
export function completion(content: string | null, extra: { toolCalls?: unknown[]; model?: string } = {}): unknown {
  return {
    id: 'chatcmpl-mock',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: extra.model ?? 'mock-model',
    choices: [{ index: 0, message: { role: 'assistant', content, ...(extra.toolCalls ? { tool_calls: extra.toolCalls } : {}) }, finish_reason: extra.toolCalls ? 'tool_calls' : 'stop', logprobs: null }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/** A Responses API response object in OpenAI's shape, its output one assistant message of `text` (none when null). */
export function responseObject(text: string | null, extra: { status?: string; model?: string; output?: unknown[] } = {}): Record<string, unknown> {
  const message = { type: 'message', id: 'msg_mock', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
  return {
    id: 'resp_mock',
    object: 'response',
    created_at: 1_700_000_000,
    status: extra.status ?? 'completed',
    model: extra.model ?? 'mock-model',
    output: extra.output ?? (text === null ? [] : [message]),
    usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
  };
}

/** One event of a Responses API stream, as OpenAI writes it (a named event and its data). */
const responseEvent = (type: string, data: Record<string, unknown>, sequence: number): string => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...data })}\n\n`;

/** The events of a streamed response of these deltas, from `response.created` to `response.completed` (or only up to the first delta when `held`). */
function responseEvents(deltas: readonly string[], held: boolean): string[] {
  let n = 0;
  const item = { type: 'message', id: 'msg_mock', status: 'in_progress', role: 'assistant', content: [] };
  const at = { item_id: 'msg_mock', output_index: 0, content_index: 0 };
  const events = [
    responseEvent('response.created', { response: responseObject(null, { status: 'in_progress' }) }, n++),
    responseEvent('response.output_item.added', { output_index: 0, item }, n++),
    responseEvent('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } }, n++),
  ];
  for (const delta of held ? deltas.slice(0, 1) : deltas) events.push(responseEvent('response.output_text.delta', { ...at, delta, logprobs: [] }, n++));
  if (held) return events;
  const text = deltas.join('');
  events.push(
    responseEvent('response.output_text.done', { ...at, text, logprobs: [] }, n++),
    responseEvent('response.content_part.done', { ...at, part: { type: 'output_text', text, annotations: [] } }, n++),
    responseEvent('response.output_item.done', { output_index: 0, item: { ...item, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] } }, n++),
    responseEvent('response.completed', { response: responseObject(text) }, n++),
  );
  return events;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'mock-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

async function readBody(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

/**
 * An OpenAI-compatible model server on loopback (port 0) that records every request it receives
 * (unless `keepRequests` is false) and answers as `respond` says: what the proxy's tests and
 * benchmark forward to.
 */
export async function startMockUpstream(respond: (request: RecordedRequest) => MockReply, options: { keepRequests?: boolean } = {}): Promise<MockUpstream> {
  // A benchmark's thousands of calls would otherwise pile up here, and the old generation's collections pause its client.
  const keep = options.keepRequests ?? true;
  const requests: RecordedRequest[] = [];
  const state = { closedStreams: 0 };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: await readBody(req) };
    if (keep) requests.push(recorded);
    if (recorded.path === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'mock-model', object: 'model', created: 0, owned_by: 'mock' }] }));
      return;
    }
    const reply = respond(recorded);
    if (reply.kind === 'json') {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.body));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (recorded.path === '/v1/responses') {
      for (const event of responseEvents(reply.deltas, reply.hold === true)) res.write(event);
      if (reply.hold) res.on('close', () => state.closedStreams++);
      else res.end();
      return;
    }
    res.write(chunk({ role: 'assistant', content: '' }));
    if (reply.hold) {
      res.write(chunk({ content: reply.deltas[0] ?? '' }));
      res.on('close', () => state.closedStreams++);
      return;
    }
    for (const d of reply.deltas) res.write(chunk({ content: d }));
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  // Benchmarks run client, proxy and this server in one process, where a long synchronous SQLite
  // call can delay timers past the default 5 s keep-alive and race a reused connection.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    get closedStreams() {
      return state.closedStreams;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
