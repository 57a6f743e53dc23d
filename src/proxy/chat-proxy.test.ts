import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngramError } from '../errors.js';
import type { MemoryEngine } from '../memory-engine.js';
import { createChatProxy, type ChatProxy } from './chat-proxy.js';
import { completion, startMockUpstream, type MockReply, type MockUpstream, type RecordedRequest } from './mock-upstream.js';
import { memoryOfLiAndAnn, recordingLogger, serveProxy } from './proxy-test-kit.js';
import type { Activity } from '../util/activity.js';
import type { Logger } from '../deps.js';

type Sent = { messages: Array<{ role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }>; model: string; user?: string };
const sent = (r: RecordedRequest | undefined): Sent => r?.body as Sent;

let memory: MemoryEngine & { clock: { now(): Date } };
let upstream: MockUpstream;
let proxy: ChatProxy;
let server: { url: string; close(): Promise<void> };
let reply: (r: RecordedRequest) => MockReply;

async function start(engine: Parameters<typeof createChatProxy>[0]['memory'] = memory, extra: { contextTimeoutMs?: number; activity?: Activity; logger?: Logger } = {}): Promise<OpenAI> {
  let client: OpenAI;
  ({ proxy, server, client } = await serveProxy({ memory: engine, upstream: { baseURL: upstream.baseURL, apiKey: 'upstream-secret' }, clock: memory.clock, ...extra }));
  return client;
}

beforeEach(async () => {
  memory = await memoryOfLiAndAnn();
  reply = () => ({ kind: 'json', body: completion('好的') });
  upstream = await startMockUpstream((r) => reply(r));
});

afterEach(async () => {
  await server?.close();
  await upstream.close();
  await memory.close();
});

