import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngramError } from '../errors.js';
import { dot } from './embedder.js';
import { createOpenAICompatibleEmbedder } from './openai-compatible-embedder.js';

interface Recorded {
  url: string;
  authorization: string | undefined;
  body: { model: string; input: string[]; dimensions?: number };
}

/** A canned vector per text: [length, has-Chinese, 1], so the test can tell texts apart. */
const vectorFor = (text: string): number[] => [text.length, /\p{Script=Han}/u.test(text) ? 1 : 0, 1];

let server: Server;
let baseURL: string;
const calls: Recorded[] = [];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
  const body = JSON.parse(raw) as Recorded['body'];
  calls.push({ url: req.url ?? '', authorization: req.headers.authorization, body });
  res.setHeader('content-type', 'application/json');
  if (body.model === 'broken') {
    res.statusCode = 500;
    res.end(JSON.stringify({ error: { message: 'model crashed' } }));
  } else if (body.model === 'malformed') {
    res.end(JSON.stringify({ data: [{ vector: [1, 2] }] }));
  } else if (body.model === 'not-json') {
    res.end('<html>gateway</html>');
  } else if (body.model === 'short') {
    res.end(JSON.stringify({ data: [{ embedding: [1, 0, 0], index: 0 }] }));
  } else {
    // Answer in reverse order: the embedder must sort by `index`.
    const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: vectorFor(text) })).reverse();
    res.end(JSON.stringify({ object: 'list', model: body.model, data }));
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    readBody(req).then(
      (raw) => handle(req, res, raw),
      (error: unknown) => {
        res.statusCode = 400;
        res.end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
});

const expected = (text: string): number[] => {
  const v = vectorFor(text);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

async function caught(promise: Promise<unknown>): Promise<EngramError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!EngramError.isInstance(error)) throw new Error(`expected an EngramError, got ${String(error)}`);
  return error;
}

describe('createOpenAICompatibleEmbedder', () => {
  it('embeds Chinese and English in input order, batched, normalised', async () => {
    calls.length = 0;
    const e = createOpenAICompatibleEmbedder({ baseURL, apiKey: 'sk-test', model: 'text-embedding-v4', batchSize: 2 });
    expect(e.id).toBe('openai-compatible:text-embedding-v4');
    const texts = ['我喜欢猫', 'I love cats', '用户对花生过敏', 'The user is allergic to peanuts', '明天开会'];
    const out = await e.embed(texts);
    expect(out).toHaveLength(5);
    out.forEach((v, i) => {
      expect(Array.from(v).map((x) => Number(x.toFixed(5)))).toEqual(expected(texts[i]!).map((x) => Number(x.toFixed(5))));
      expect(dot(v, v)).toBeCloseTo(1, 5);
    });
    expect(e.dimensions).toBe(3);
    expect(calls).toHaveLength(3);
    expect(calls.map((c) => c.body.input.length).sort()).toEqual([1, 2, 2]);
    expect(calls[0]!.url).toBe('/v1/embeddings');
    expect(calls[0]!.authorization).toBe('Bearer sk-test');
    expect(calls[0]!.body.dimensions).toBeUndefined();
  });

  it('sends dimensions when configured, skips empty texts, and sends no key when none is given', async () => {
    calls.length = 0;
    const e = createOpenAICompatibleEmbedder({ baseURL, model: 'nomic-embed-text', dimensions: 3 });
    const out = await e.embed(['', '猫', '  ']);
    expect(Array.from(out[0]!)).toEqual([0, 0, 0]);
    expect(Array.from(out[2]!)).toEqual([0, 0, 0]);
    expect(dot(out[1]!, out[1]!)).toBeCloseTo(1, 5);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({ model: 'nomic-embed-text', input: ['猫'], dimensions: 3 });
    expect(calls[0]!.authorization).toBeUndefined();
    expect(await e.embed([])).toEqual([]);
  });

  it('turns an HTTP 500 into EMBEDDING_FAILED with the status and body', async () => {
    const error = await caught(createOpenAICompatibleEmbedder({ baseURL, model: 'broken' }).embed(['你好']));
    expect(error.code).toBe('EMBEDDING_FAILED');
    expect(error.details).toMatchObject({ status: 500, model: 'broken' });
    expect(String(error.details?.['body'])).toContain('model crashed');
  });

  it('rejects a malformed body with the validation error as cause', async () => {
    const error = await caught(createOpenAICompatibleEmbedder({ baseURL, model: 'malformed' }).embed(['hello']));
    expect(error.code).toBe('EMBEDDING_FAILED');
    expect(error.cause).toBeDefined();
    expect(error.details).toMatchObject({ status: 200 });
    const notJson = await caught(createOpenAICompatibleEmbedder({ baseURL, model: 'not-json' }).embed(['hello']));
    expect(notJson.message).toContain('not JSON');
  });

  it('rejects a wrong vector count or dimension', async () => {
    const count = await caught(createOpenAICompatibleEmbedder({ baseURL, model: 'short' }).embed(['a', 'b']));
    expect(count.message).toContain('1 vectors for 2 texts');
    const dims = await caught(createOpenAICompatibleEmbedder({ baseURL, model: 'm', dimensions: 8 }).embed(['a']));
    expect(dims.details).toMatchObject({ expected: 8, actual: 3 });
  });

  it('wraps network failures and timeouts, with the cause', async () => {
    const refused = await caught(
      createOpenAICompatibleEmbedder({
        baseURL,
        model: 'm',
        fetch: () => Promise.reject(new TypeError('fetch failed')),
      }).embed(['hi']),
    );
    expect(refused.code).toBe('EMBEDDING_FAILED');
    expect(refused.cause).toBeInstanceOf(TypeError);

    const slow = await caught(
      createOpenAICompatibleEmbedder({
        baseURL,
        model: 'm',
        timeoutMs: 20,
        fetch: (_url, init) =>
          new Promise((_resolve, reject) => {
            init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
          }),
      }).embed(['慢']),
    );
    expect(slow.message).toContain('within 20 ms');
  });
});
