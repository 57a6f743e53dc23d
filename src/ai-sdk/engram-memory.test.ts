import { generateText, simulateReadableStream, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngramError } from '../errors.js';
import type { MemoryEngine } from '../memory-engine.js';
import { testMemory } from '../testing/test-memory.js';
import { engramMemory } from './engram-memory.js';

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };
const stop = { unified: 'stop' as const, raw: 'stop' };

function generating(text: string): MockLanguageModelV3 {
  return new MockLanguageModelV3({ doGenerate: { content: [{ type: 'text', text }], finishReason: stop, usage, warnings: [] } });
}

function streaming(deltas: string[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: {
      stream: simulateReadableStream({
        chunks: [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't1' },
          ...deltas.map((delta) => ({ type: 'text-delta' as const, id: 't1', delta })),
          { type: 'text-end', id: 't1' },
          { type: 'finish', finishReason: stop, usage },
        ],
      }),
    },
  });
}

const systemOf = (model: MockLanguageModelV3, call = 0): string => {
  const calls = [...model.doGenerateCalls, ...model.doStreamCalls];
  const m = calls[call]?.prompt.find((p) => p.role === 'system');
  return m && m.role === 'system' ? m.content : '';
};

let memory: MemoryEngine;
beforeEach(async () => {
  memory = testMemory();
  await memory.add({ userId: 'li', kind: 'preference', content: '用户喜欢猫' });
  await memory.add({ userId: 'ann', kind: 'preference', content: 'Ann loves hiking in the Alps' });
});
afterEach(() => memory.close());

