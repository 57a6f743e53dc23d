import { afterEach, describe, expect, it } from 'vitest';
import type { ExtractionResult } from '../domain/operations.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { testMemory } from '../testing/test-memory.js';
import { FORGOTTEN_WHILE_EXTRACTING } from './extract-session.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});

/** A model whose extraction answer waits until the test releases it: a slow call in flight. */
function slowModel(answer: ExtractionResult) {
  let called!: () => void;
  let release!: () => void;
  const inFlight = new Promise<void>((r) => (called = r));
  const released = new Promise<void>((r) => (release = r));
  const model = scriptedModel(async (promptId) => {
    if (promptId !== 'extract-memories') throw new Error(`unexpected prompt ${promptId}`);
    called();
    await released;
    return answer;
  });
  return { model, inFlight, release };
}

async function start(answer: ExtractionResult, text: string) {
  const slow = slowModel(answer);
  const memory = testMemory({ model: slow.model });
  engines.push(memory);
  await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: text }] });
  const extraction = memory.extract('u', 's');
  await slow.inFlight;
  return { memory, extraction, release: slow.release };
}

const add = (content: string, kind: 'preference' | 'fact' = 'preference'): ExtractionResult => ({ operations: [{ op: 'add', kind, content, importance: 0.7, confidence: 0.9 }], reason: 'new' });

describe('forgetting wins over an extraction in flight (issue 14 item 2)', () => {
  it('forget(): a slow model call that started before it applies nothing after it (Chinese)', async () => {
    const { memory, extraction, release } = await start(add('用户的银行卡密码是123456', 'fact'), '我的银行卡密码是123456');
    await memory.forget({ userId: 'u' });
    release();
    const report = await extraction;
    expect(report).toMatchObject({ status: 'skipped', added: 0, reason: FORGOTTEN_WHILE_EXTRACTING });
    expect(await memory.list({ userId: 'u', statuses: ['active', 'archived', 'deleted'] })).toEqual([]);
    expect((await memory.exportUser('u')).history).toEqual([]);
  });

  it('forgetTopic(): the batch is dropped and recorded as skipped, and not mined again (English)', async () => {
    const { memory, extraction, release } = await start(add('The user is planning to quit their job at Acme'), 'I am planning to quit my job at Acme');
    await memory.add({ userId: 'u', content: 'The user may quit Acme' });
    await memory.forgetTopic('u', 'Acme');
    release();
    expect(await extraction).toMatchObject({ status: 'skipped', added: 0 });
    expect(await memory.list({ userId: 'u' })).toEqual([]);
    const runs = await memory.extractionRuns('u', 's');
    expect(runs.at(-1)).toMatchObject({ outcome: 'skipped', reason: FORGOTTEN_WHILE_EXTRACTING });
    expect((await memory.getSession('u', 's')).processedSeq).toBe(0);
  });

  it('purge(): a memory purged during the call is not re-added by it (Chinese)', async () => {
    const slow = slowModel(add('用户喜欢猫'));
    const memory = testMemory({ model: slow.model });
    engines.push(memory);
    const cat = await memory.add({ userId: 'u', kind: 'preference', content: '用户很喜欢猫咪' });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: '我喜欢猫' }] });
    const extraction = memory.extract('u', 's');
    await slow.inFlight;
    await memory.purge('u', cat.id);
    slow.release();
    expect(await extraction).toMatchObject({ status: 'skipped', added: 0 });
    expect(await memory.list({ userId: 'u' })).toEqual([]);
  });

  it('an extraction with no forget in between still applies (control)', async () => {
    const { memory, extraction, release } = await start(add('The user likes jazz'), 'I like jazz');
    release();
    expect(await extraction).toMatchObject({ status: 'applied', added: 1 });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual(['The user likes jazz']);
  });
});
