import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createUpstreamFetch, UpstreamTimeout } from './upstream-fetch.js';
import { createChatProxy } from './chat-proxy.js';
import { testMemory } from '../testing/test-memory.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

let server: Server | undefined;
let connections = 0;
let closedResponses = 0;

async function serve(handler: Handler): Promise<string> {
  connections = 0;
  closedResponses = 0;
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (p: Buffer) => parts.push(p));
    req.on('end', () => handler(req, Buffer.concat(parts).toString('utf8'), res));
    res.on('close', () => {
      if (!res.writableFinished) closedResponses++;
    });
  });
  server.on('connection', () => connections++);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('createUpstreamFetch', () => {
  it('posts the body with its headers and answers status, headers and body (Chinese and English)', async () => {
    let seen: { method?: string; url?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    const base = await serve((req, body, res) => {
      seen = { method: req.method, url: req.url, headers: req.headers, body };
      res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'r1' }).end(JSON.stringify({ reply: '好的，noted.' }));
    });
    const body = JSON.stringify({ messages: [{ role: 'user', content: '我喜欢什么？ What do I like?' }] });
    const res = await createUpstreamFetch()(`${base}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer up' }, body });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-request-id')).toBe('r1');
    expect(await res.json()).toEqual({ reply: '好的，noted.' });
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/v1/chat/completions');
    expect(seen.body).toBe(body);
    expect(seen.headers?.authorization).toBe('Bearer up');
    expect(seen.headers?.['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  it('reuses one connection for calls in a row', async () => {
    const base = await serve((_req, _body, res) => res.writeHead(200).end('ok'));
    const call = createUpstreamFetch();
    for (let i = 0; i < 5; i++) expect(await (await call(`${base}/v1/models`, { method: 'GET', headers: {} })).text()).toBe('ok');
    expect(connections).toBe(1);
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('decodes a %s body as fetch does', async (coding, encode) => {
    const base = await serve((_req, _body, res) => res.writeHead(200, { 'content-encoding': coding }).end(encode(Buffer.from('你好，world'))));
    const res = await createUpstreamFetch()(`${base}/v1/models`, { method: 'GET', headers: {} });
    expect(await res.text()).toBe('你好，world');
  });

  it('passes statuses on as they are: a redirect is not followed, a 204 has no body', async () => {
    const base = await serve((req, _body, res) => (req.url === '/moved' ? res.writeHead(307, { location: '/elsewhere' }).end() : res.writeHead(204).end()));
    const call = createUpstreamFetch();
    const moved = await call(`${base}/moved`, { method: 'POST', headers: {}, body: '{}' });
    expect(moved.status).toBe(307);
    expect(moved.headers.get('location')).toBe('/elsewhere');
    const empty = await call(`${base}/empty`, { method: 'GET', headers: {} });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it('rejects with the abort reason before the response, and the server sees the call go away', async () => {
    const base = await serve(() => undefined);
    const abort = new AbortController();
    const pending = createUpstreamFetch()(`${base}/v1/chat/completions`, { method: 'POST', headers: {}, body: '{"messages":[]}', signal: abort.signal });
    await vi.waitFor(() => expect(connections).toBe(1));
    abort.abort(new DOMException('client went away 客户端断开', 'AbortError'));
    await expect(pending).rejects.toMatchObject({ name: 'AbortError', message: 'client went away 客户端断开' });
    await vi.waitFor(() => expect(closedResponses).toBe(1));
  });

  it('errors the body with the abort reason mid-stream and closes the connection', async () => {
    const base = await serve((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"delta":{"content":"半句话"}}]}\n\n');
    });
    const abort = new AbortController();
    const res = await createUpstreamFetch()(`${base}/v1/chat/completions`, { method: 'POST', headers: {}, body: '{}', signal: abort.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('半句话');
    abort.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    await vi.waitFor(() => expect(closedResponses).toBe(1));
  });

  it('errors the body when the server closes the connection mid-body', async () => {
    const base = await serve((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: partial\n\n', () => res.destroy());
    });
    const res = await createUpstreamFetch()(`${base}/v1/chat/completions`, { method: 'POST', headers: {}, body: '{}' });
    await expect(res.text()).rejects.toThrow();
  });

  it('rejects with the socket error when nothing listens', async () => {
    const base = await serve(() => undefined);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    await expect(createUpstreamFetch()(`${base}/v1/models`, { method: 'GET', headers: {} })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('a model server that never answers', () => {
  it('fails the call after the headers timeout (UpstreamTimeout), and the socket is closed', async () => {
    const url = await serve(() => undefined);
    const call = createUpstreamFetch({ headersTimeoutMs: 100 })(`${url}/chat/completions`, { method: 'POST', headers: {}, body: '{}' });
    await expect(call).rejects.toBeInstanceOf(UpstreamTimeout);
    await vi.waitFor(() => expect(closedResponses).toBe(1));
  });

  it("the proxy answers 504 in OpenAI's shape, and records no turn (zh, en)", async () => {
    const url = await serve(() => undefined);
    const memory = testMemory();
    const proxy = createChatProxy({ memory, upstream: { baseURL: url, apiKey: 'upstream-secret' }, upstreamTimeoutMs: 100 });
    for (const content of ['你好', 'hello']) {
      const res = await proxy.request('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', user: 'u', messages: [{ role: 'user', content }] }) });
      expect(res.status).toBe(504);
      expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'UPSTREAM_FAILED', message: expect.stringContaining('no answer within') });
    }
    await proxy.idle();
    expect(await memory.workingWindow('u', 'any')).toEqual([]);
    await memory.close();
  });
});
