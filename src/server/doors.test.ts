import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../deps.js';
import { completion, responseObject, startMockUpstream, type MockUpstream } from '../proxy/mock-upstream.js';
import { testMemory } from '../testing/test-memory.js';
import { keyStoreOf } from './keys/key-store-of.js';
import { startServer, type RunningServer } from './serve.js';

let upstream: MockUpstream;
let server: RunningServer;
let aliceKey: string;
let tenantKey: string;

type Sent = { messages: Array<{ role: string; content: string }> };
const systemSent = (i: number): string => (upstream.requests.filter((r) => r.path === '/v1/chat/completions')[i]?.body as Sent).messages.find((m) => m.role === 'system')?.content ?? '';

beforeEach(async () => {
  upstream = await startMockUpstream((r) => ({ kind: 'json', body: r.path === '/v1/responses' ? responseObject('好的 OK') : completion('好的 OK') }));
  const memory = testMemory();
  await memory.add({ userId: 't:acme:alice', kind: 'preference', content: '用户喜欢猫 and likes cats' });
  await memory.add({ userId: 't:acme:bob', kind: 'preference', content: 'Bob collects vinyl records' });
  const keys = keyStoreOf(memory.deps.store);
  aliceKey = (await keys.create({ tenantId: 'acme', boundUserId: 'alice' })).key;
  tenantKey = (await keys.create({ tenantId: 'acme' })).key;
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    memory,
    logger: silentLogger,
    env: { ENGRAM_LLM_BASE_URL: upstream.baseURL, ENGRAM_LLM_API_KEY: 'upstream-secret', ENGRAM_LLM_MODEL: 'mock-model', ENGRAM_ADMIN_KEY: 'admin-secret-0123456789' },
  });
});

afterEach(async () => {
  await server.close();
  await upstream.close();
});

