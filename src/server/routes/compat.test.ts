import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../../testing/closes-after-each.js';
import { testApp } from '../test-app.js';

const make = closesAfterEach((o: Parameters<typeof testApp>[0] = {}) => testApp(o), (t) => t.memory.close());
const usage = { inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 3, text: 3, reasoning: undefined } };
const U = { 'x-engram-user': 'li-ming' };

function chatModel(text: string) {
  const seen: string[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (o) => {
      seen.push(JSON.stringify(o.prompt));
      return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
    doStream: async (o) => {
      seen.push(JSON.stringify(o.prompt));
      const parts = [...text].map((ch) => ({ type: 'text-delta' as const, id: 't', delta: ch }));
      return {
        stream: simulateReadableStream({ chunks: [{ type: 'text-start' as const, id: 't' }, ...parts, { type: 'text-end' as const, id: 't' }, { type: 'finish' as const, finishReason: { unified: 'stop' as const, raw: 'stop' }, usage }] }),
      };
    },
  });
  return { model, seen };
}

describe('seed-shaped compatibility routes', () => {
  it('seed 002 settings with its own keys, per user', async () => {
    const t = make();
    expect((await t.json('/api/settings', { headers: U })).body).toEqual({ memory_silent_minutes: 2, memory_extraction_enabled: true, memory_context_messages: 6 });
    const put = await t.json('/api/settings', { method: 'PUT', headers: U, body: { memory_extraction_enabled: false, memory_silent_minutes: 5 } });
    expect(put.body).toEqual({ memory_silent_minutes: 5, memory_extraction_enabled: false, memory_context_messages: 6 });
    expect((await t.memory.getSettings('li-ming')).extractionEnabled).toBe(false);
    expect((await t.memory.getSettings('alice')).extractionEnabled).toBe(true);
    expect((await t.json('/api/settings', { method: 'PUT', headers: U, body: { silentMinutes: 5 } })).status).toBe(400);
    const noUser = await t.json('/api/settings');
    expect(noUser.status).toBe(400);
    expect(noUser.body.error?.message).toMatch(/X-Engram-User/);
  });

  it('seed 000 list and delete, seed 002 extract-memories (Chinese and English)', async () => {
    const t = make();
    await t.json('/api/topics/topic-1/messages', { headers: U, body: { content: '我叫李明，我喜欢猫' } });
    await t.json('/api/topics/topic-1/messages', { headers: U, body: { content: 'I am allergic to peanuts' } });
    const r = await t.json('/api/topics/topic-1/extract-memories', { method: 'POST', headers: U });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'applied' });
    for (const k of ['added', 'updated', 'skipped', 'reason']) expect(r.body).toHaveProperty(k);
    const list = await t.json('/api/v1/memories', { headers: U });
    const items = list.body as unknown as Array<{ id: string; content: string; userId: string }>;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((m) => m.userId === 'li-ming')).toBe(true);
    expect(items.map((m) => m.content).join(' ')).toMatch(/猫/);
    const del = await t.json(`/api/v1/memories/${items[0]!.id}`, { method: 'DELETE', headers: U });
    expect(del.body).toEqual({ id: items[0]!.id, status: 'deleted' });
    expect((await t.json('/api/v1/memories', { headers: U })).body).toHaveLength(items.length - 1);
  });

  it('without a model, a topic message is stored and the answer says no model is configured', async () => {
    const t = make();
    const r = await t.json('/api/topics/t1/messages', { headers: U, body: { content: '你好，我下周去东京' } });
    expect(r.body).toMatchObject({ stored: true, reply: null });
    expect(String(r.body.note)).toMatch(/No language model/);
    expect(await t.memory.workingWindow('li-ming', 't1')).toHaveLength(1);
    const s = await t.app.request('/api/topics/t1/messages/stream', { method: 'POST', headers: { ...U, 'content-type': 'application/json' }, body: JSON.stringify({ content: 'hello' }) });
    expect(await s.text()).toContain('event: done');
  });

  it('with a model, the reply has the memory context in its system prompt and both turns are stored; /stream streams it', async () => {
    const { model, seen } = chatModel('推荐猫爬架。');
    const t = make({ chat: model });
    await t.memory.add({ userId: 'li-ming', content: '用户喜欢猫', kind: 'preference' });
    const r = await t.json('/api/topics/t1/messages', { headers: U, body: { content: '我喜欢猫，推荐一些猫的用品' } });
    expect(r.body).toMatchObject({ stored: true, reply: '推荐猫爬架。' });
    expect(seen[0]).toContain('用户喜欢猫');
    expect((await t.memory.workingWindow('li-ming', 't1')).map((m) => m.role)).toEqual(['user', 'assistant']);

    const s = await t.app.request('/api/topics/t1/messages/stream', { method: 'POST', headers: { ...U, 'content-type': 'application/json' }, body: JSON.stringify({ content: 'Any cat toys? 猫' }) });
    const text = await s.text();
    expect(s.headers.get('content-type')).toContain('text/event-stream');
    expect(text.match(/event: token/g)?.length).toBe([...'推荐猫爬架。'].length);
    expect(text).toContain('"reply":"推荐猫爬架。"');
    expect(await t.memory.workingWindow('li-ming', 't1')).toHaveLength(4);
  });
});
