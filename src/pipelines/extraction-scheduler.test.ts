import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EngramError } from '../errors.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { fixedClock } from '../testing/clock.js';
import { testMemory } from '../testing/test-memory.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});
const make = (o: Parameters<typeof testMemory>[0] = {}) => {
  const e = testMemory(o);
  engines.push(e);
  return e;
};
const add = { operations: [{ op: 'add', kind: 'fact', content: 'The user has a fact' }], reason: 'ok' };

let said = 0;
async function say(memory: ReturnType<typeof testMemory>, sessionId: string, count: number, text = (i: number) => `I visited museum number ${i}`) {
  const base = memory.clock.now().getTime();
  await memory.appendMessages({ messages: Array.from({ length: count }, (_, i) => ({ id: `${sessionId}-${++said}`, userId: 'u', sessionId, role: 'user' as const, content: text(i), createdAt: new Date(base + i) })) });
}

describe('extraction triggers', () => {
  it('silence: a session is extracted once it has been quiet for silentMinutes (per-user setting)', async () => {
    const model = scriptedModel(() => add);
    const memory = make({ model });
    await memory.setSettings('*', { silentMinutes: 5 });
    await memory.setSettings('u', { silentMinutes: 2 });
    await say(memory, 's', 2);
    expect(await memory.tick()).toEqual([]);
    memory.clock.advance(90_000);
    expect(await memory.tick()).toEqual([]);
    memory.clock.advance(60_000);
    expect((await memory.tick()).map((r) => r.status)).toEqual(['applied']);
    expect(model.calls).toHaveLength(1);
    memory.clock.advance(600_000);
    expect(await memory.tick()).toEqual([]); // nothing new: no second call
    expect(model.calls).toHaveLength(1);
  });

  it('overflow: 30 unprocessed messages trigger extraction without waiting for silence, in the background', async () => {
    const model = scriptedModel(() => add);
    const memory = make({ model });
    await say(memory, 's', 29);
    await memory.idle();
    expect(model.calls).toHaveLength(0);
    await say(memory, 's', 1, () => '最后一条消息');
    await memory.idle();
    expect(model.calls).toHaveLength(1);
    expect((model.calls[0]!.input as { messages: unknown[] }).messages).toHaveLength(30);
  });

  it.each([
    { language: 'zh', text: (i: number) => `我今天去了第${i}个博物馆` },
    { language: 'en', text: (i: number) => `I visited museum number ${i}` },
  ])('overflow after a failed attempt: later messages wait for the retry instead of calling the model again ($language)', async ({ text }) => {
    let fail = true;
    const model = scriptedModel(() => (fail ? new EngramError('MODEL_TIMEOUT', 'model timed out') : add));
    const memory = make({ model, extraction: { retryBaseMs: 60_000, maxFailures: 5 } });
    await say(memory, 's', 30, text);
    await memory.idle();
    expect(model.calls).toHaveLength(1);
    for (let i = 0; i < 5; i++) await say(memory, 's', 1, text);
    await memory.idle();
    expect(model.calls).toHaveLength(1);
    expect(await memory.getSession('u', 's')).toMatchObject({ failures: 1, extractionState: 'retrying' });
    memory.clock.advance(61_000);
    fail = false;
    await say(memory, 's', 1, text);
    await memory.idle();
    expect(model.calls).toHaveLength(2);
    expect(await memory.getSession('u', 's')).toMatchObject({ failures: 0, extractionState: 'ok' });
  });

  it('a background extraction and a scheduler pass never extract the same batch twice', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const model = scriptedModel(async () => {
      await gate;
      return add;
    });
    const memory = make({ model });
    await say(memory, 's', 30);
    memory.clock.advance(10 * 60_000);
    const pass = memory.tick();
    release();
    await pass;
    await memory.idle();
    expect(model.callsFor('extract-memories')).toHaveLength(1);
    expect(await memory.list({ userId: 'u', kinds: ['fact'] })).toHaveLength(1);
  });

  it('session end triggers extraction; disabled extraction does nothing until asked by hand', async () => {
    const model = scriptedModel(() => add);
    const memory = make({ model });
    await say(memory, 'a', 2);
    await memory.endSession('u', 'a');
    await memory.idle();
    expect(model.calls).toHaveLength(1);
    await memory.setSettings('u', { extractionEnabled: false });
    await say(memory, 'b', 2);
    memory.clock.advanceDays(1);
    expect(await memory.tick()).toEqual([]);
    expect((await memory.extract('u', 'b')).status).toBe('applied');
  });

  it('rejects bad settings clearly', async () => {
    const memory = make();
    await expect(memory.setSettings('u', { silentMinutes: -1 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(memory.setSettings('u', { timeZone: 'Mars/Olympus' })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('Mars/Olympus') });
    await expect(memory.setSettings('u', { bogus: 1 } as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(await memory.getSettings('u')).toMatchObject({ silentMinutes: 2, extractionEnabled: true, contextMessages: 6, overflowMessages: 30 });
  });

  it('one extraction per session at a time, also across processes sharing a store', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'engram-')), 'shared.db');
    const clock = fixedClock('2026-03-01T00:00:00Z');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = scriptedModel(async () => {
      await gate;
      return add;
    });
    const a = make({ path, clock, model: slow, workerId: 'A' });
    const b = make({ path, clock, model: scriptedModel(() => add), workerId: 'B' });
    await say(a, 's', 3);
    const first = a.extract('u', 's');
    await new Promise((r) => setTimeout(r, 50));
    expect(await b.extract('u', 's')).toMatchObject({ status: 'busy' });
    release();
    expect(await first).toMatchObject({ status: 'applied', added: 1 });
    expect(await b.extract('u', 's')).toMatchObject({ status: 'nothing' });
  });
});

describe('extraction without an LLM (heuristic)', () => {
  it('remembers explicit Chinese statements', async () => {
    const memory = make();
    await memory.appendMessages({ messages: [
      { id: '1', userId: 'u', sessionId: 's', role: 'user', content: '我叫李明，我喜欢猫' },
      { id: '2', userId: 'u', sessionId: 's', role: 'assistant', content: '你好李明！我也喜欢猫' },
    ] });
    expect(await memory.extract('u', 's')).toMatchObject({ status: 'applied', added: 2, extractor: 'heuristic' });
    expect((await memory.list({ userId: 'u', order: 'asc' })).map((m) => m.content).sort()).toEqual(['用户叫李明', '用户喜欢猫']);
    expect(memory.stats().extraction).toMatchObject({ heuristicRuns: 1, modelCalls: 0 });
  });

  it('remembers explicit English statements and turns a repeat into a reinforce', async () => {
    const memory = make();
    await memory.appendMessages({ messages: [{ id: '1', userId: 'u', sessionId: 's', role: 'user', content: 'My name is Alice and I love hiking' }] });
    await memory.extract('u', 's');
    await memory.appendMessages({ messages: [{ id: '2', userId: 'u', sessionId: 's', role: 'user', content: 'I love hiking' }] });
    expect(await memory.extract('u', 's')).toMatchObject({ added: 0, reinforced: 1 });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual(["The user loves hiking", "The user's name is Alice"].sort());
  });
});
