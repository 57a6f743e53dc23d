import { afterEach, describe, expect, it } from 'vitest';
import { scriptedModel } from '../testing/scripted-model.js';
import { testMemory } from '../testing/test-memory.js';
import { FORGOTTEN_MEANWHILE } from './forget-guard.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});

/**
 * A model whose answer to one prompt waits until the test releases it (a slow call in flight);
 * other prompts answer at once from `others`.
 */
function slowOn(promptId: string, answer: (input: unknown) => unknown, others: Record<string, (input: unknown) => unknown> = {}) {
  let called!: () => void;
  let release!: () => void;
  const inFlight = new Promise<void>((r) => (called = r));
  const released = new Promise<void>((r) => (release = r));
  const model = scriptedModel(async (id, input) => {
    if (id === promptId) {
      called();
      await released;
      return answer(input);
    }
    const other = others[id];
    if (!other) throw new Error(`unexpected prompt ${id}`);
    return other(input);
  });
  const memory = testMemory({ model });
  engines.push(memory);
  return { memory, inFlight, release };
}

const episode = (summary: string, topic: string) => () => ({ summary, topics: [topic], userIntent: '', emotionalTone: '', keyFacts: [], unresolved: null });

async function chat(memory: ReturnType<typeof testMemory>, turns: string[]) {
  await memory.appendMessages({ messages: turns.map((content, i) => ({ userId: 'u', sessionId: 's', role: i % 2 === 0 ? ('user' as const) : ('assistant' as const), content })) });
}

describe('forgetting wins over episode summaries in flight (issue 14 item 2)', () => {
  it('zh: forget() during the summary call: no episode is written back', async () => {
    const { memory, inFlight, release } = slowOn('summarize-episode', episode('用户聊了银行卡密码123456', '密码'));
    await chat(memory, ['我的银行卡密码是123456', '好的，我记住了', '别告诉别人']);
    const summarizing = memory.summarize('u', 's');
    await inFlight;
    await memory.forget({ userId: 'u' });
    release();
    expect(await summarizing).toMatchObject({ status: 'skipped', reason: FORGOTTEN_MEANWHILE });
    expect(await memory.list({ userId: 'u', kinds: ['episode'], statuses: ['active', 'archived', 'deleted'] })).toEqual([]);
    expect(JSON.stringify(await memory.exportUser('u'))).not.toContain('123456');
  });

  it('en: forgetTopic() erasing the messages during the summary call: the summary quoting them is dropped', async () => {
    const { memory, inFlight, release } = slowOn('summarize-episode', episode('The user talked about quitting Acme', 'Acme'));
    await chat(memory, ['I am planning to quit my job at Acme', 'That is a big step', 'Please keep it quiet']);
    const summarizing = memory.summarize('u', 's');
    await inFlight;
    await memory.forgetTopic('u', 'Acme');
    release();
    expect(await summarizing).toMatchObject({ status: 'skipped', reason: FORGOTTEN_MEANWHILE });
    expect(await memory.list({ userId: 'u', kinds: ['episode'], statuses: ['active', 'archived', 'deleted'] })).toEqual([]);
  });
});

describe('forgetting wins over profile updates in flight (issue 14 item 2)', () => {
  const profile = (narrative: string) => () => ({ narrative, basicInfo: {}, changes: 'first' });

  it('zh: forget() during the profile call: no profile version comes back', async () => {
    const { memory, inFlight, release } = slowOn('update-profile', profile('用户住在北京，银行卡密码是123456。'));
    await memory.add({ userId: 'u', kind: 'identity', content: '用户住在北京', importance: 0.9 });
    const updating = memory.updateProfile('u', { force: true });
    await inFlight;
    await memory.forget({ userId: 'u' });
    release();
    expect(await updating).toMatchObject({ status: 'unchanged', profile: null, reason: FORGOTTEN_MEANWHILE });
    expect(await memory.profileVersions('u')).toEqual([]);
  });

  it('en: purge() of a memory during the profile call: the narrative that restates it is dropped', async () => {
    const { memory, inFlight, release } = slowOn('update-profile', profile('The user lives in Berlin and is seeing a therapist.'));
    await memory.add({ userId: 'u', kind: 'identity', content: 'The user lives in Berlin', importance: 0.9 });
    const secret = await memory.add({ userId: 'u', kind: 'fact', content: 'The user is seeing a therapist', importance: 0.8 });
    const updating = memory.updateProfile('u', { force: true });
    await inFlight;
    await memory.purge('u', secret.id);
    release();
    expect(await updating).toMatchObject({ status: 'unchanged', reason: FORGOTTEN_MEANWHILE });
    expect(await memory.profile('u')).toBeNull();
  });
});

describe('forgetting wins over compression and review in flight (issue 14 item 2)', () => {
  it.each([
    ['zh', ['用户喜欢拉面', '用户喜欢寿司', '用户喜欢天妇罗'], '用户喜欢日式料理：拉面、寿司和天妇罗'],
    ['en', ['The user likes ramen', 'The user likes sushi', 'The user likes tempura'], 'The user likes Japanese food: ramen, sushi and tempura'],
  ])('%s: forget() during the compression call: the merged memory is not written back', async (_, foods, merged) => {
    const { memory, inFlight, release } = slowOn('compress-memories', (input) => ({
      memories: [{ content: merged, importance: 0.6, sources: (input as { memories: Array<{ alias: string }> }).memories.map((m) => m.alias) }],
    }));
    for (const f of foods) await memory.add({ userId: 'u', kind: 'preference', content: f, importance: 0.7 });
    memory.clock.advanceDays(91);
    const compressing = memory.compress('u');
    await inFlight;
    await memory.forget({ userId: 'u' });
    release();
    expect(await compressing).toEqual([]);
    expect(await memory.list({ userId: 'u', statuses: ['active', 'archived', 'deleted'] })).toEqual([]);
  });

  it.each([
    ['zh', '用户的生日是五月一日', '用户在看心理医生'],
    ['en', 'The birthday of the user is May 1st', 'The user is seeing a therapist'],
  ])('%s: purge() during a review call: the review writes nothing', async (_, birthday, secret) => {
    const { memory, inFlight, release } = slowOn('review-memory', () => ({ decision: 'promote', reason: 'stable fact' }));
    const b = await memory.add({ userId: 'u', kind: 'identity', content: birthday, importance: 0.9 });
    const s = await memory.add({ userId: 'u', kind: 'fact', content: secret, importance: 0.3 });
    const lifecycle = memory.runLifecycle({ userId: 'u' });
    await inFlight;
    await memory.purge('u', s.id);
    release();
    const report = await lifecycle;
    expect(report.reviews).toMatchObject([{ memoryId: b.id, decision: 'keep', reason: FORGOTTEN_MEANWHILE, dropped: true }]);
    expect(await memory.get('u', b.id)).toMatchObject({ core: false, importance: 0.9 });
  });
});
