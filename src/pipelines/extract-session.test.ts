import { afterEach, describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../embedders/hash-embedder.js';
import type { Embedder } from '../embedders/embedder.js';
import { EngramError } from '../errors.js';
import { scriptedModel, type ScriptFunction } from '../testing/scripted-model.js';
import { scriptedChat } from '../testing/scripted-chat.js';
import { testMemory } from '../testing/test-memory.js';
import type { ExtractMemoriesInput } from '../prompts/extract-memories.js';

const T0 = Date.parse('2026-03-02T10:00:00Z');
let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});

function setup(script: ScriptFunction) {
  const chat = scriptedChat(script, { at: T0, extraction: { retryBaseMs: 1000, maxFailures: 2 } });
  engines.push(chat.memory);
  return chat;
}
const inputOf = (model: ReturnType<typeof scriptedModel>, i = -1) => model.calls.at(i)!.input as ExtractMemoriesInput;

describe('extraction: the seeds\' scenarios', () => {
  it('东京出差 then 周五去东京: recalled, nothing new stored', async () => {
    const { model, memory, say } = setup((_, input) => {
      const i = input as ExtractMemoriesInput;
      if (i.existing.length === 0) return { operations: [{ op: 'add', kind: 'event', content: '用户下周要去东京出差', importance: 0.7, happenedAt: '2026-03-09T00:00:00Z', sourceMessageIds: ['m1'] }], reason: '用户下周出差' };
      return { operations: [{ op: 'skip', reason: '只是在问推荐，没有新信息' }], reason: '没有新信息' };
    });
    await say('s1', ['user', '我下周要去东京出差'], ['assistant', '好的，东京这个季节很舒服']);
    expect(await memory.extract('u', 's1')).toMatchObject({ status: 'applied', added: 1, skipped: false, extractor: 'extract-memories@16' });
    await say('s2', ['user', '周五去东京有什么推荐？']);
    const recalled = await memory.recall({ userId: 'u', query: '周五去东京有什么推荐？' });
    expect(recalled[0]!.memory.content).toBe('用户下周要去东京出差');
    expect(recalled[0]!.memory.happenedAt).toEqual(new Date('2026-03-09T00:00:00Z'));
    expect(await memory.extract('u', 's2')).toMatchObject({ status: 'skipped', added: 0, skipped: true, reason: '没有新信息' });
    expect(inputOf(model).existing.map((m) => m.content)).toEqual(['用户下周要去东京出差']);
    expect(await memory.list({ userId: 'u' })).toHaveLength(1);
    const [m] = await memory.list({ userId: 'u' });
    expect(m!.provenance).toEqual({ sessionId: 's1', messageIds: ['msg-1'], producedBy: 'extract-memories@16' });
  });

  it('李明 + FastAPI (seed 002): one add, one update of the existing memory', async () => {
    const { model, memory, say } = setup((_, input) => {
      const i = input as ExtractMemoriesInput;
      const project = i.existing.find((m) => m.content.includes('AI 项目'))!;
      return {
        operations: [
          { op: 'add', kind: 'identity', content: '用户叫李明', importance: 0.9, sourceMessageIds: ['m3'] },
          { op: 'update', target: project.alias, content: '用户正在开发一个 AI 项目，使用 FastAPI + Python', reason: '补充了技术栈' },
        ],
        reason: '提取了用户姓名，更新了项目技术栈信息',
      };
    });
    await memory.add({ userId: 'u', kind: 'identity', content: '用户是程序员' });
    const project = await memory.add({ userId: 'u', kind: 'fact', content: '用户在做一个 AI 项目' });
    await say('s', ['user', '我决定用 FastAPI 了，后端就用 Python'], ['assistant', '好的，FastAPI 是个不错的选择'], ['user', '对了，我叫李明，以后你记得叫我名字'], ['assistant', '好的李明，我记住了']);
    const report = await memory.extract('u', 's');
    expect(report).toMatchObject({ added: 1, updated: 1, deleted: 0, reinforced: 0, reason: '提取了用户姓名，更新了项目技术栈信息' });
    expect((await memory.get('u', project.id)).content).toBe('用户正在开发一个 AI 项目，使用 FastAPI + Python');
    const history = await memory.history('u', project.id);
    expect(history.at(-1)).toMatchObject({ action: 'update', actor: 'extraction', reason: '补充了技术栈', producedBy: 'extract-memories@16', messageIds: ['msg-1', 'msg-2', 'msg-3', 'msg-4'] });
    const name = (await memory.list({ userId: 'u', kinds: ['identity'] })).find((m) => m.content === '用户叫李明')!;
    expect(name.provenance.messageIds).toEqual(['msg-3']);
    expect(inputOf(model).existing.every((m) => /^\d+$/.test(m.alias))).toBe(true);
    expect(JSON.stringify(model.calls[0]!.messages)).not.toContain(project.id);
  });

  it('Redis: only the new messages are mined, the context ones are context only', async () => {
    const { model, memory, say } = setup((_, input) => {
      const i = input as ExtractMemoriesInput;
      if (i.messages.some((m) => m.content.includes('Memcached'))) return { operations: [{ op: 'skip', reason: '还在讨论' }], reason: '还在讨论' };
      return { operations: [{ op: 'add', kind: 'plan', content: '用户决定缓存方案用 Redis', importance: 0.7, sourceMessageIds: ['m1'] }], reason: '记录了决定' };
    });
    await say('s', ['user', '缓存方案用 Redis 还是 Memcached？'], ['assistant', '取决于你的需求...']);
    await memory.extract('u', 's');
    await say('s', ['user', '我决定用 Redis 了'], ['assistant', '好的选择...']);
    await memory.extract('u', 's');
    const second = inputOf(model);
    expect(second.messages.map((m) => m.content)).toEqual(['我决定用 Redis 了', '好的选择...']);
    expect(second.context.map((m) => m.content)).toEqual(['缓存方案用 Redis 还是 Memcached？', '取决于你的需求...']);
    expect(model.calls[1]!.messages[0]!.content).toMatch(/## CONTEXT \(do not extract from here\)\n\[c1\][^\n]*Memcached[\s\S]*## NEW messages \(extract from here\)\n\[m1\][^\n]*我决定用 Redis 了/);
    const [plan] = await memory.list({ userId: 'u' });
    expect(plan!.provenance.messageIds).toEqual(['msg-3']);
    expect((await memory.getSession('u', 's')).processedSeq).toBe(3);
  });

  it('a correction replaces the wrong memory (English)', async () => {
    const { memory, say } = setup((_, input) => {
      const old = (input as ExtractMemoriesInput).existing.find((m) => m.content.includes('Berlin'))!;
      return { operations: [{ op: 'update', target: old.alias, content: 'The user lives in Munich', reason: 'the user corrected the city' }], reason: 'Corrected where the user lives' };
    });
    const wrong = await memory.add({ userId: 'u', content: 'The user lives in Berlin' });
    await say('s', ['user', "No, I don't live in Berlin, I live in Munich"]);
    expect(await memory.extract('u', 's')).toMatchObject({ updated: 1, added: 0 });
    expect((await memory.get('u', wrong.id)).content).toBe('The user lives in Munich');
    expect((await memory.history('u', wrong.id)).at(-1)).toMatchObject({ before: { content: 'The user lives in Berlin' }, after: { content: 'The user lives in Munich' }, reason: 'the user corrected the city' });
  });

  it('a change over time is kept as two memories with their times', async () => {
    const { memory, say } = setup((_, input) => {
      const i = input as ExtractMemoriesInput;
      const text = i.messages[0]!.content;
      return text.includes('紧张')
        ? { operations: [{ op: 'add', kind: 'event', content: '用户因为面试很紧张', happenedAt: i.now }], reason: '' }
        : { operations: [{ op: 'add', kind: 'event', content: '用户面试结束后现在很放松', happenedAt: i.now }], reason: '状态随时间变化，不冲突' };
    });
    await say('s1', ['user', '我最近因为面试很紧张']);
    await memory.extract('u', 's1');
    memory.clock.advanceDays(10);
    await say('s2', ['user', '面试结束了，我现在很放松']);
    await memory.extract('u', 's2');
    const events = await memory.list({ userId: 'u', kinds: ['event'], order: 'asc' });
    expect(events.map((e) => e.content)).toEqual(['用户因为面试很紧张', '用户面试结束后现在很放松']);
    expect(events[1]!.happenedAt!.getTime() - events[0]!.happenedAt!.getTime()).toBeGreaterThanOrEqual(10 * 86_400_000);
  });

  it('small talk is skipped without a model call, in both languages', async () => {
    const { model, memory, say } = setup(() => {
      throw new Error('must not be called');
    });
    await say('zh', ['user', '你好'], ['assistant', '你好！'], ['user', '哈哈，谢谢'], ['user', 'ok']);
    await say('en', ['user', 'hi there'], ['assistant', 'Hello!'], ['user', 'thanks! lol']);
    expect(await memory.extract('u', 'zh')).toMatchObject({ status: 'skipped', extractor: 'small-talk', messages: 4 });
    expect(await memory.extract('u', 'en')).toMatchObject({ status: 'skipped', extractor: 'small-talk' });
    expect(model.calls).toHaveLength(0);
    expect(memory.stats().extraction).toMatchObject({ smallTalkSkipped: 2, modelCalls: 0 });
    expect((await memory.getSession('u', 'zh')).processedSeq).toBe(3);
  });

  it('an invented alias is rejected and recorded, never applied to another memory', async () => {
    const { memory, say } = setup(() => ({
      operations: [
        { op: 'update', target: '7', content: '用户喜欢狗', reason: '猜的' },
        { op: 'delete', target: 'mem-1', reason: 'raw id' },
        { op: 'add', kind: 'preference', content: '用户喜欢绿茶' },
      ],
      reason: '',
    }));
    const cat = await memory.add({ userId: 'u', kind: 'preference', content: '用户喜欢猫' });
    await say('s', ['user', '我喜欢喝绿茶，也喜欢猫']);
    const report = await memory.extract('u', 's');
    expect(report).toMatchObject({ added: 1, updated: 0, deleted: 0 });
    expect(report.rejected).toEqual([
      { op: 'update', target: '7', reason: 'alias was not shown' },
      { op: 'delete', target: 'mem-1', reason: 'alias was not shown' },
    ]);
    expect((await memory.get('u', cat.id))).toMatchObject({ content: '用户喜欢猫', status: 'active' });
    expect((await memory.extractionRuns('u', 's'))[0]!.rejected).toHaveLength(2);
  });

  it('the same fact twice is a reinforce, not a duplicate (English)', async () => {
    const { memory, say } = setup(() => ({ operations: [{ op: 'add', kind: 'preference', content: 'The user loves cats.' }], reason: 'Stated again' }));
    const cats = await memory.add({ userId: 'u', kind: 'preference', content: 'The user loves cats', importance: 0.6 });
    await say('s', ['user', 'I really love cats, you know']);
    expect(await memory.extract('u', 's')).toMatchObject({ added: 0, reinforced: 1 });
    expect((await memory.get('u', cats.id)).importance).toBeCloseTo(0.7);
    expect((await memory.history('u', cats.id)).at(-1)).toMatchObject({ action: 'reinforce', changed: ['importance'] });
    expect(await memory.list({ userId: 'u' })).toHaveLength(1);
  });

  it('an extracted todo becomes a todo row with a parsed due time, in the user\'s time zone', async () => {
    const { memory, say } = setup(() => ({
      operations: [{ op: 'add', kind: 'todo', content: '用户明天下午三点要开会', todo: { content: '下午三点开会', dueText: '明天下午三点' } }],
      reason: '',
    }));
    await memory.setSettings('u', { timeZone: 'Asia/Shanghai' });
    await say('s', ['user', '提醒我明天下午三点开会']);
    await memory.extract('u', 's');
    const [todo] = await memory.listTodos({ userId: 'u' });
    // Said at 2026-03-02 18:00 Shanghai time: tomorrow 15:00 Shanghai is 07:00 UTC.
    expect(todo).toMatchObject({ content: '下午三点开会', dueAt: new Date('2026-03-03T07:00:00Z'), remindAt: new Date('2026-03-03T06:00:00Z'), completed: false });
    expect((await memory.get('u', todo!.memoryId!)).kind).toBe('todo');
    expect((await memory.completeTodo('u', todo!.id)).completed).toBe(true);
    await memory.deleteTodo('u', todo!.id);
    expect(await memory.listTodos({ userId: 'u' })).toEqual([]);
  });
});

describe('extraction: one call for memories and the episode', () => {
  it('a quiet batch of everything not yet summarised gets its episode from the extraction call (Chinese)', async () => {
    const { model, memory, say } = setup((_, input) => ({
      operations: [{ op: 'add', kind: 'plan', content: '用户在考虑换工作', importance: 0.7 }],
      reason: '记录了计划',
      ...((input as ExtractMemoriesInput).summarize
        ? { episode: { summary: '用户聊了换工作的想法，担心收入下降。', topics: ['职业', '收入'], userIntent: '倾诉', emotionalTone: '焦虑', keyFacts: ['在考虑换工作'], unresolved: '是否换工作' } }
        : {}),
    }));
    await say('s', ['user', '我最近在考虑换工作'], ['assistant', '可以聊聊原因吗？'], ['user', '压力太大了，但是担心收入下降']);
    await memory.extract('u', 's');
    expect(inputOf(model).summarize).toBe(true);
    expect(model.calls[0]!.messages[0]!.content).toContain('## EPISODE');
    const [episode] = await memory.list({ userId: 'u', kinds: ['episode'] });
    expect(episode).toMatchObject({ content: '用户聊了换工作的想法，担心收入下降。（话题：职业、收入）', provenance: { producedBy: 'extract-memories@16' } });
    expect(episode!.structuredData).toMatchObject({ unresolved: '是否换工作', fromSeq: 0, throughSeq: 2 });
    expect((await memory.getSession('u', 's')).summarizedSeq).toBe(2);
    // Nothing left for the separate summariser.
    memory.clock.advanceDays(1);
    await memory.tick();
    expect(model.callsFor('summarize-episode')).toHaveLength(0);
    expect(await memory.list({ userId: 'u', kinds: ['episode'] })).toHaveLength(1);
  });

  it('a short batch is not summarised in the call (English)', async () => {
    const { model, memory, say } = setup(() => ({ operations: [{ op: 'add', kind: 'preference', content: 'The user loves jazz' }], reason: 'ok' }));
    await say('s', ['user', 'I love jazz']);
    await memory.extract('u', 's');
    expect(inputOf(model).summarize).toBe(false);
    expect(model.calls[0]!.messages[0]!.content).not.toContain('## EPISODE');
  });
});

describe('extraction: failures never cost a message', () => {
  it('keeps the watermark on a model error, retries with backoff, marks failed, and a later success clears it', async () => {
    let fail = true;
    const { memory, say } = setup(() => (fail ? new EngramError('MODEL_TIMEOUT', 'model timed out') : { operations: [{ op: 'add', kind: 'preference', content: 'The user likes tea' }], reason: 'ok' }));
    await say('s', ['user', 'I like tea']);
    expect(await memory.extract('u', 's')).toMatchObject({ status: 'failed', error: { code: 'MODEL_TIMEOUT' } });
    let session = await memory.getSession('u', 's');
    expect(session).toMatchObject({ processedSeq: -1, failures: 1, extractionState: 'retrying', lastError: 'MODEL_TIMEOUT: model timed out' });
    expect(session.nextAttemptAt).toEqual(new Date(memory.clock.now().getTime() + 1000));
    expect(await memory.tick()).toEqual([]); // not due before the backoff
    memory.clock.advance(5 * 60_000);
    expect((await memory.tick()).map((r) => r.status)).toEqual(['failed']);
    session = await memory.getSession('u', 's');
    expect(session).toMatchObject({ failures: 2, extractionState: 'failed' });
    fail = false;
    memory.clock.advanceDays(1);
    expect((await memory.tick()).map((r) => r.status)).toEqual(['applied']);
    expect(await memory.getSession('u', 's')).toMatchObject({ failures: 0, extractionState: 'ok', processedSeq: 0 });
    expect(await memory.workingWindow('u', 's')).toHaveLength(1);
  });

  it('garbage model output is a visible failure, not a silent empty result', async () => {
    const { memory, say } = setup(() => 'Sure! Here are the memories: {oops');
    await say('s', ['user', '我叫李明']);
    expect(await memory.extract('u', 's')).toMatchObject({ status: 'failed', error: { code: 'MODEL_OUTPUT_INVALID' } });
    expect((await memory.extractionRuns('u', 's'))[0]).toMatchObject({ outcome: 'failed' });
    expect(await memory.workingWindow('u', 's')).toHaveLength(1);
  });
});

describe('extraction: the related memories are searched by the turns\' stored vectors', () => {
  /** A hash embedder that records every text it embeds, and fails while `failing` is set. */
  function recordingEmbedder() {
    const inner = createHashEmbedder({ dimensions: 1024 });
    const texts: string[] = [];
    const state = { failing: false };
    const embedder: Embedder = {
      id: inner.id,
      dimensions: inner.dimensions,
      embed: async (batch) => {
        if (state.failing) throw new EngramError('EMBEDDING_FAILED', 'embedder down');
        texts.push(...batch);
        return inner.embed(batch);
      },
    };
    return { embedder, texts, state };
  }

  function setupRecorded() {
    const recorded = recordingEmbedder();
    const model = scriptedModel(() => ({ operations: [{ op: 'skip', reason: 'nothing new' }], reason: 'nothing new' }));
    const memory = testMemory({ model, embedder: recorded.embedder });
    memory.clock.set(new Date(T0));
    engines.push(memory);
    let n = 0;
    const say = (sessionId: string, ...turns: Array<[role: 'user' | 'assistant', content: string]>) =>
      memory.appendMessages({ messages: turns.map(([role, content]) => ({ id: `msg-${++n}`, userId: 'u', sessionId, role, content, createdAt: new Date(T0 + n * 1000) })) });
    return { ...recorded, model, memory, say };
  }

  it.each([
    { language: 'zh', kept: '用户喜欢猫', other: '用户在上海工作', turns: ['我家的猫叫咪咪', '我每天都给猫喂鱼'] },
    { language: 'en', kept: 'The user loves cats', other: 'The user works in Shanghai', turns: ['My cat is called Mimi', 'I feed my cat fish every day'] },
  ])('finds the related memory without embedding the joined turns again ($language)', async ({ kept, other, turns }) => {
    const { memory, model, texts, say } = setupRecorded();
    await memory.add({ userId: 'u', kind: 'preference', content: kept });
    await memory.add({ userId: 'u', kind: 'fact', content: other });
    await say('s', ['user', turns[0]!], ['assistant', 'OK'], ['user', turns[1]!]);
    texts.length = 0;
    await memory.extract('u', 's');
    expect(texts).not.toContain(turns.join('\n'));
    expect(inputOf(model).existing[0]!.content).toBe(kept);
  });

  it.each([
    { language: 'zh', kept: '用户喜欢猫', turns: ['我家的猫叫咪咪', '我每天都给猫喂鱼'] },
    { language: 'en', kept: 'The user loves cats', turns: ['My cat is called Mimi', 'I feed my cat fish every day'] },
  ])('embeds the joined turns when one was stored without a vector ($language)', async ({ kept, turns }) => {
    const { memory, model, texts, state, say } = setupRecorded();
    await memory.add({ userId: 'u', kind: 'preference', content: kept });
    await say('s', ['user', turns[0]!]);
    state.failing = true;
    await say('s', ['user', turns[1]!]);
    state.failing = false;
    texts.length = 0;
    await memory.extract('u', 's');
    expect(texts).toContain(turns.join('\n'));
    expect(inputOf(model).existing[0]!.content).toBe(kept);
  });
});
