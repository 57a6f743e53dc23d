/**
 * A local OpenAI-compatible model server for benchmarks: /v1/chat/completions (JSON answers) and
 * /v1/embeddings on 127.0.0.1. It answers deterministically and at once, and counts every call
 * with its input and output tokens (o200k_base, gpt-tokenizer) per client and per prompt.
 *
 * Clients are told apart by their API key (the Bearer token), prompts by their system prompt:
 * Engram's extract-memories, mem0 2.x fact extraction and update decision, mem0 3.x extraction.
 * Every answer derives memories from the user's messages in the request the same way
 * (`deriveMemories`), so each pipeline does its real work on plausible output. Embeddings come
 * from one function (Engram's feature-hashing embedder at 512 dimensions) for every client.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens } from 'gpt-tokenizer';
import { createHashEmbedder } from '../../src/embedders/hash-embedder.js';
import { answerChat, type ChatMessage } from './mock-answers.js';

export const MOCK_DIMENSIONS = 512;

export interface CallCounts {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Time spent inside the server (parse, answer, count), summed; the model time of a real server. */
  serverMs: number;
}

/** client (API key) -> kind ("chat:<prompt>" or "embeddings") -> counts. */
export type ServerStats = Record<string, Record<string, CallCounts>>;

export interface MockServerOptions {
  /**
   * Texts known to be the user's. mem0 2.x sends messages to its fact extraction without roles,
   * so for a prompt without roles these are what tells user lines from assistant lines.
   */
  userTexts?: ReadonlySet<string>;
}

export interface MockServer {
  /** e.g. "http://127.0.0.1:41234/v1" */
  readonly baseURL: string;
  stats(): ServerStats;
  /** The counts of one client, summed over kinds, and per kind. */
  client(name: string): { chat: CallCounts; embeddings: CallCounts; byKind: Record<string, CallCounts> };
  /** Unknown prompts seen (their first 200 characters): a prompt this server could not answer. */
  readonly unknownPrompts: string[];
  close(): Promise<void>;
}

const zero = (): CallCounts => ({ calls: 0, inputTokens: 0, outputTokens: 0, serverMs: 0 });
const add = (a: CallCounts, b: CallCounts): CallCounts => ({
  calls: a.calls + b.calls,
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  serverMs: a.serverMs + b.serverMs,
});

/** OpenAI's accounting of a chat: 3 tokens per message for the role markup, 3 to prime the answer. */
function chatTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + 3 + countTokens(m.content), 3);
}

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const embedder = createHashEmbedder({ dimensions: MOCK_DIMENSIONS });
  const stats: ServerStats = {};
  const unknownPrompts: string[] = [];
  const record = (client: string, kind: string, counts: Omit<CallCounts, 'calls'>): void => {
    const byKind = (stats[client] ??= {});
    byKind[kind] = add(byKind[kind] ?? zero(), { calls: 1, ...counts });
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const client = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? 'anonymous';
    const path = (req.url ?? '').split('?')[0]!.replace(/^\/v1/, '');
    const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};

    if (req.method === 'POST' && path === '/embeddings') {
      const input = body['input'];
      const texts = Array.isArray(input) ? (input as string[]) : [String(input)];
      const requested = body['dimensions'];
      if (requested !== undefined && requested !== MOCK_DIMENSIONS) {
        return send(res, 400, { error: { message: `this server embeds in ${MOCK_DIMENSIONS} dimensions, not ${String(requested)}` } });
      }
      const vectors = await embedder.embed(texts);
      const base64 = body['encoding_format'] === 'base64';
      const inputTokens = texts.reduce((sum, t) => sum + countTokens(t), 0);
      send(res, 200, {
        object: 'list',
        model: body['model'],
        data: vectors.map((v, index) => ({
          object: 'embedding',
          index,
          embedding: base64 ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') : Array.from(v),
        })),
        usage: { prompt_tokens: inputTokens, total_tokens: inputTokens },
      });
      record(client, 'embeddings', { inputTokens, outputTokens: 0, serverMs: performance.now() - started });
      return;
    }

    if (req.method === 'POST' && path === '/chat/completions') {
      const messages = ((body['messages'] as Array<{ role: string; content: unknown }>) ?? []).map((m) => ({
        role: m.role,
        content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
      }));
      const answer = answerChat(messages, options.userTexts);
      if (answer.prompt === 'unknown') unknownPrompts.push((messages[0]?.content ?? '').slice(0, 200));
      const content = JSON.stringify(answer.json);
      const inputTokens = chatTokens(messages);
      const outputTokens = countTokens(content);
      send(res, 200, {
        id: `mock-${Date.now()}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body['model'],
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
      });
      record(client, `chat:${answer.prompt}`, { inputTokens, outputTokens, serverMs: performance.now() - started });
      return;
    }
    send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in an answer must reach the benchmark, not vanish: the client sees a 500 with the cause.
      send(res, 500, { error: { message: error instanceof Error ? error.stack ?? error.message : String(error) } });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    unknownPrompts,
    stats: () => structuredClone(stats),
    client(name) {
      const byKind = structuredClone(stats[name] ?? {});
      let chat = zero();
      for (const [kind, counts] of Object.entries(byKind)) if (kind.startsWith('chat:')) chat = add(chat, counts);
      return { chat, embeddings: byKind['embeddings'] ?? zero(), byKind };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function send(res: ServerResponse, status: number, json: unknown): void {
  const text = JSON.stringify(json);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
