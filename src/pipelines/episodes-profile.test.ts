import { afterEach, describe, expect, it } from 'vitest';
import { EngramError } from '../errors.js';
import type { SummarizeEpisodeInput } from '../prompts/summarize-episode.js';
import type { UpdateProfileInput } from '../prompts/update-profile.js';
import { scriptedModel, type ScriptFunction } from '../testing/scripted-model.js';
import { testMemory } from '../testing/test-memory.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});

const extractNothing = { operations: [{ op: 'skip', reason: 'n/a' }], reason: 'n/a' };
function setup(script: ScriptFunction) {
  const model = scriptedModel(script);
  const memory = testMemory({ model });
  memory.clock.set('2026-03-02T10:00:00Z');
  engines.push(memory);
  let n = 0;
  const chat = async (sessionId: string, turns: string[]) => {
    await memory.appendMessages({
      messages: turns.map((content, i) => ({ id: `m${++n}`, userId: 'u', sessionId, role: i % 2 === 0 ? ('user' as const) : ('assistant' as const), content, createdAt: new Date(memory.clock.now().getTime() + i * 1000) })),
    });
  };
  return { model, memory, chat };
}

const summaryOf = (input: SummarizeEpisodeInput) => {
  const zh = input.language === 'zh';
  const first = input.messages[0]!.content;
  return {
    summary: zh ? `用户聊了${first.slice(0, 8)}` : `The user talked about ${first.slice(0, 20)}`,
    topics: zh ? ['工作'] : ['work'],
    userIntent: zh ? '倾诉' : 'to vent',
    emotionalTone: zh ? '焦虑' : 'anxious',
    keyFacts: [],
    unresolved: null,
  };
};

describe('episodes (seed 003 Layer 2)', () => {
  it('summarises a session at its end, searchable by "上次聊了什么" and by yesterday', async () => {
    const { memory, chat } = setup((id, input) => (id === 'summarize-episode' ? summaryOf(input as SummarizeEpisodeInput) : id === 'update-profile' ? { narrative: '用户是程序员。', basicInfo: {}, changes: '首次' } : extractNothing));
    await chat('s1', ['我最近在考虑换工作', '可以聊聊原因吗？', '主要是压力太大了']);
    await memory.endSession('u', 's1');
    await memory.idle();
    const [episode] = await memory.list({ userId: 'u', kinds: ['episode'] });
    expect(episode).toMatchObject({ content: '用户聊了我最近在考虑换工（话题：工作）', sessionId: 's1', happenedAt: new Date('2026-03-02T10:00:00Z') });
    expect(episode!.structuredData).toMatchObject({ emotionalTone: '焦虑', userIntent: '倾诉', fromSeq: 0, throughSeq: 2, messageCount: 3, summarizer: 'summarize-episode@3' });
    memory.clock.advanceDays(1);
    const latest = await memory.context({ userId: 'u', query: '上次聊了什么？' });
    expect(latest.text).toContain('### 最近的交流\n- 2026-03-02: "用户聊了我最近在考虑换工（话题：工作）"');
    const yesterday = await memory.context({ userId: 'u', query: 'what did we talk about yesterday?', language: 'en' });
    expect(yesterday.included.map((i) => i.type)).toContain('episode');
    expect(yesterday.text).toContain('### Recent conversations');
  });

  it.each([['zh', '用户聊了'], ['en', 'The user talked about ']])('%s: a summary past 8,000 characters is cut to the length a memory may have, marked', async (_lang, head) => {
    const { memory, chat } = setup((id, input) => (id === 'summarize-episode' ? { ...summaryOf(input as SummarizeEpisodeInput), summary: `${head}${'工作'.repeat(5_000)}` } : id === 'update-profile' ? { narrative: '用户是程序员。', basicInfo: {}, changes: '首次' } : extractNothing));
    await chat('s1', ['我最近在考虑换工作', '可以聊聊原因吗？', '主要是压力太大了']);
    await memory.endSession('u', 's1');
    await memory.idle();
    const [episode] = await memory.list({ userId: 'u', kinds: ['episode'] });
    expect(episode!.content.length).toBe(8_000);
    expect(episode!.content.endsWith('…')).toBe(true);
    const exported = await memory.exportUser('u');
    const other = testMemory();
    engines.push(other);
    await expect(other.importUser(exported, { userId: 'v' })).resolves.toBeDefined();
  });

  it('gives no episode to short or small-talk sessions (English)', async () => {
    const { model, memory, chat } = setup(() => extractNothing);
    await chat('short', ['hi', 'hello!']);
    expect(await memory.summarize('u', 'short')).toMatchObject({ status: 'skipped', reason: 'fewer than 3 messages' });
    await chat('talk', ['hi', 'hello', 'thanks!', 'you are welcome', 'lol']);
    expect(await memory.summarize('u', 'talk')).toMatchObject({ status: 'skipped', reason: 'small talk only' });
    expect(model.callsFor('summarize-episode')).toHaveLength(0);
  });

  it('stores a visible fallback when the model fails, and replaces it on retry', async () => {
    let fail = true;
    const { memory, chat } = setup((id, input) => {
      if (id !== 'summarize-episode') return extractNothing;
      return fail ? new EngramError('MODEL_TIMEOUT', 'timeout') : summaryOf(input as SummarizeEpisodeInput);
    });
    await chat('s', ['I am thinking about changing jobs', 'Why?', 'Too much pressure at work']);
    expect(await memory.summarize('u', 's')).toMatchObject({ status: 'fallback' });
    const [fallback] = await memory.list({ userId: 'u', kinds: ['episode'] });
    expect(fallback!.content).toContain('(Summary generation failed; will retry.)');
    expect((await memory.getSession('u', 's')).summaryRetryAt).toBeDefined();
    // The assistant is shown what was said, not that the model failed.
    const block = await memory.context({ userId: 'u', query: 'What did we talk about?' });
    expect(block.included.map((i) => i.id)).toContain(fallback!.id);
    expect(block.text).toContain('The user said: I am thinking about changing jobs');
    expect(block.text).not.toContain('Summary generation failed');
    fail = false;
    memory.clock.advance(11 * 60_000);
    await memory.tick();
    const episodes = await memory.list({ userId: 'u', kinds: ['episode'] });
    expect(episodes).toHaveLength(1);
    expect(episodes[0]!.id).toBe(fallback!.id);
    expect(episodes[0]!.content).toBe('The user talked about I am thinking about  (Topics: work)');
    expect((await memory.getSession('u', 's')).summaryRetryAt).toBeUndefined();
  });
});

