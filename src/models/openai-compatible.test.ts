import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { EngramError } from '../errors.js';
import { definePrompt } from '../prompts/prompt.js';
import { createOpenAICompatibleModel, resolveModelFromEnv, type OpenAICompatibleModelOptions } from './openai-compatible.js';

const listItems = definePrompt({
  id: 'list-items',
  version: 1,
  input: z.object({ text: z.string() }),
  output: z.object({ items: z.array(z.string()) }),
  build: ({ text }) => ({
    system: 'List the things the user mentions. 列出用户提到的东西。',
    messages: [{ role: 'user', content: text }],
  }),
});

type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang' | 'reset';

interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string };
}

function completion(content: string, promptTokens = 42, completionTokens = 9) {
  return {
    status: 200,
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    },
  } as const;
}

const serverError = (status: number) => ({ status, body: { error: { message: `boom ${status}`, type: 'server_error' } } });

/** A tiny OpenAI-compatible server on loopback that answers from a per-test queue. */
let server: Server;
let baseURL: string;
let queue: Answer[] = [];
let requests: ChatRequest[] = [];
const sockets = new Set<Socket>();

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
    res.writeHead(404).end();
    return;
  }
  requests.push(JSON.parse(await readBody(req)) as ChatRequest);
  const answer = queue.length > 1 ? queue.shift()! : queue[0];
  if (answer === undefined) {
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"no scripted answer"}}');
    return;
  }
  if (answer === 'hang') return; // never answer; the socket is destroyed in afterAll
  if (answer === 'reset') {
    // Headers and half a body, then the connection drops: a socket reset mid-response.
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': '4096' });
    res.write('{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"{\\"ite');
    setTimeout(() => res.socket?.destroy(), 20);
    return;
  }
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers });
  res.end(JSON.stringify(answer.body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
});

beforeEach(() => {
  queue = [];
  requests = [];
});

function model(extra: Partial<OpenAICompatibleModelOptions> = {}) {
  const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {});
  const client = createOpenAICompatibleModel({ baseURL, apiKey: 'test-key', model: 'test-model', sleep, ...extra });
  return { client, sleep };
}

async function rejection(p: Promise<unknown>): Promise<EngramError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!EngramError.isInstance(error)) throw new Error(`expected an EngramError, got ${String(error)}`);
  return error;
}