describe('chat proxy with the official openai client', () => {
  it('appends the memories to the system message, forwards with the upstream key, records both turns (Chinese)', async () => {
    const client = await start();
    reply = () => ({ kind: 'json', body: completion('你喜欢猫，可以买猫粮和猫砂。') });
    const { data, response } = await client.chat.completions
      .create({ model: 'mock-model', user: 'li', messages: [{ role: 'system', content: '你是一个助手。' }, { role: 'user', content: '我喜欢什么动物？' }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe('你喜欢猫，可以买猫粮和猫砂。');
    expect(response.headers.get('x-engram-memory')).toBe('used');
    expect(Number(response.headers.get('x-engram-memories-used'))).toBeGreaterThan(0);
    expect(Number(response.headers.get('x-engram-context-tokens'))).toBeGreaterThan(0);

    const got = sent(upstream.requests[0]);
    expect(got.messages).toHaveLength(2);
    expect(got.messages[0]!.role).toBe('system');
    expect(String(got.messages[0]!.content).startsWith('你是一个助手。\n\n')).toBe(true);
    expect(String(got.messages[0]!.content)).toContain('用户喜欢猫');
    expect(got.messages[1]).toEqual({ role: 'user', content: '我喜欢什么动物？' });
    expect(upstream.requests[0]!.headers.authorization).toBe('Bearer upstream-secret');

    await proxy.idle();
    const session = response.headers.get('x-engram-session')!;
    expect(session).toBe('chat-2026-01-01');
    const window = await memory.workingWindow('li', session);
    expect(window.map((m) => [m.role, m.content])).toEqual([['user', '我喜欢什么动物？'], ['assistant', '你喜欢猫，可以买猫粮和猫砂。']]);
    const [cat] = await memory.list({ userId: 'li' });
    expect((await memory.history('li', cat!.id)).map((e) => e.action)).toContain('reinforce');
  });

  it('creates a system message when there is none, and takes the user and session from headers (English)', async () => {
    const client = await start();
    await client.chat.completions.create(
      { model: 'mock-model', messages: [{ role: 'user', content: 'Any hiking ideas for me?' }] },
      { headers: { 'X-Engram-User': 'ann', 'X-Engram-Session': 'trip-1' } },
    );
    const got = sent(upstream.requests[0]);
    expect(got.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(String(got.messages[0]!.content)).toContain('Ann loves hiking in the Alps');
    expect(String(got.messages[0]!.content)).not.toContain('猫');
    await proxy.idle();
    expect((await memory.workingWindow('ann', 'trip-1')).map((m) => m.content)).toEqual(['Any hiking ideas for me?', '好的']);
  });

  it('passes a stream through chunk by chunk and records the assembled reply', async () => {
    const client = await start();
    reply = () => ({ kind: 'stream', deltas: ['You ', 'love ', 'hiking', ' in the Alps.'] });
    const stream = await client.chat.completions.create({ model: 'mock-model', user: 'ann', stream: true, messages: [{ role: 'user', content: 'What do I love?' }] });
    const deltas: string[] = [];
    for await (const c of stream) deltas.push(c.choices[0]?.delta.content ?? '');
    expect(deltas.filter((d) => d !== '')).toEqual(['You ', 'love ', 'hiking', ' in the Alps.']);
    await proxy.idle();
    const window = await memory.workingWindow('ann', 'chat-2026-01-01');
    expect(window.map((m) => m.content)).toEqual(['What do I love?', 'You love hiking in the Alps.']);
  });

  it('never touches tool calls, tool results or the order of roles; a tool-call reply reaches the client', async () => {
    const client = await start();
    await memory.add({ userId: 'li', kind: 'plan', content: '用户下周去大阪出差' });
    const toolCall = { id: 'call_1', type: 'function' as const, function: { name: 'weather', arguments: '{"city":"东京"}' } };
    reply = () => ({ kind: 'json', body: completion(null, { toolCalls: [{ ...toolCall, function: { name: 'weather', arguments: '{"city":"大阪"}' }, id: 'call_2' }] }) });
    const messages = [
      { role: 'user' as const, content: '东京天气怎么样？' },
      { role: 'assistant' as const, content: null, tool_calls: [toolCall] },
      { role: 'tool' as const, tool_call_id: 'call_1', content: '晴，20 度' },
      { role: 'user' as const, content: '那大阪呢？' },
    ];
    const tools = [{ type: 'function' as const, function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const data = await client.chat.completions.create({ model: 'mock-model', user: 'li', messages, tools });
    expect(data.choices[0]?.message.tool_calls?.[0]).toMatchObject({ id: 'call_2', function: { name: 'weather' } });
    const got = upstream.requests[0]!.body as Sent & { tools: unknown };
    expect(got.messages.slice(1)).toEqual(messages);
    expect(got.messages[0]!.role).toBe('system');
    expect(got.tools).toEqual(tools);
    await proxy.idle();
    // The reply was tool calls only: the user's message is recorded, no empty assistant turn.
    expect((await memory.workingWindow('li', 'chat-2026-01-01')).map((m) => [m.role, m.content])).toEqual([['user', '那大阪呢？']]);
  });

  it('records a user message once across the rounds of a tool loop and a retried request', async () => {
    const client = await start();
    const first = [{ role: 'user' as const, content: 'What is the weather in Kyoto? 京都天气' }];
    await client.chat.completions.create({ model: 'mock-model', user: 'li', messages: first });
    await client.chat.completions.create({ model: 'mock-model', user: 'li', messages: first });
    await client.chat.completions.create({
      model: 'mock-model',
      user: 'li',
      messages: [...first, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c1', content: '晴' }],
    });
    await proxy.idle();
    const window = await memory.workingWindow('li', 'chat-2026-01-01');
    expect(window.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['What is the weather in Kyoto? 京都天气']);
    expect(window.filter((m) => m.role === 'assistant')).toHaveLength(2);
  });

  it.each([
    [429, { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }],
    [500, { error: { message: 'The server had an error 服务器错误', type: 'server_error', code: null } }],
    [404, { error: { message: 'The model `gpt-9` does not exist', type: 'invalid_request_error', code: 'model_not_found' } }],
  ])('passes an upstream %i through unchanged', async (status, body) => {
    const client = await start();
    reply = () => ({ kind: 'json', status, body, headers: { 'retry-after': '7' } });
    const error = await client.chat.completions.create({ model: 'gpt-9', user: 'li', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(status);
    expect(apiError.error).toEqual(body.error);
    expect(apiError.headers?.get('retry-after')).toBe('7');
    const raw = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', user: 'li', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(raw.status).toBe(status);
    expect(await raw.text()).toBe(JSON.stringify(body));
    await proxy.idle();
    expect(await memory.workingWindow('li', 'chat-2026-01-01')).toEqual([]);
  });

  it('refuses a request without a user or with a malformed body, and forwards nothing', async () => {
    const client = await start();
    const noUser = await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content: '你好' }] }).catch((e: unknown) => e);
    expect((noUser as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect((noUser as InstanceType<typeof OpenAI.APIError>).message).toContain('No user');
    const bad = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', user: 'li', messages: 'hello' }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
    const notJson = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: '{"messages":' });
    expect(notJson.status).toBe(400);
    // Bytes that are not UTF-8 (a GBK "你好", a lone continuation byte), in a proxy without the server's guard: refused, not stored as U+FFFD.
    for (const bytes of [[0xc4, 0xe3, 0xba, 0xc3], [0x68, 0x69, 0x80]]) {
      const body = Buffer.concat([Buffer.from('{"model":"m","user":"li","messages":[{"role":"user","content":"'), Buffer.from(bytes), Buffer.from('"}]}')]);
      const refused = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/not valid UTF-8 \(byte \d+\)/u) });
    }
    expect(await memory.workingWindow('li', 'chat-2026-01-01')).toEqual([]);
    // A user id no route accepts (a control character, the global settings' "*"): refused, not forwarded without memory.
    for (const [user, content] of [['li\u0000ming', '你好'], ['*', 'hello']] as const) {
      const refused = await client.chat.completions.create({ model: 'mock-model', user, messages: [{ role: 'user', content }] }).catch((e: unknown) => e);
      expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
      expect((refused as InstanceType<typeof OpenAI.APIError>).message).toContain('Invalid user');
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it("forwards without memory and says so when Engram's own part fails", async () => {
    const broken = {
      context: () => Promise.reject(new EngramError('STORE_FAILED', 'disk gone')),
      appendMessages: memory.appendMessages.bind(memory),
      reportReply: memory.reportReply.bind(memory),
    };
    const client = await start(broken);
    const { data, response } = await client.chat.completions.create({ model: 'mock-model', user: 'li', messages: [{ role: 'user', content: '我喜欢什么？' }] }).withResponse();
    expect(data.choices[0]?.message.content).toBe('好的');
    expect(response.headers.get('x-engram-memory')).toBe('unavailable');
    expect(response.headers.get('x-engram-memory-error')).toBe('STORE_FAILED');
    expect(sent(upstream.requests[0]).messages).toEqual([{ role: 'user', content: '我喜欢什么？' }]);
  });

  it('forwards without memory when the block is not ready by the deadline', async () => {
    const stuck = { context: () => new Promise<never>(() => undefined), appendMessages: memory.appendMessages.bind(memory), reportReply: memory.reportReply.bind(memory) };
    const client = await start(stuck, { contextTimeoutMs: 20 });
    const { response } = await client.chat.completions.create({ model: 'mock-model', user: 'ann', messages: [{ role: 'user', content: 'Do I love hiking?' }] }).withResponse();
    expect(response.headers.get('x-engram-memory')).toBe('timeout');
    expect(sent(upstream.requests[0]).messages.map((m) => m.role)).toEqual(['user']);
  });

  it('keeps going when the client disconnects mid-stream: the user message is recorded, the partial reply dropped, the client\'s going logged as such (zh, en)', async () => {
    const logger = recordingLogger();
    const client = await start(memory, { logger });
    for (const [i, [userId, ask, half]] of ([['li', '讲个长故事', '从前有'], ['ann', 'Tell me a long story', 'Once upon']] as const).entries()) {
      reply = () => ({ kind: 'stream', deltas: [half], hold: true });
      // As the tester did: the official client, aborted once the reply has started.
      const abort = new AbortController();
      const stream = await client.chat.completions.create({ model: 'm', user: userId, stream: true, messages: [{ role: 'user', content: ask }] }, { signal: abort.signal });
      const seen: string[] = [];
      // The client ends its iteration quietly on its own abort.
      for await (const chunk of stream) if (seen.push(chunk.choices[0]?.delta.content ?? '') === 2) abort.abort();
      expect(seen).toEqual(['', half]);
      // Once the proxy has seen the client go, the user's turn is on its way to the store.
      await vi.waitFor(() => expect(logger.lines.filter(([, message]) => message.startsWith('client disconnected'))).toHaveLength(i + 1));
      await proxy.idle();
      expect((await memory.workingWindow(userId, 'chat-2026-01-01')).map((m) => [m.role, m.content])).toEqual([['user', ask]]);
    }
    await vi.waitFor(() => expect(upstream.closedStreams).toBe(2));
    // A client going away is no failure of the model server.
    expect(logger.lines.filter(([level]) => level !== 'debug')).toEqual([
      ['info', 'client disconnected mid-stream; the upstream call is cancelled and the partial reply dropped', expect.anything()],
      ['info', 'client disconnected mid-stream; the upstream call is cancelled and the partial reply dropped', expect.anything()],
    ]);
    // The proxy still serves the next request.
    reply = () => ({ kind: 'json', body: completion('still here') });
    const next = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', user: 'li', messages: [{ role: 'user', content: 'hello again' }] }) });
    expect(next.status).toBe(200);
  });

  it('a model server that fails mid-stream: the client gets the API\'s error event (the official client throws it), it is logged as UPSTREAM_FAILED, and only the user turn is recorded (zh, en)', async () => {
    const logger = recordingLogger();
    const encoder = new TextEncoder();
    const chunk = (content: string): Uint8Array => encoder.encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`);
    // A reset connection after the first delta, as the default fetch reports it.
    const resetting = (): Promise<Response> =>
      Promise.resolve(
        new Response(new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(chunk('半句 half')), pull: (c) => c.error(new Error('read ECONNRESET')) }), { headers: { 'content-type': 'text/event-stream' } }),
      );
    ({ proxy, server } = await serveProxy({ memory, upstream: { baseURL: upstream.baseURL }, clock: memory.clock, logger, fetch: resetting }));
    // Nothing printed by the Node adapter (an errored response stream is printed and its connection reset).
    const printed = vi.spyOn(console, 'error');
    try {
      const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const stream = await client.chat.completions.create({ model: 'm', user: 'li', stream: true, messages: [{ role: 'user', content: '讲个故事 tell a story' }] });
      let streamed = '';
      const reading = (async () => {
        for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
      })();
      await expect(reading).rejects.toMatchObject({ code: 'UPSTREAM_FAILED', message: expect.stringMatching(/broke off the stream/u) });
      expect(streamed).toBe('半句 half');
      await proxy.idle();
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
    expect(logger.lines).toEqual([['warn', 'upstream stream failed mid-reply; the partial reply is dropped', { code: 'UPSTREAM_FAILED', error: 'Error: read ECONNRESET' }]]);
    expect((await memory.workingWindow('li', 'chat-2026-01-01')).map((m) => [m.role, m.content])).toEqual([['user', '讲个故事 tell a story']]);
  });

  it.each([
    ['li', '以后别再提了，忘掉我喜欢猫的事吧', '好的，我已经忘掉了。', '喜欢猫', '用户喜欢猫', '不要复述'],
    ['ann', 'please forget what I told you about hiking', "Done, I won't mention hiking again.", 'hiking', 'Alps', 'do not repeat'],
  ])('%s: asking in the chat to forget a topic erases it once the turn is recorded: memories, both turns, the next block', async (userId, ask, answer, trace, memoryText, notice) => {
    const client = await start();
    reply = () => ({ kind: 'json', body: completion(answer) });
    const { response } = await client.chat.completions.create({ model: 'mock-model', user: userId, messages: [{ role: 'user', content: ask }] }).withResponse();
    // This turn the model gets the request's notice, not the memories it would retell.
    expect(response.headers.get('x-engram-memory')).toBe('forgetting');
    const system = String(sent(upstream.requests[0]).messages[0]?.content);
    expect(system).toContain(notice);
    expect(system).not.toContain(memoryText);
    await proxy.idle();
    expect(await memory.list({ userId })).toEqual([]);
    expect(JSON.stringify((await memory.exportUser(userId)).messages)).not.toContain(trace);
    await client.chat.completions.create({ model: 'mock-model', user: userId, messages: [{ role: 'user', content: trace }] });
    // Nothing about it is left to remember: the next request goes without a memory block.
    expect(sent(upstream.requests[1]).messages).toEqual([{ role: 'user', content: trace }]);
    // The other user keeps everything.
    expect(await memory.list({ userId: userId === 'li' ? 'ann' : 'li' })).toHaveLength(1);
  });

  it('a bare "forget <name>" is a request only of someone remembered: "forget tacos" keeps its memory block, "Forget Sarah." gets the notice', async () => {
    const client = await start();
    await memory.add({ userId: 'ann', content: "The user's ex is Sarah" });
    reply = () => ({ kind: 'json', body: completion('Sure.') });
    const tacos = await client.chat.completions.create({ model: 'mock-model', user: 'ann', messages: [{ role: 'user', content: 'forget tacos' }] }).withResponse();
    expect(tacos.response.headers.get('x-engram-memory')).not.toBe('forgetting');
    await proxy.idle();
    expect(await memory.list({ userId: 'ann' })).toHaveLength(2);
    const sarah = await client.chat.completions.create({ model: 'mock-model', user: 'ann', messages: [{ role: 'user', content: 'Forget Sarah.' }] }).withResponse();
    expect(sarah.response.headers.get('x-engram-memory')).toBe('forgetting');
    await proxy.idle();
    expect((await memory.list({ userId: 'ann' })).map((m) => m.content)).not.toContain("The user's ex is Sarah");
  });

  it.each([
    ['li', '把我今天说的都忘了吧', '用户要求忘掉今天说过的话'],
    ['ann', 'Forget everything I told you today', 'forget what they said today'],
  ])('%s: asking to forget what was said at a time gets its own notice, not a topic\'s', async (userId, ask, notice) => {
    const client = await start();
    reply = () => ({ kind: 'json', body: completion('OK.') });
    const { response } = await client.chat.completions.create({ model: 'mock-model', user: userId, messages: [{ role: 'user', content: ask }] }).withResponse();
    expect(response.headers.get('x-engram-memory')).toBe('forgetting');
    expect(String(sent(upstream.requests[0]).messages[0]?.content)).toContain(notice);
    await proxy.idle();
    expect(JSON.stringify((await memory.exportUser(userId)).messages)).not.toContain(ask);
  });

  it("never puts one user's memories into another's request", async () => {
    const client = await start();
    const system = (i: number): string => String(sent(upstream.requests[i]).messages.find((m) => m.role === 'system')?.content ?? '');
    for (const user of ['ann', 'li']) {
      await client.chat.completions.create({ model: 'mock-model', user, messages: [{ role: 'user', content: '我喜欢猫吗？ Do I love hiking in the Alps?' }] });
    }
    expect(system(0)).toContain('Ann loves hiking');
    expect(system(0)).not.toContain('猫');
    expect(system(1)).toContain('用户喜欢猫');
    expect(system(1)).not.toContain('Alps');
  });

  it('answers 502 UPSTREAM_FAILED when the model server cannot be reached', async () => {
    const gone = await startMockUpstream(() => ({ kind: 'json', body: completion('never') }));
    await gone.close();
    ({ proxy, server } = await serveProxy({ memory, upstream: { baseURL: gone.baseURL }, clock: memory.clock }));
    const res = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', user: 'li', messages: [{ role: 'user', content: '你好 hello' }] }) });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UPSTREAM_FAILED');
    await proxy.idle();
    expect(await memory.workingWindow('li', 'chat-2026-01-01')).toEqual([]);
  });

  it('passes GET /v1/models through', async () => {
    const client = await start();
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['mock-model']);
    expect(upstream.requests[0]!.headers.authorization).toBe('Bearer upstream-secret');
  });

  it('passes embeddings and moderations through unchanged with the upstream key, errors included, and records nothing (zh/en)', async () => {
    const client = await start();
    reply = (r) =>
      r.path === '/v1/embeddings'
        ? { kind: 'json', body: { object: 'list', model: 'mock-embed', data: (r.body as { input: string[] }).input.map((_, index) => ({ object: 'embedding', index, embedding: [0.6, 0.8] })), usage: { prompt_tokens: 4, total_tokens: 4 } } }
        : { kind: 'json', status: 400, body: { error: { message: 'moderation is not supported by this server', type: 'invalid_request_error', code: null, param: null } } };
    const input = ['我喜欢猫', 'I like cats'];
    const embedded = await client.embeddings.create({ model: 'mock-embed', input, encoding_format: 'float' });
    expect(embedded.data.map((d) => d.embedding)).toEqual([[0.6, 0.8], [0.6, 0.8]]);
    expect(upstream.requests[0]).toMatchObject({ path: '/v1/embeddings', body: { model: 'mock-embed', input, encoding_format: 'float' } });
    expect(upstream.requests[0]!.headers.authorization).toBe('Bearer upstream-secret');
    const refused = await client.moderations.create({ input: '你好 hello' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect((refused as InstanceType<typeof OpenAI.APIError>).message).toContain('moderation is not supported by this server');
    await proxy.idle();
    expect(await memory.deps.store.listMessages({ userId: 'li' })).toEqual([]);
  });

  it('records the turn when reinforcing what the reply used fails, and logs that only the reinforcement was skipped', async () => {
    const lines: Array<[string, string, Record<string, unknown> | undefined]> = [];
    const logger: Logger = { debug: () => undefined, info: () => undefined, warn: (m, d) => void lines.push(['warn', m, d]), error: (m, d) => void lines.push(['error', m, d]) };
    const garbledJudge = { context: memory.context.bind(memory), appendMessages: memory.appendMessages.bind(memory), reportReply: () => Promise.reject(new EngramError('MODEL_OUTPUT_INVALID', 'Model answer for judge-usage@2 is not valid JSON')) };
    const client = await start(garbledJudge, { logger });
    reply = () => ({ kind: 'json', body: completion('你喜欢猫 — you like cats.') });
    const { response } = await client.chat.completions.create({ model: 'mock-model', user: 'li', messages: [{ role: 'user', content: '我喜欢什么动物？ Which animal do I like?' }] }).withResponse();
    expect(response.headers.get('x-engram-memory')).toBe('used');
    await proxy.idle();
    expect((await memory.workingWindow('li', response.headers.get('x-engram-session')!)).map((m) => m.content)).toEqual(['我喜欢什么动物？ Which animal do I like?', '你喜欢猫 — you like cats.']);
    expect(lines).toEqual([['warn', 'reinforcing the memories the reply used failed; the turn is recorded', expect.objectContaining({ code: 'MODEL_OUTPUT_INVALID', userId: 'li' })]]);
  });

  it('tells its activity each request is over: once its turn is recorded, or when answered without one', async () => {
    const log: string[] = [];
    let active = 0;
    const activity: Activity = {
      whenIdle: (task) => void setImmediate(task),
      begin() {
        active++;
        log.push('begin');
        let ended = false;
        return () => {
          if (ended) return;
          ended = true;
          active--;
          log.push('end');
        };
      },
    };
    const logged = { ...memory, context: memory.context.bind(memory), reportReply: memory.reportReply.bind(memory), appendMessages: (o: Parameters<MemoryEngine['appendMessages']>[0]) => memory.appendMessages(o).then((r) => (log.push('recorded'), r)) };
    const client = await start(logged, { activity });
    const settle = async (): Promise<string[]> => {
      await proxy.idle();
      await vi.waitFor(() => expect(active).toBe(0));
      return log.splice(0);
    };
    await client.chat.completions.create({ model: 'mock-model', user: 'li', messages: [{ role: 'user', content: '我喜欢什么动物？' }] });
    expect(await settle()).toEqual(['begin', 'recorded', 'end']);
    reply = () => ({ kind: 'stream', deltas: ['You ', 'love hiking.'] });
    const stream = await client.chat.completions.create({ model: 'mock-model', user: 'ann', stream: true, messages: [{ role: 'user', content: 'What do I love?' }] });
    for await (const chunk of stream) void chunk;
    expect(await settle()).toEqual(['begin', 'recorded', 'end']);
    // Answered without a turn: a malformed body, an upstream error.
    expect((await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: '{"messages":' })).status).toBe(400);
    expect(await settle()).toEqual(['begin', 'end']);
    reply = () => ({ kind: 'json', status: 500, body: { error: { message: '上游出错 upstream failed' } } });
    await expect(client.chat.completions.create({ model: 'mock-model', user: 'li', messages: [{ role: 'user', content: '你好 hello' }] })).rejects.toMatchObject({ status: 500 });
    expect(await settle()).toEqual(['begin', 'end']);
    // A client gone mid-stream: over once the user's turn is recorded.
    reply = () => ({ kind: 'stream', deltas: ['半句话 half'], hold: true });
    const abort = new AbortController();
    const res = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', signal: abort.signal, body: JSON.stringify({ model: 'm', user: 'li', stream: true, messages: [{ role: 'user', content: '讲个长故事 tell a long story' }] }) });
    await res.body!.getReader().read();
    expect(active).toBe(1);
    abort.abort();
    await vi.waitFor(() => expect(upstream.closedStreams).toBe(1));
    expect(await settle()).toEqual(['begin', 'recorded', 'end']);
  });
});

describe('what a page elsewhere or a chatty model server must not get', () => {
  it('the upstream key echoed by the model server (an error quoting the header) is redacted (zh, en)', async () => {
    const client = await start();
    for (const message of ['密钥 Bearer upstream-secret 无效', 'Incorrect API key provided: upstream-secret']) {
      reply = () => ({ kind: 'json', status: 401, body: { error: { message, type: 'invalid_request_error', code: 'invalid_api_key' } }, headers: { 'x-debug-auth': 'Bearer upstream-secret' } });
      const error = await client.chat.completions.create({ model: 'mock-model', user: 'li', messages: [{ role: 'user', content: message }] }).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 401 });
      expect(JSON.stringify(error)).not.toContain('upstream-secret');
      expect(JSON.stringify(error)).toContain('[redacted]');
      const embeddings = await fetch(`${server.url}/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'e', input: message }) });
      expect(embeddings.status).toBe(401);
      expect(embeddings.headers.get('x-debug-auth')).toBe('Bearer [redacted]');
      expect(await embeddings.text()).not.toContain('upstream-secret');
    }
  });
});