describe('episodes without a model', () => {
  it.each([
    { language: 'zh', turns: ['你好', '你好！', '周末想去杭州爬山', '好主意', '杭州什么时候去最好？', '秋天', '我每天早上跑步，爬山没问题', '那就好'], said: '用户说：周末想去杭州爬山；杭州什么时候去最好？；我每天早上跑步，爬山没问题', topics: '（话题：杭州、爬山、周末、每天）' },
    { language: 'en', turns: ['Hi there', 'Hello!', 'What does the team use TypeScript for?', 'Mostly the API.', 'I write TypeScript every day', 'Nice.', 'The team wants strict types', 'Good idea.'], said: 'The user said: What does the team use TypeScript for?; I write TypeScript every day; The team wants strict types', topics: ' (Topics: team, TypeScript, use, write)' },
  ])('are the user\'s own words, greetings left out, with whole words as topics ($language)', async ({ turns, said, topics }) => {
    const memory = testMemory();
    memory.clock.set('2026-03-02T10:00:00Z');
    engines.push(memory);
    await memory.appendMessages({ messages: turns.map((content, i) => ({ id: `m${i}`, userId: 'u', sessionId: 's', role: i % 2 === 0 ? ('user' as const) : ('assistant' as const), content, createdAt: new Date(Date.parse('2026-03-02T10:00:00Z') + i * 1000) })) });
    expect(await memory.summarize('u', 's')).toMatchObject({ status: 'summarized' });
    const [episode] = await memory.list({ userId: 'u', kinds: ['episode'] });
    expect(episode!.content).toBe(said + topics);
  });
});

describe('core profile (seed 003 Layer 3)', () => {
  it('is rewritten after five new episodes, keeping every version', async () => {
    const { model, memory, chat } = setup((id, input) => {
      if (id === 'summarize-episode') return summaryOf(input as SummarizeEpisodeInput);
      if (id === 'update-profile') {
        const i = input as UpdateProfileInput;
        return { narrative: `${i.currentNarrative === '新用户，尚无信息' ? '' : i.currentNarrative}看过${i.newEpisodes.length}次对话。`, basicInfo: { name: '李明' }, changes: `加入${i.newEpisodes.length}次对话` };
      }
      return extractNothing;
    });
    expect(await memory.profile('u')).toBeNull();
    for (let s = 1; s <= 5; s++) {
      await chat(`s${s}`, [`第${s}次聊工作压力`, '嗯嗯，然后呢', `第${s}次还是很焦虑`]);
      await memory.endSession('u', `s${s}`);
      await memory.idle();
      memory.clock.advance(3_600_000);
      if (s < 5) expect(await memory.profile('u')).toBeNull();
    }
    const v1 = (await memory.profile('u'))!;
    expect(v1).toMatchObject({ version: 1, narrative: '看过5次对话。', basicInfo: { name: '李明' }, episodeCount: 5, producedBy: 'update-profile@3' });
    expect((model.callsFor('update-profile')[0]!.input as UpdateProfileInput).newEpisodes).toHaveLength(5);
    // Seven days later with news, the profile is rewritten from the current version.
    memory.clock.advanceDays(8);
    await chat('s6', ['I started learning Go this week', 'Nice!', 'It is fun but hard']);
    await memory.endSession('u', 's6');
    await memory.idle();
    await memory.updateProfile('u');
    expect((await memory.profileVersions('u')).map((p) => p.version)).toEqual([1, 2]);
    expect((await memory.profile('u'))!.narrative).toBe('看过5次对话。看过1次对话。');
    const block = await memory.context({ userId: 'u', query: '最近怎么样' });
    expect(block.text).toContain('### 用户画像\n"看过5次对话。看过1次对话。"');
  });

  it('handles cold start without a model, and an important statement triggers an update', async () => {
    const memory = testMemory();
    engines.push(memory);
    expect((await memory.context({ userId: 'u', query: 'hello' })).text).toBe('');
    await memory.add({ userId: 'u', kind: 'identity', content: "The user's name is Alice", importance: 0.9 });
    const report = await memory.updateProfile('u');
    expect(report).toMatchObject({ status: 'updated', reason: 'the user stated something important' });
    expect(report.profile!.narrative).toBe("The user's name is Alice.");
    expect(await memory.updateProfile('u')).toMatchObject({ status: 'unchanged' });
  });
});