describe('createOpenAICompatibleModel against a loopback server', () => {
  it('parses valid JSON, round-trips Chinese and counts usage', async () => {
    queue = [completion('{"items":["咖啡","绿茶","green tea"]}')];
    const { client } = model();

    const result = await client.generate(listItems, { text: '我每天早上喝咖啡，下午喝绿茶 and green tea' });

    expect(client.id).toBe('openai-compatible:test-model');
    expect(result.output).toEqual({ items: ['咖啡', '绿茶', 'green tea'] });
    expect(result.usage).toEqual({ inputTokens: 42, outputTokens: 9 });
    expect(client.usage.snapshot().byPrompt['list-items']).toEqual({ calls: 1, failures: 0, attempts: 1, inputTokens: 42, outputTokens: 9 });

    const sent = requests[0]!;
    expect(sent.model).toBe('test-model');
    expect(sent.response_format).toEqual({ type: 'json_object' });
    expect(sent.messages[0]).toMatchObject({ role: 'system' });
    expect(sent.messages[0]!.content).toContain('列出用户提到的东西');
    expect(sent.messages[0]!.content).toContain('"items"');
    expect(sent.messages[1]).toEqual({ role: 'user', content: '我每天早上喝咖啡，下午喝绿茶 and green tea' });
  });

  it('sends json_schema when structuredOutputs is on', async () => {
    queue = [completion('{"items":[]}')];
    await model({ structuredOutputs: true }).client.generate(listItems, { text: 'x' });
    expect(requests[0]!.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'list-items', schema: { type: 'object' } } });
  });

  it('malformed JSON -> MODEL_OUTPUT_INVALID with the raw text', async () => {
    queue = [completion('{"items": ["咖啡", ')];
    const { client } = model();

    const error = await rejection(client.generate(listItems, { text: '咖啡' }));

    expect(error.code).toBe('MODEL_OUTPUT_INVALID');
    expect(error.details?.['raw']).toBe('{"items": ["咖啡", ');
    expect(requests).toHaveLength(2); // one re-ask, then give up
    expect(client.usage.snapshot().total).toMatchObject({ calls: 1, failures: 1, attempts: 2, inputTokens: 84 });
  });

  it('429 then success: retried and succeeded', async () => {
    queue = [{ status: 429, body: { error: { message: 'rate limited' } } }, completion('{"items":["ok"]}')];
    const { client, sleep } = model();
    const result = await client.generate(listItems, { text: 'x' });
    expect(result.output).toEqual({ items: ['ok'] });
    expect(requests).toHaveLength(2);
    expect(sleep).toHaveBeenCalledTimes(1);
    expect(client.usage.snapshot().total).toMatchObject({ calls: 1, failures: 0, attempts: 2 });
  });

  it('a socket reset mid-response is retried, then succeeds (Chinese)', async () => {
    queue = ['reset', completion('{"items":["猫","茶"]}')];
    const { client, sleep } = model();
    const result = await client.generate(listItems, { text: '我喜欢猫和茶' });
    expect(result.output).toEqual({ items: ['猫', '茶'] });
    expect(requests).toHaveLength(2);
    expect(sleep).toHaveBeenCalledTimes(1);
  });

  it('a socket reset on every attempt ends in MODEL_FAILED, not an untyped error (English)', async () => {
    queue = ['reset'];
    const { client } = model({ maxRetries: 1 });
    const error = await rejection(client.generate(listItems, { text: 'cats and tea' }));
    expect(error.code).toBe('MODEL_FAILED');
    expect(requests).toHaveLength(2);
  });

  it('500 then success: retried and succeeded', async () => {
    queue = [serverError(500), completion('{"items":["ok"]}')];
    const { client, sleep } = model();
    expect((await client.generate(listItems, { text: 'x' })).output).toEqual({ items: ['ok'] });
    expect(requests).toHaveLength(2);
    expect(sleep).toHaveBeenCalledTimes(1);
  });

  it('persistent 500: MODEL_FAILED after the retries, attempts counted', async () => {
    queue = [serverError(500)];
    const { client, sleep } = model({ maxRetries: 3 });

    const error = await rejection(client.generate(listItems, { text: 'x' }));

    expect(error.code).toBe('MODEL_FAILED');
    expect(error.details).toMatchObject({ status: 500, attempts: 4 });
    expect(requests).toHaveLength(4);
    expect(sleep).toHaveBeenCalledTimes(3);
    expect(client.usage.snapshot().total).toMatchObject({ calls: 1, failures: 1, attempts: 4 });
  });

  it('a 401 is not retried', async () => {
    queue = [{ status: 401, body: { error: { message: 'bad key' } } }];
    const error = await rejection(model().client.generate(listItems, { text: 'x' }));
    expect(error.details).toMatchObject({ status: 401, attempts: 1 });
    expect(requests).toHaveLength(1);
  });

  it('a hanging server: MODEL_TIMEOUT', async () => {
    queue = ['hang'];
    const { client } = model({ timeoutMs: 200, maxRetries: 1 });

    const error = await rejection(client.generate(listItems, { text: 'x' }));

    expect(error.code).toBe('MODEL_TIMEOUT');
    expect(error.details).toMatchObject({ timeoutMs: 200, attempts: 2 });
    expect(requests).toHaveLength(2);
  });

  it('an unreachable server is a network error: retried, then MODEL_FAILED', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { client, sleep } = model({ baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 2 });

    const error = await rejection(client.generate(listItems, { text: 'x' }));

    expect(error.code).toBe('MODEL_FAILED');
    expect(error.details).toMatchObject({ attempts: 3, retryable: true });
    expect(sleep).toHaveBeenCalledTimes(2);
  });
});

describe('resolveModelFromEnv', () => {
  it('returns undefined when nothing is set', () => {
    expect(resolveModelFromEnv({})).toBeUndefined();
  });

  it('builds a model from the three variables', () => {
    const m = resolveModelFromEnv({ ENGRAM_LLM_BASE_URL: 'http://127.0.0.1:1/v1', ENGRAM_LLM_MODEL: 'qwen-plus', ENGRAM_LLM_API_KEY: 'k' });
    expect(m?.id).toBe('openai-compatible:qwen-plus');
  });

  it('throws CONFIG_INVALID when the set is incomplete', () => {
    expect(() => resolveModelFromEnv({ ENGRAM_LLM_API_KEY: 'k' })).toThrow(/ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL/);
  });
});
