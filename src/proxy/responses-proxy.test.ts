import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../deps.js';
import { EngramError } from '../errors.js';
import type { MemoryEngine } from '../memory-engine.js';
import { createChatProxy, type ChatProxy } from './chat-proxy.js';
import { responseObject, startMockUpstream, type MockReply, type MockUpstream, type RecordedRequest } from './mock-upstream.js';
import { injectInstructions, responsesUserTurn, responseText } from './responses-request.js';
import { memoryOfLiAndAnn, recordingLogger, serveProxy } from './proxy-test-kit.js';
import { createResponsesSseReply } from './sse-reply.js';

/** What the model server received: the Responses body as the proxy forwarded it. */
type Sent = { model: string; instructions?: string | null; input?: unknown; tools?: unknown; previous_response_id?: string; user?: string; stream?: boolean };
const sent = (r: RecordedRequest | undefined): Sent => r?.body as Sent;

let memory: MemoryEngine & { clock: { now(): Date } };
let upstream: MockUpstream;
let proxy: ChatProxy;
let server: { url: string; close(): Promise<void> };
let reply: (r: RecordedRequest) => MockReply;

async function start(engine: Parameters<typeof createChatProxy>[0]['memory'] = memory, extra: { logger?: Logger } = {}): Promise<OpenAI> {
  let client: OpenAI;
  ({ proxy, server, client } = await serveProxy({ memory: engine, upstream: { baseURL: upstream.baseURL, apiKey: 'upstream-secret' }, clock: memory.clock, ...extra }));
  return client;
}

const turns = async (userId: string, sessionId = 'chat-2026-01-01'): Promise<Array<[string, string]>> => {
  await proxy.idle();
  return (await memory.workingWindow(userId, sessionId)).map((m) => [m.role, m.content]);
};

