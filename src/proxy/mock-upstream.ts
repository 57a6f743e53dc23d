import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the mock model server answers to one chat request. */
export type MockReply =
  | { kind: 'json'; status?: number; body: unknown; headers?: Record<string, string> }
  /** An OpenAI event stream of these content deltas; `hold` stops after the first chunk until the client goes away. */
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
