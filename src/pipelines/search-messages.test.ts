import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Embedder } from '../embedders/embedder.js';
import { testMemory } from '../testing/test-memory.js';

describe('searchMessages', () => {
  let memory: ReturnType<typeof testMemory>;
  beforeEach(() => {
    memory = testMemory();
  });
  afterEach(() => memory.close());

  const chat = (userId: string, sessionId: string, turns: Array<[string, 'user' | 'assistant', string]>) =>
    memory.appendMessages({ messages: turns.map(([id, role, content], i) => ({ id, userId, sessionId, role, content, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)) })) });

  it('finds a Chinese message and lets the answer borrow from the question before it', async () => {
    await chat('u', 's1', [
      ['q', 'user', '缓存方案用 Redis 还是 Memcached？'],
      ['a', 'assistant', '取决于你的需求，持久化选前者'],
      ['x', 'user', '今天天气不错'],
    ]);
    await chat('u', 's2', [['y', 'user', '周末去爬山']]);
    const found = await memory.searchMessages({ userId: 'u', query: '缓存方案', limit: 3 });
    // The assistant's answer shares no word with the query but ranks first: it borrows from its
    // neighbour, the question, which ranks lower because it only asks.
    const ids = found.map((f) => f.message.id);
    expect(ids[0]).toBe('a');
    expect(ids).toContain('q');
    expect(found[0]!.score.neighbour).toBeGreaterThan(found[0]!.score.fused);
    expect(found[0]!.score.question).toBeUndefined();
    expect(found.find((f) => f.message.id === 'q')!.score.question).toBe(1.5);
  });

  it.each([
    ['zh', '你养了什么宠物？你的宠物叫什么名字？', '一只猫，叫小白', '我的宠物叫什么名字'],
    ['en', 'What pet do you have? What is the pet called?', 'A cat, she is called Snow', 'what is my pet called'],
  ])('ranks the answer above the question it answers, which matched the query better (%s)', async (_lang, question, answer, query) => {
    await chat('u', 's1', [['ask', 'assistant', question], ['tell', 'user', answer]]);
    await chat('u', 's2', [['other', 'user', '周末去爬山 hiking at the weekend']]);
    const first = async (config?: { conversation: { radius: number; neighbourWeight: number; sessionWeight: number; sessionTop: number; questionPenalty: number } }): Promise<string> =>
      (await memory.searchMessages({ userId: 'u', query, limit: 3, ...(config ? { config } : {}) }))[0]!.message.id;
    const conversation = { radius: 2, neighbourWeight: 0.8, sessionWeight: 0.8, sessionTop: 1 };
    // Without the penalty the question leads: it shares the query's words.
    expect(await first({ conversation: { ...conversation, questionPenalty: 0 } })).toBe('ask');
    expect(await first({ conversation: { ...conversation, questionPenalty: 1.5 } })).toBe('tell');
    // The default recipe applies it.
    expect(await first()).toBe('tell');
  });

  it('finds an English message, scoped by session and user', async () => {
    await chat('u', 's1', [['1', 'user', 'I adopted a puppy named Rex'], ['2', 'assistant', 'Congratulations!']]);
    await chat('u', 's2', [['3', 'user', 'Rex chewed my shoes']]);
    await chat('other', 's1', [['4', 'user', 'My puppy is called Max']]);
    expect((await memory.searchMessages({ userId: 'u', query: 'puppy' }))[0]!.message.id).toBe('1');
    expect((await memory.searchMessages({ userId: 'u', query: 'Rex', sessionId: 's2' })).map((f) => f.message.id)).toEqual(['3']);
    expect((await memory.searchMessages({ userId: 'other', query: 'puppy' })).map((f) => f.message.userId)).toEqual(['other']);
  });

  it('appends idempotently and gives the working window', async () => {
    const first = await chat('u', 's', [['1', 'user', 'hi'], ['2', 'assistant', 'hello']]);
    const again = await chat('u', 's', [['1', 'user', 'hi'], ['2', 'assistant', 'hello'], ['3', 'user', '我叫李明']]);
    expect(first.appended).toHaveLength(2);
    expect(again).toMatchObject({ skipped: 2 });
    expect((await memory.workingWindow('u', 's', 2)).map((m) => m.id)).toEqual(['2', '3']);
  });

  it('never throws on FTS syntax', async () => {
    await chat('u', 's', [['1', 'user', 'say "hi" (loudly)']]);
    for (const q of ['"hi', 'NEAR(', '-', '*', 'a AND', '（你好']) await expect(memory.searchMessages({ userId: 'u', query: q })).resolves.toBeInstanceOf(Array);
  });
  it.each([
    ['zh', '我们在海边野餐，孩子们最喜欢野餐', '那天野餐很开心', '今天天气真好', '2023年6月我们在哪里野餐？'],
    ['en', 'We had a picnic at the beach, the kids loved the beach picnic', 'We had a picnic at the beach', 'Lovely weather today', 'Where did we have a picnic in June 2023?'],
  ])('ranks first the matching turn said on the date the question names (%s)', async (_lang, march, june, unrelated, question) => {
    const say = (id: string, sessionId: string, content: string, at: string) =>
      memory.appendMessages({ messages: [{ id, userId: 'u', sessionId, role: 'user', content, createdAt: new Date(at) }] });
    await say('march', 's1', march, '2023-03-10T10:00:00Z');
    await say('june', 's2', june, '2023-06-12T10:00:00Z');
    await say('weather', 's3', unrelated, '2023-06-20T10:00:00Z');
    const undated = question.replace(/2023年6月|in June 2023/, '');
    // Without the date, the richer March turn leads on keywords; the date names June's.
    expect((await memory.searchMessages({ userId: 'u', query: undated, limit: 3 }))[0]!.message.id).toBe('march');
    const dated = await memory.searchMessages({ userId: 'u', query: question, limit: 3 });
    expect(dated[0]!.message.id).toBe('june');
    // A turn of that month that shares no word with the question is not lifted by the date alone.
    expect(dated.map((f) => f.message.id).indexOf('weather')).not.toBe(0);
    const off = await memory.searchMessages({ userId: 'u', query: question, limit: 3, config: { dateMatch: { weight: 0, slackDays: 0 } } });
    expect(off[0]!.message.id).toBe('march');
  });

  /** That day's turn, another day's and the question, in both languages. */
  const NAMED_DATE = [
    ['zh', '下午和妹妹去了博物馆', '周末一直在家休息。', '2023年10月13日我做了什么？'],
    ['en', 'Spent the afternoon at the museum with my sister', 'Stayed home all weekend.', 'What did I do on October 13, 2023?'],
  ] as const;
  /** A memory whose vectors are scripted by meaning: the other day's turn is nearer to the question than that day's. */
  const scriptedByMeaning = (that: string, near: string, question: string) => {
    const meaning = new Map<string, number[]>([[question, [1, 0]], [near, [0.8, 0.6]], [that, [0.5, 0.866]]]);
    const embedder: Embedder = { id: 'scripted@2', dimensions: 2, embed: async (texts) => texts.map((t) => Float32Array.from(meaning.get(t) ?? [0, 1])) };
    const scripted = testMemory({ embedder });
    const say = (id: string, sessionId: string, content: string, at: string) =>
      scripted.appendMessages({ messages: [{ id, userId: 'u', sessionId, role: 'user', content, createdAt: new Date(at) }] });
    return { scripted, say };
  };

  it.each(NAMED_DATE)('lifts a turn said on the named date that shares no word with the question (%s)', async (_lang, that, near, question) => {
    const { scripted, say } = scriptedByMeaning(that, near, question);
    await say('that-day', 's1', that, '2023-10-13T10:00:00Z');
    await say('other-day', 's2', near, '2023-10-20T10:00:00Z');
    const first = async (config?: { dateMatch: { weight: number; slackDays: number; unmatchedWeight: number } }): Promise<string> =>
      (await scripted.searchMessages({ userId: 'u', query: question, limit: 2, ...(config ? { config } : {}) }))[0]!.message.id;
    expect(await first({ dateMatch: { weight: 2, slackDays: 0, unmatchedWeight: 0 } })).toBe('other-day');
    expect(await first({ dateMatch: { weight: 2, slackDays: 0, unmatchedWeight: 2 } })).toBe('that-day');
    // The default recipe does it.
    expect(await first()).toBe('that-day');
    await scripted.close();
  });

  it.each(NAMED_DATE)('reads the named date in the given time zone, else the user’s (%s)', async (_lang, that, near, question) => {
    const { scripted, say } = scriptedByMeaning(that, near, question);
    // 20:00 UTC on the 12th is 04:00 on the 13th in Shanghai.
    await say('that-day', 's1', that, '2023-10-12T20:00:00Z');
    await say('other-day', 's2', near, '2023-10-20T10:00:00Z');
    const first = async (timeZone?: string): Promise<string> =>
      (await scripted.searchMessages({ userId: 'u', query: question, limit: 2, ...(timeZone ? { timeZone } : {}) }))[0]!.message.id;
    expect(await first()).toBe('other-day');
    expect(await first('Asia/Shanghai')).toBe('that-day');
    await scripted.setSettings('u', { timeZone: 'Asia/Shanghai' });
    expect(await first()).toBe('that-day');
    expect(await first('UTC')).toBe('other-day');
    await scripted.close();
  });

  it('finds what was said with an irregular verb from its base form, and the base form from it (en; zh terms unchanged)', async () => {
    await chat('u', 's1', [['went', 'user', 'I went to Kyoto in spring']]);
    await chat('u', 's2', [['saw', 'user', 'We saw the cherry blossoms there']]);
    await chat('u', 's3', [['zh', 'user', '我去了京都看樱花']]);
    expect((await memory.searchMessages({ userId: 'u', query: 'Did I go to Kyoto?', limit: 1, recipe: 'keyword' }))[0]!.message.id).toBe('went');
    expect((await memory.searchMessages({ userId: 'u', query: 'what did we see', limit: 1, recipe: 'keyword' }))[0]!.message.id).toBe('saw');
    expect((await memory.searchMessages({ userId: 'u', query: '京都', limit: 1, recipe: 'keyword' }))[0]!.message.id).toBe('zh');
  });
});
