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
  });
});