const openai = (key: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: key, maxRetries: 0 });
const textOf = (r: unknown): string => (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('the doors on the HTTP server', () => {
  it("proxies chats for the key's bound user within its tenant, with the upstream key kept server-side", async () => {
    const { data, response } = await openai(aliceKey).chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content: '我喜欢猫吗？ Do I like cats?' }] }).withResponse();
    expect(data.choices[0]?.message.content).toBe('好的 OK');
    expect(systemSent(0)).toContain('用户喜欢猫');
    expect(systemSent(0)).not.toContain('vinyl');
    expect(upstream.requests[0]!.headers.authorization).toBe('Bearer upstream-secret');
    let headerValues = '';
    response.headers.forEach((value) => (headerValues += `${value} `));
    expect(headerValues).not.toContain('upstream-secret');

    const forbidden = await openai(aliceKey).chat.completions.create({ model: 'mock-model', user: 'bob', messages: [{ role: 'user', content: 'vinyl?' }] }).catch((e: unknown) => e);
    expect((forbidden as InstanceType<typeof OpenAI.APIError>).status).toBe(403);

    await openai(tenantKey).chat.completions.create({ model: 'mock-model', user: 'bob', messages: [{ role: 'user', content: 'Any vinyl records? 猫?' }] });
    expect(systemSent(1)).toContain('Bob collects vinyl records');
    expect(systemSent(1)).not.toContain('猫');

    const noKey = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }) });
    expect(noKey.status).toBe(401);
    expect(upstream.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(2);
    expect((await openai(aliceKey).models.list()).data[0]?.id).toBe('mock-model');
  });

  it('passes a chat with a photo in it (a few MB of base64) to the model, its text in the turn recorded (zh/en)', async () => {
    const photo = `data:image/png;base64,${Buffer.alloc(1_500_000, 7).toString('base64')}`;
    const { data } = await openai(aliceKey)
      .chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content: [{ type: 'text', text: '这是我的猫 this is my cat' }, { type: 'image_url', image_url: { url: photo } }] }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe('好的 OK');
    const sent = upstream.requests.find((r) => r.path === '/v1/chat/completions')!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(sent.messages.find((m) => m.role === 'user')!.content)).toContain(photo);
    // The turn is recorded after the response: its text only, the photo stays with the model.
    await vi.waitFor(async () => expect((await server.memory.deps.store.listMessages({ userId: 't:acme:alice' })).map((m) => m.content)).toEqual(['这是我的猫 this is my cat', '好的 OK']));
  });

  it("serves the Responses API for the key's user within its tenant: memory in the instructions, a photo passed, nothing without a key (zh/en)", async () => {
    const photo = `data:image/png;base64,${Buffer.alloc(1_500_000, 7).toString('base64')}`;
    const input = [{ role: 'user' as const, content: [{ type: 'input_text' as const, text: '这是我的猫 this is my cat' }, { type: 'input_image' as const, image_url: photo, detail: 'auto' as const }] }];
    const { data, response } = await openai(aliceKey).responses.create({ model: 'mock-model', instructions: 'Be brief.', input }).withResponse();
    expect(data.output_text).toBe('好的 OK');
    expect(response.headers.get('x-engram-memory')).toBe('used');
    const sent = (i: number) => upstream.requests.filter((r) => r.path === '/v1/responses')[i]?.body as { instructions: string; input: unknown };
    expect(sent(0).instructions).toContain('用户喜欢猫');
    expect(sent(0).instructions).not.toContain('vinyl');
    expect(sent(0).input).toEqual(input);
    await vi.waitFor(async () => expect((await server.memory.deps.store.listMessages({ userId: 't:acme:alice' })).map((m) => m.content)).toEqual(['这是我的猫 this is my cat', '好的 OK']));

    const forbidden = await openai(aliceKey).responses.create({ model: 'mock-model', user: 'bob', input: 'vinyl?' }).catch((e: unknown) => e);
    expect((forbidden as InstanceType<typeof OpenAI.APIError>).status).toBe(403);
    await openai(tenantKey).responses.create({ model: 'mock-model', user: 'bob', input: 'Any vinyl records? 猫?' });
    expect(sent(1).instructions).toContain('Bob collects vinyl records');
    expect(sent(1).instructions).not.toContain('猫');
    const noKey = await fetch(`${server.url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'mock-model', input: 'hi' }) });
    expect(noKey.status).toBe(401);
    expect(upstream.requests.filter((r) => r.path === '/v1/responses')).toHaveLength(2);
  });

  it('says what is missing when no model server is configured, on every proxy route (zh/en)', async () => {
    const memory = testMemory();
    const key = (await keyStoreOf(memory.deps.store).create({ tenantId: 'acme', boundUserId: 'alice' })).key;
    const bare = await startServer({ port: 0, host: '127.0.0.1', memory, logger: silentLogger, env: { ENGRAM_ADMIN_KEY: 'admin-secret-0123456789' } });
    try {
      for (const [path, body] of [
        ['/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: '我喜欢猫吗？' }] }],
        ['/v1/responses', { model: 'm', input: 'Do I like cats?' }],
        ['/v1/embeddings', { model: 'm', input: ['我喜欢猫', 'I like cats'] }],
      ] as const) {
        const res = await fetch(`${bare.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const error = ((await res.json()) as { error: { code: string; message: string } }).error;
        expect([path, res.status, error.code]).toEqual([path, 409, 'CONFIG_INVALID']);
        expect(error.message).toContain('ENGRAM_LLM_BASE_URL');
      }
    } finally {
      await bare.close();
    }
  });

  it('passes embeddings through behind the API key, with the upstream key (zh/en)', async () => {
    await openai(aliceKey).embeddings.create({ model: 'mock-embed', input: ['我喜欢猫', 'I like cats'] });
    const got = upstream.requests.find((r) => r.path === '/v1/embeddings')!;
    expect(got.body).toMatchObject({ model: 'mock-embed', input: ['我喜欢猫', 'I like cats'] });
    expect(got.headers.authorization).toBe('Bearer upstream-secret');
    const noKey = await fetch(`${server.url}/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'mock-embed', input: 'hi' }) });
    expect(noKey.status).toBe(401);
    expect(upstream.requests.filter((r) => r.path === '/v1/embeddings')).toHaveLength(1);
  });

  it('refuses a user of spaces on the proxy and MCP as every route does: named in the body, the header, the tool argument or bound to a key, and forwards nothing (zh/en)', async () => {
    for (const [user, content] of [['  ', '我喜欢猫吗？'], ['\u3000', 'Do I like cats?']] as const) {
      const refused = await openai(tenantKey).chat.completions.create({ model: 'mock-model', user, messages: [{ role: 'user', content }] }).catch((e: unknown) => e);
      expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
      const responses = await openai(tenantKey).responses.create({ model: 'mock-model', user, input: content }).catch((e: unknown) => e);
      expect((responses as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
      // The header, as UTF-8 bytes: spaces name no user.
      const header = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenantKey}`, 'content-type': 'application/json', 'x-engram-user': Buffer.from(`${user} `).toString('latin1') },
        body: JSON.stringify({ model: 'mock-model', messages: [{ role: 'user', content }] }),
      });
      expect(header.status).toBe(400);
      // A key bound to it (the CLI's `keys create --bind-user` takes any text): its user is checked as given, not as "t:acme:  ".
      const bound = (await keyStoreOf(server.memory.deps.store).create({ tenantId: 'acme', boundUserId: user })).key;
      const byKey = await openai(bound).chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content }] }).catch((e: unknown) => e);
      expect((byKey as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
      expect((byKey as InstanceType<typeof OpenAI.APIError>).message).toContain('must not be empty');
      const client = new Client({ name: 'agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${bound}` } } }));
      const added = (await client.callTool({ name: 'add_memory', arguments: { content: `${content} 用户喜欢猫` } })) as CallToolResult;
      expect([added.isError, textOf(added)]).toEqual([true, expect.stringContaining('must not be empty')]);
      const named = (await client.callTool({ name: 'list_memories', arguments: { user_id: user } })) as CallToolResult;
      expect(named.isError).toBe(true);
      await client.close();
    }
    expect(upstream.requests).toHaveLength(0);
    expect((await server.memory.deps.store.userIds()).sort()).toEqual(['t:acme:alice', 't:acme:bob']);
  });

  it('refuses a body that is not UTF-8 on the proxy and /mcp, whatever its content type, and forwards nothing (zh/en)', async () => {
    const bad = (before: string, after: string) => Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xfe]), Buffer.from(after)]);
    const chats = [
      bad('{"model":"mock-model","messages":[{"role":"user","content":"我喜欢', '猫"}]}'),
      bad('{"model":"mock-model","messages":[{"role":"user","content":"I like ', ' cats"}]}'),
    ];
    for (const body of chats) {
      for (const type of ['application/json', 'text/plain;charset=UTF-8']) {
        const res = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${aliceKey}`, 'content-type': type }, body });
        expect([type, res.status]).toEqual([type, 400]);
        expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('not valid UTF-8') });
      }
    }
    const mcp = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${aliceKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: bad('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_memory","arguments":{"content":"用户喜欢', '猫 likes cats"}}}'),
    });
    expect(mcp.status).toBe(400);
    expect(upstream.requests).toHaveLength(0);
    expect((await server.memory.deps.store.listMessages({ userId: 't:acme:alice' })).length).toBe(0);
    expect((await server.memory.list({ userId: 't:acme:alice' })).map((m) => m.content)).toEqual(['用户喜欢猫 and likes cats']);
  });

  it('serves MCP at /mcp for the key: bound user by default, tenant users by argument, nothing across', async () => {
    const connect = async (key: string) => {
      const client = new Client({ name: 'agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      return client;
    };
    const alice = await connect(aliceKey);
    expect(textOf(await alice.callTool({ name: 'search_memory', arguments: { query: '猫' } }))).toContain('用户喜欢猫');
    const crossing = (await alice.callTool({ name: 'list_memories', arguments: { user_id: 'bob' } })) as CallToolResult;
    expect(crossing.isError).toBe(true);
    expect(textOf(crossing)).toContain('[FORBIDDEN]');
    await alice.close();

    const tenant = await connect(tenantKey);
    expect(textOf(await tenant.callTool({ name: 'list_memories', arguments: { user_id: 'bob' } }))).toContain('vinyl');
    const unnamed = (await tenant.callTool({ name: 'list_memories', arguments: {} })) as CallToolResult;
    expect(textOf(unnamed)).toContain('[INVALID_INPUT]');
    await tenant.close();

    const anonymous = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(anonymous.status).toBe(401);
  });
});
