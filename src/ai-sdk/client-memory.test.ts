import { generateText, simulateReadableStream, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import { testApp, type TestApp } from '../server/test-app.js';
import { engramMemory } from './engram-memory.js';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
const stop = { unified: 'stop' as const, raw: 'stop' };

let t: TestApp;
beforeEach(async () => {
  t = testApp();
  await t.memory.add({ userId: '李明', kind: 'preference', content: '用户喜欢猫' });
  await t.memory.add({ userId: 'ann', kind: 'fact', content: 'Ann is allergic to peanuts' });
});
afterEach(() => t.memory.close());

// The typed HTTP client, talking to the app through its request function (no port needed).
const client = () => createClient({ baseUrl: 'http://engram.test', fetch: (input, init) => Promise.resolve(t.app.request(String(input), init)) });

describe('engramMemory with the HTTP client', () => {
  it('builds the context and records both turns over the API (Chinese, generateText)', async () => {
    const model = new MockLanguageModelV3({ doGenerate: { content: [{ type: 'text', text: '可以买猫爬架。' }], finishReason: stop, usage, warnings: [] } });
    const middleware = engramMemory({ client: client(), userId: '李明', sessionId: 'web-1' });
    await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: '我喜欢猫吗？' });
    const system = model.doGenerateCalls[0]!.prompt[0]!;
    expect(system.role).toBe('system');
    expect(system.role === 'system' ? system.content : '').toContain('用户喜欢猫');
    await middleware.idle();
    expect((await t.memory.workingWindow('李明', 'web-1')).map((m) => [m.role, m.content])).toEqual([['user', '我喜欢猫吗？'], ['assistant', '可以买猫爬架。']]);
  });

  it('records a streamed reply over the API (English, streamText)', async () => {
    const model = new MockLanguageModelV3({
      doStream: {
        stream: simulateReadableStream({
          chunks: [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Avoid ' }, { type: 'text-delta', id: 't', delta: 'peanuts.' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: stop, usage }],
        }),
      },
    });
    const middleware = engramMemory({ client: client(), userId: 'ann', sessionId: 'web-2' });
    const result = streamText({ model: wrapLanguageModel({ model, middleware }), prompt: 'Am I allergic to peanuts?' });
    expect(await result.text).toBe('Avoid peanuts.');
    const system = model.doStreamCalls[0]!.prompt[0]!;
    expect(system.role === 'system' ? system.content : '').toContain('Ann is allergic to peanuts');
    expect(system.role === 'system' ? system.content : '').not.toContain('猫');
    await middleware.idle();
    expect((await t.memory.workingWindow('ann', 'web-2')).map((m) => m.content)).toEqual(['Am I allergic to peanuts?', 'Avoid peanuts.']);
  });

  it.each([
    ['zh', '李明', '我喜欢猫吗？', '你喜欢猫，可以养一只猫。', '用户喜欢猫'],
    ['en', 'ann', 'Am I allergic to peanuts?', 'Avoid peanuts: you are allergic to peanuts.', 'Ann is allergic to peanuts'],
  ])('%s: reinforces the memory the reply used, over POST /replies (issue 9)', async (_, userId, prompt, reply, content) => {
    const before = (await t.memory.list({ userId }))[0]!;
    expect(before.content).toBe(content);
    const model = new MockLanguageModelV3({ doGenerate: { content: [{ type: 'text', text: reply }], finishReason: stop, usage, warnings: [] } });
    const middleware = engramMemory({ client: client(), userId, sessionId: 'web-3' });
    await generateText({ model: wrapLanguageModel({ model, middleware }), prompt });
    await middleware.idle();
    const after = await t.memory.get(userId, before.id);
    expect(after.importance).toBeGreaterThan(before.importance);
    expect((await t.memory.history(userId, before.id)).map((h) => h.action)).toContain('reinforce');
  });
});