describe('the Responses API through the proxy, with the official openai client', () => {
  beforeEach(async () => {
    memory = await memoryOfLiAndAnn();
    reply = () => ({ kind: 'json', body: responseObject('好的') });
    upstream = await startMockUpstream((r) => reply(r));
  });

  afterEach(async () => {
    await server?.close();
    await upstream.close();
    await memory.close();
  });

  it('appends the memories to the instructions, leaves the input alone, records both turns (Chinese)', async () => {
    const client = await start();
    reply = () => ({ kind: 'json', body: responseObject('你喜欢猫，可以买猫粮和猫砂。') });
    const { data, response } = await client.responses.create({ model: 'mock-model', user: 'li', instructions: '你是一个助手。', input: '我喜欢什么动物？' }).withResponse();
    expect(data.output_text).toBe('你喜欢猫，可以买猫粮和猫砂。');
    expect(response.headers.get('x-engram-memory')).toBe('used');
    expect(Number(response.headers.get('x-engram-memories-used'))).toBeGreaterThan(0);
    expect(Number(response.headers.get('x-engram-context-tokens'))).toBeGreaterThan(0);

    expect(upstream.requests[0]!.path).toBe('/v1/responses');
    const got = sent(upstream.requests[0]);
    expect(got.instructions!.startsWith('你是一个助手。\n\n')).toBe(true);
    expect(got.instructions).toContain('用户喜欢猫');
    expect(got.input).toBe('我喜欢什么动物？');
    expect(upstream.requests[0]!.headers.authorization).toBe('Bearer upstream-secret');

    expect(await turns('li')).toEqual([['user', '我喜欢什么动物？'], ['assistant', '你喜欢猫，可以买猫粮和猫砂。']]);
    const [cat] = await memory.list({ userId: 'li' });
    expect((await memory.history('li', cat!.id)).map((e) => e.action)).toContain('reinforce');
  });

  it('sets instructions when there are none, reads the last user message of an input list, and takes the user and session from headers (English)', async () => {
    const client = await start();
    const input = [
      { role: 'user' as const, content: 'Hi there' },
      { role: 'assistant' as const, content: 'Hello! How can I help?' },
      { role: 'user' as const, content: [{ type: 'input_text' as const, text: 'Any hiking ideas for me?' }, { type: 'input_image' as const, image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' as const }] },
    ];
    await client.responses.create({ model: 'mock-model', input }, { headers: { 'X-Engram-User': 'ann', 'X-Engram-Session': 'trip-1' } });
    const got = sent(upstream.requests[0]);
    expect(got.instructions).toContain('Ann loves hiking in the Alps');
    expect(got.instructions).not.toContain('猫');
    expect(got.input).toEqual(input);
    expect(await turns('ann', 'trip-1')).toEqual([['user', 'Any hiking ideas for me?'], ['assistant', '好的']]);
  });

  it('passes a stream through event by event and records the finished reply (English and Chinese)', async () => {
    const client = await start();
    reply = () => ({ kind: 'stream', deltas: ['You ', 'love ', 'hiking', ' in the Alps.'] });
    const stream = await client.responses.create({ model: 'mock-model', user: 'ann', stream: true, input: 'What do I love?' });
    const types: string[] = [];
    const deltas: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') deltas.push(event.delta);
    }
    expect(deltas).toEqual(['You ', 'love ', 'hiking', ' in the Alps.']);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(sent(upstream.requests[0]).stream).toBe(true);
    expect(await turns('ann')).toEqual([['user', 'What do I love?'], ['assistant', 'You love hiking in the Alps.']]);

    // The SDK's stream helper assembles the same reply from the same events.
    reply = () => ({ kind: 'stream', deltas: ['你', '喜欢', '猫。'] });
    const helper = client.responses.stream({ model: 'mock-model', user: 'li', input: '我喜欢什么？' });
    expect((await helper.finalResponse()).output_text).toBe('你喜欢猫。');
    expect(sent(upstream.requests[1]).instructions).toContain('用户喜欢猫');
    expect(await turns('li')).toEqual([['user', '我喜欢什么？'], ['assistant', '你喜欢猫。']]);
  });

  it('never touches tools or tool items; a tool-output follow-up takes its memory from the question it still answers', async () => {
    const client = await start();
    await memory.add({ userId: 'li', kind: 'plan', content: '用户下周去大阪出差' });
    const tools = [{ type: 'function' as const, name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false }];
    const call = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'weather', arguments: '{"city":"大阪"}', status: 'completed' };
    reply = () => ({ kind: 'json', body: { ...responseObject(null, { output: [call] }), id: 'resp_1' } });
    const first = await client.responses.create({ model: 'mock-model', user: 'li', tools, input: '我出差那边天气怎么样？' });
    expect(first.output[0]).toMatchObject({ type: 'function_call', name: 'weather' });
    expect(first.output_text).toBe('');
    expect(sent(upstream.requests[0]).instructions).toContain('用户下周去大阪出差');
    expect(sent(upstream.requests[0]).tools).toEqual(tools);
    // Tool calls only: the user's message is recorded, no empty assistant turn.
    expect(await turns('li')).toEqual([['user', '我出差那边天气怎么样？']]);

    reply = () => ({ kind: 'json', body: responseObject('大阪下周晴，20 度。') });
    const output = [{ type: 'function_call_output' as const, call_id: 'call_1', output: '晴，20 度' }];
    const second = await client.responses.create({ model: 'mock-model', user: 'li', tools, previous_response_id: 'resp_1', input: output });
    expect(second.output_text).toBe('大阪下周晴，20 度。');
    const got = sent(upstream.requests[1]);
    expect(got.input).toEqual(output);
    expect(got.previous_response_id).toBe('resp_1');
    // A continued response does not inherit instructions: the memory for the question comes again.
    expect(got.instructions).toContain('用户下周去大阪出差');
    expect(await turns('li')).toEqual([['user', '我出差那边天气怎么样？'], ['assistant', '大阪下周晴，20 度。']]);
  });

  it('records "yes" said twice in one thread as two messages, and a retried request once', async () => {
    const client = await start();
    await client.responses.create({ model: 'mock-model', user: 'ann', input: 'Shall we plan a hike? 要不要去徒步？' });
    await client.responses.create({ model: 'mock-model', user: 'ann', previous_response_id: 'resp_a', input: 'yes' });
    await client.responses.create({ model: 'mock-model', user: 'ann', previous_response_id: 'resp_a', input: 'yes' });
    await client.responses.create({ model: 'mock-model', user: 'ann', previous_response_id: 'resp_b', input: 'yes' });
    const said = (await turns('ann')).filter(([role]) => role === 'user').map(([, content]) => content);
    expect(said).toEqual(['Shall we plan a hike? 要不要去徒步？', 'yes', 'yes']);
  });

  it.each([
    [429, { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }],
    [500, { error: { message: 'The server had an error 服务器错误', type: 'server_error', code: null } }],
  ])('passes an upstream %i through unchanged and records nothing', async (status, body) => {
    const client = await start();
    reply = () => ({ kind: 'json', status, body, headers: { 'retry-after': '7' } });
    const error = await client.responses.create({ model: 'mock-model', user: 'li', input: '你好 hello' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(status);
    expect(apiError.error).toEqual(body.error);
    expect(apiError.headers?.get('retry-after')).toBe('7');
    expect(await turns('li')).toEqual([]);
  });

  it('refuses a request without a user or with a malformed body, and forwards nothing', async () => {
    const client = await start();
    const noUser = await client.responses.create({ model: 'mock-model', input: '你好' }).catch((e: unknown) => e);
    expect((noUser as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect((noUser as InstanceType<typeof OpenAI.APIError>).message).toContain('No user');
    const bad = await fetch(`${server.url}/v1/responses`, { method: 'POST', body: JSON.stringify({ model: 'm', user: 'ann', input: 42 }) });
    expect(bad.status).toBe(400);
    const error = ((await bad.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('Invalid responses request: input');
    expect(upstream.requests).toHaveLength(0);
  });

  it("forwards without memory and says so when Engram's own part fails", async () => {
    const broken = { context: () => Promise.reject(new EngramError('STORE_FAILED', 'disk gone')), appendMessages: memory.appendMessages.bind(memory) };
    const client = await start(broken);
    const { data, response } = await client.responses.create({ model: 'mock-model', user: 'ann', instructions: 'Be brief.', input: 'What do I love?' }).withResponse();
    expect(data.output_text).toBe('好的');
    expect(response.headers.get('x-engram-memory')).toBe('unavailable');
    expect(sent(upstream.requests[0]).instructions).toBe('Be brief.');
  });

  it.each([
    ['li', '讲个故事', '半句'],
    ['ann', 'tell a story', 'half a'],
  ])('%s: a model server that breaks off mid-stream: the client gets the Responses API\'s error event, only the user turn is recorded', async (userId, ask, half) => {
    const logger = recordingLogger();
    const encoder = new TextEncoder();
    const delta = `event: response.output_text.delta\ndata: ${JSON.stringify({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: half, sequence_number: 1 })}\n\n`;
    const resetting = (): Promise<Response> =>
      Promise.resolve(new Response(new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(encoder.encode(delta)), pull: (c) => c.error(new Error('read ECONNRESET')) }), { headers: { 'content-type': 'text/event-stream' } }));
    ({ proxy, server } = await serveProxy({ memory, upstream: { baseURL: upstream.baseURL }, clock: memory.clock, logger, fetch: resetting }));
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const stream = await client.responses.create({ model: 'm', user: userId, stream: true, input: ask });
    const events: Array<{ type: string; code?: string | null }> = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.type)).toEqual(['response.output_text.delta', 'error']);
    expect(events[1]).toMatchObject({ type: 'error', code: 'UPSTREAM_FAILED' });
    await proxy.idle();
    expect(logger.lines.map(([level, message]) => [level, message])).toEqual([['warn', 'upstream stream failed mid-reply; the partial reply is dropped']]);
    expect(await turns(userId)).toEqual([['user', ask]]);
  });

  it('keeps going when the client disconnects mid-stream: the user message is recorded, the partial reply dropped, the client\'s going logged as such (zh, en)', async () => {
    const logger = recordingLogger();
    const client = await start(memory, { logger });
    for (const [i, [userId, ask, half]] of ([['li', '讲个长故事', '从前有'], ['ann', 'Tell me a long story', 'Once upon']] as const).entries()) {
      reply = () => ({ kind: 'stream', deltas: [half], hold: true });
      const abort = new AbortController();
      const stream = await client.responses.create({ model: 'm', user: userId, stream: true, input: ask }, { signal: abort.signal });
      const deltas: string[] = [];
      // The client ends its iteration quietly on its own abort.
      for await (const event of stream) if (event.type === 'response.output_text.delta' && deltas.push(event.delta) === 1) abort.abort();
      expect(deltas).toEqual([half]);
      await vi.waitFor(() => expect(logger.lines.filter(([, message]) => message.startsWith('client disconnected'))).toHaveLength(i + 1));
      expect(await turns(userId)).toEqual([['user', ask]]);
    }
    await vi.waitFor(() => expect(upstream.closedStreams).toBe(2));
    expect(logger.lines.filter(([level]) => level !== 'debug').map(([level, message]) => [level, message])).toEqual([
      ['info', 'client disconnected mid-stream; the upstream call is cancelled and the partial reply dropped'],
      ['info', 'client disconnected mid-stream; the upstream call is cancelled and the partial reply dropped'],
    ]);
    reply = () => ({ kind: 'json', body: responseObject('still here') });
    const next = await fetch(`${server.url}/v1/responses`, { method: 'POST', body: JSON.stringify({ model: 'm', user: 'li', input: 'hello again' }) });
    expect(next.status).toBe(200);
  });

  it('does not read, cancel or delete stored responses for anyone, and says why (zh/en users alike)', async () => {
    const client = await start();
    for (const call of [() => client.responses.retrieve('resp_abc'), () => client.responses.delete('resp_abc'), () => client.responses.cancel('resp_abc'), () => client.responses.inputItems.list('resp_abc')]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(404);
      expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain('Stored responses are not proxied');
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it("never puts one user's memories into another's instructions", async () => {
    const client = await start();
    for (const user of ['ann', 'li']) await client.responses.create({ model: 'mock-model', user, input: '我喜欢猫吗？ Do I love hiking in the Alps?' });
    expect(sent(upstream.requests[0]).instructions).toContain('Ann loves hiking');
    expect(sent(upstream.requests[0]).instructions).not.toContain('猫');
    expect(sent(upstream.requests[1]).instructions).toContain('用户喜欢猫');
    expect(sent(upstream.requests[1]).instructions).not.toContain('Alps');
  });
});

describe('reading the Responses API', () => {
  const event = (data: Record<string, unknown>): Uint8Array => new TextEncoder().encode(`event: ${String(data['type'])}\ndata: ${JSON.stringify(data)}\n\n`);
  const delta = (text: string) => event({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: text });

  it('assembles a streamed reply from its deltas, and takes the finished response as the last word', () => {
    const sse = createResponsesSseReply();
    sse.push(delta('你喜'));
    sse.push(delta('欢猫'));
    expect(sse.text()).toBe('你喜欢猫');
    sse.push(event({ type: 'response.completed', response: responseObject('你喜欢猫。You like cats.') }));
    sse.end();
    expect(sse.text()).toBe('你喜欢猫。You like cats.');
  });

  it('has no reply when the stream reports a failure, and keeps what the user saw when the model stopped at its limit', () => {
    const failed = createResponsesSseReply();
    failed.push(delta('Half a st'));
    failed.push(event({ type: 'response.failed', response: { ...responseObject('Half a st', { status: 'failed' }), error: { code: 'server_error', message: 'boom' } } }));
    failed.end();
    expect(failed.text()).toBe('');
    const cut = createResponsesSseReply();
    cut.push(delta('一个很长的故'));
    cut.push(event({ type: 'response.incomplete', response: responseObject('一个很长的故', { status: 'incomplete' }) }));
    cut.end();
    expect(cut.text()).toBe('一个很长的故');
  });

  it('joins the text of every assistant message as the SDKs do, and reads none from tool calls or other shapes', () => {
    const output = [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Part one. ' }, { type: 'refusal', refusal: 'no' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '第二部分。' }] },
    ];
    expect(responseText(responseObject(null, { output }))).toBe('Part one. 第二部分。');
    expect(responseText(responseObject(null, { output: [{ type: 'function_call', name: 'weather', arguments: '{}' }] }))).toBeUndefined();
    expect(responseText({ choices: [] })).toBeUndefined();
  });

  it('finds the user message a request answers, past tool outputs, and none in tool outputs alone', () => {
    expect(responsesUserTurn({ input: '我喜欢猫' })).toEqual({ text: '我喜欢猫', key: [null, null, '我喜欢猫'] });
    const input = [
      { role: 'user', content: [{ type: 'input_text', text: 'Weather in Kyoto?' }, { type: 'input_text', text: '京都' }] },
      { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: '晴' },
    ];
    expect(responsesUserTurn({ input, previous_response_id: 'resp_1' })).toEqual({ text: 'Weather in Kyoto?\n京都', key: ['resp_1', null, input.slice(0, 1)] });
    expect(responsesUserTurn({ input: input.slice(1), conversation: { id: 'conv_1' } })).toBeUndefined();
    expect(responsesUserTurn({})).toBeUndefined();
  });

  it('appends the block to the instructions, or sets them, and changes nothing when there is no block', () => {
    const block = '## 关于用户的记忆\n- "用户喜欢猫"';
    expect(injectInstructions({ instructions: 'Be brief.', input: 'hi' }, block)).toEqual({ instructions: `Be brief.\n\n${block}`, input: 'hi' });
    expect(injectInstructions({ instructions: null, input: 'hi' }, block).instructions).toBe(block);
    const body = { input: 'hi' };
    expect(injectInstructions(body, '')).toBe(body);
  });
});