describe('engramMemory middleware', () => {
  it('puts the memories into the system prompt for generateText and records both turns (Chinese)', async () => {
    const model = generating('你喜欢猫，可以考虑猫爬架。');
    const middleware = engramMemory({ memory, userId: 'li', sessionId: 's1' });
    const { text } = await generateText({ model: wrapLanguageModel({ model, middleware }), system: '你是贴心的助手。', prompt: '我喜欢猫吗？' });
    expect(text).toBe('你喜欢猫，可以考虑猫爬架。');
    const system = systemOf(model);
    expect(system.startsWith('你是贴心的助手。\n\n')).toBe(true);
    expect(system).toContain('用户喜欢猫');
    const userMessage = model.doGenerateCalls[0]!.prompt.find((p) => p.role === 'user');
    expect(userMessage?.content).toEqual([{ type: 'text', text: '我喜欢猫吗？' }]);
    await middleware.idle();
    expect((await memory.workingWindow('li', 's1')).map((m) => [m.role, m.content])).toEqual([['user', '我喜欢猫吗？'], ['assistant', '你喜欢猫，可以考虑猫爬架。']]);
    const [cat] = await memory.list({ userId: 'li' });
    expect((await memory.history('li', cat!.id)).map((e) => e.action)).toContain('reinforce');
  });

  it('creates a system message for streamText and records the assembled streamed reply (English)', async () => {
    const model = streaming(['You ', 'love ', 'hiking ', 'in the Alps.']);
    const middleware = engramMemory({ memory, userId: 'ann', sessionId: 's2' });
    const result = streamText({ model: wrapLanguageModel({ model, middleware }), messages: [{ role: 'user', content: 'Do I love hiking?' }] });
    let streamed = '';
    for await (const d of result.textStream) streamed += d;
    expect(streamed).toBe('You love hiking in the Alps.');
    const prompt = model.doStreamCalls[0]!.prompt;
    expect(prompt.map((p) => p.role)).toEqual(['system', 'user']);
    expect(systemOf(model)).toContain('Ann loves hiking in the Alps');
    expect(systemOf(model)).not.toContain('猫');
    await middleware.idle();
    expect((await memory.workingWindow('ann', 's2')).map((m) => m.content)).toEqual(['Do I love hiking?', 'You love hiking in the Alps.']);
  });

  it('derives a daily session and leaves earlier turns and assistant messages alone', async () => {
    const model = generating('Noted.');
    const middleware = engramMemory({ memory, userId: 'ann', clock: { now: () => new Date('2026-03-05T10:00:00Z') } });
    const messages = [
      { role: 'user' as const, content: 'Hi' },
      { role: 'assistant' as const, content: 'Hello!' },
      { role: 'user' as const, content: 'Plan a hiking trip' },
    ];
    await generateText({ model: wrapLanguageModel({ model, middleware }), messages });
    expect(model.doGenerateCalls[0]!.prompt.filter((p) => p.role !== 'system').map((p) => p.role)).toEqual(['user', 'assistant', 'user']);
    await middleware.idle();
    expect((await memory.workingWindow('ann', 'chat-2026-03-05')).map((m) => m.content)).toEqual(['Plan a hiking trip', 'Noted.']);
  });

  it.each([
    ['li', '把我喜欢猫的事忘了吧', '好的。', '用户喜欢猫'],
    ['ann', "Please don't remember anything about hiking.", 'Sure.', 'Ann loves hiking'],
  ])('%s: a request to forget gets the notice, not the memories, and the topic is gone once the turn is recorded', async (userId, prompt, answer, memoryText) => {
    const model = generating(answer);
    const middleware = engramMemory({ memory, userId, sessionId: 's1' });
    await generateText({ model: wrapLanguageModel({ model, middleware }), prompt });
    expect(systemOf(model)).not.toContain(memoryText);
    await middleware.idle();
    expect(await memory.list({ userId })).toEqual([]);
    expect((await memory.workingWindow(userId, 's1')).map((m) => m.content)).toEqual([answer]);
  });

  /** A model whose stream sends `deltas` one by one and, as a provider does, errors when the call is aborted (or `failAfter` deltas). */
  function stoppable(deltas: string[], failAfter?: number): MockLanguageModelV3 {
    return new MockLanguageModelV3({
      doStream: async ({ abortSignal }) => ({
        stream: new ReadableStream({
          async start(controller) {
            const fail = (error: unknown): void => controller.error(error);
            abortSignal?.addEventListener('abort', () => fail(abortSignal.reason));
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't1' });
            for (const [i, delta] of deltas.entries()) {
              if (abortSignal?.aborted) return;
              if (i === failAfter) return fail(new Error('connection reset by the provider'));
              controller.enqueue({ type: 'text-delta', id: 't1', delta });
              await new Promise((resolve) => setTimeout(resolve, 5));
            }
            controller.enqueue({ type: 'text-end', id: 't1' });
            controller.enqueue({ type: 'finish', finishReason: stop, usage });
            controller.close();
          },
        }),
      }),
    });
  }

  it.each([
    ['li', '我刚领养了一只小猫，叫麻薯', ['你好', '，恭喜', '你！', '麻薯一定很可爱。']],
    ['ann', 'I just adopted a kitten named Mochi', ['Congrats ', 'on ', 'Mochi, ', 'she must be lovely.']],
  ])('%s: a streamed reply the app aborts keeps the user\'s message and drops the partial reply', async (userId, prompt, deltas) => {
    const middleware = engramMemory({ memory, userId, sessionId: 'aborted' });
    const abort = new AbortController();
    const result = streamText({ model: wrapLanguageModel({ model: stoppable(deltas), middleware }), prompt, abortSignal: abort.signal, onError: () => {} });
    let streamed = '';
    // The SDK may end the text stream quietly or throw the abort: either way the app stopped.
    await (async () => {
      for await (const d of result.textStream) {
        streamed += d;
        if (streamed.length >= 2) abort.abort();
      }
    })().catch((error: unknown) => expect(String(error)).toMatch(/abort/iu));
    await middleware.idle();
    expect(streamed.length).toBeLessThan(deltas.join('').length);
    expect((await memory.workingWindow(userId, 'aborted')).map((m) => [m.role, m.content])).toEqual([['user', prompt]]);
  });

  it.each([
    ['li', '我下个月要去杭州', ['好的，', '杭州', '很美。']],
    ['ann', 'I am moving to Lisbon next month', ['Lisbon ', 'is ', 'lovely.']],
  ])('%s: a model stream that fails midway keeps the user\'s message and drops the partial reply', async (userId, prompt, deltas) => {
    const middleware = engramMemory({ memory, userId, sessionId: 'failed' });
    const result = streamText({ model: wrapLanguageModel({ model: stoppable(deltas, 2), middleware }), prompt, onError: () => {} });
    await result.consumeStream({ onError: () => {} });
    await middleware.idle();
    expect((await memory.workingWindow(userId, 'failed')).map((m) => [m.role, m.content])).toEqual([['user', prompt]]);
  });

  it('a reader that cancels the stream keeps the user\'s message and drops the partial reply', async () => {
    const middleware = engramMemory({ memory, userId: 'ann', sessionId: 'cancelled' });
    const model = stoppable(['One ', 'two ', 'three.']);
    const params = await middleware.transformParams!({ type: 'stream', params: { prompt: [{ role: 'user', content: [{ type: 'text', text: 'Count to three' }] }] }, model });
    const { stream } = await middleware.wrapStream!({ doStream: () => model.doStream(params), doGenerate: () => model.doGenerate(params), params, model });
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel('the user pressed stop');
    await middleware.idle();
    expect((await memory.workingWindow('ann', 'cancelled')).map((m) => [m.role, m.content])).toEqual([['user', 'Count to three']]);
  });

  it('goes on without memory when Engram fails', async () => {
    const model = generating('好的');
    const failing = { context: () => Promise.reject(new EngramError('STORE_FAILED', 'disk gone')), appendMessages: memory.appendMessages.bind(memory), reportReply: memory.reportReply.bind(memory) };
    const middleware = engramMemory({ memory: failing, userId: 'li', sessionId: 's3' });
    const { text } = await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: '我喜欢猫吗？' });
    expect(text).toBe('好的');
    expect(model.doGenerateCalls[0]!.prompt.map((p) => p.role)).toEqual(['user']);
    await middleware.idle();
    expect(await memory.workingWindow('li', 's3')).toHaveLength(2);
  });

  it('refuses options without a user or an engine', () => {
    expect(() => engramMemory({ memory, userId: ' ' })).toThrow(/userId/);
    // An id no route accepts is refused here, not met on every turn as a memory that never works.
    expect(() => engramMemory({ memory, userId: '李\u0001明' })).toThrow(/control characters/);
    expect(() => engramMemory({ memory, userId: '*' })).toThrow(/reserved/);
    expect(() => engramMemory({ userId: 'li' })).toThrow(/memory/);
    // A session the HTTP API could not reach (every route takes at most 200 characters, no control characters).
    expect(() => engramMemory({ memory, userId: 'li', sessionId: 'a'.repeat(201) })).toThrow(/200 characters/);
    expect(() => engramMemory({ memory, userId: 'li', sessionId: '会话\u0000一' })).toThrow(/control characters/);
  });
});
