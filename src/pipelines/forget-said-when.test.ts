import { describe, expect, it } from 'vitest';
import { fixedClock } from '../testing/clock.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';

/** An engine whose clock stands at `at`, closed after the test. */
const open = closesAfterEach((at: string) => testMemory({ clock: fixedClock(at) }), (memory) => memory.close());

/** 2026-03-03T10:00Z: 18:00 on March 3 in Shanghai, 05:00 on March 3 in New York. */
const NOW = '2026-03-03T10:00:00Z';

describe('forgetting what was said at a time the user names', () => {
  it.each([
    {
      lang: 'zh',
      timeZone: 'Asia/Shanghai',
      // Shanghai's yesterday, March 2, is 2026-03-01T16:00Z to 2026-03-02T16:00Z.
      before: { at: '2026-03-01T03:00:00Z', text: '我下周要去杭州出差' },
      said: [{ at: '2026-03-02T02:00:00Z', text: '我怀孕了，还没告诉别人' }, { at: '2026-03-02T02:00:05Z', text: '恭喜！我会替你保密。', role: 'assistant' as const }],
      // March 3, 01:00 in Shanghai: today there, though March 2 in UTC.
      after: { at: '2026-03-02T17:00:00Z', text: '我喜欢猫' },
      request: '忘掉我昨天说的话',
      topic: '昨天',
      drawn: '用户怀孕了',
      kept: ['用户下周要去杭州出差', '用户喜欢猫'],
    },
    {
      lang: 'en',
      timeZone: 'America/New_York',
      // New York's yesterday, March 2, is 2026-03-02T05:00Z to 2026-03-03T05:00Z.
      before: { at: '2026-03-02T03:00:00Z', text: "I'm flying to Denver next week" },
      said: [{ at: '2026-03-02T15:00:00Z', text: "I'm pregnant, haven't told anyone yet" }, { at: '2026-03-02T15:00:05Z', text: "Congratulations! I'll keep it between us.", role: 'assistant' as const }],
      after: { at: '2026-03-03T06:00:00Z', text: 'I love cats' },
      request: 'Forget everything I told you yesterday',
      topic: 'yesterday',
      drawn: 'The user is pregnant',
      kept: ['The user is flying to Denver next week', 'The user loves cats'],
    },
  ])('$lang: the messages of that day in the user\'s time zone go, and the memories drawn from them alone; the rest stays', async ({ timeZone, before, said, after, request, topic, drawn, kept }) => {
    const memory = open(NOW);
    await memory.setSettings('u', { timeZone });
    const turn = (t: { at: string; text: string; role?: 'user' | 'assistant' }, sessionId: string) => ({ userId: 'u', sessionId, role: t.role ?? ('user' as const), content: t.text, createdAt: new Date(t.at) });
    const [old] = (await memory.appendMessages({ messages: [turn(before, 's1')] })).appended;
    const then = (await memory.appendMessages({ messages: said.map((t) => turn(t, 's2')) })).appended;
    const [later] = (await memory.appendMessages({ messages: [turn(after, 's3')] })).appended;
    await memory.add({ userId: 'u', content: drawn, provenance: { messageIds: [then[0]!.id] } });
    await memory.add({ userId: 'u', content: kept[0]!, provenance: { messageIds: [old!.id] } });
    // Said that day and again later: another message supports it.
    await memory.add({ userId: 'u', content: kept[1]!, provenance: { messageIds: [then[0]!.id, later!.id] } });

    const result = await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's4', role: 'user', content: request }] });

    expect(result.forgotten).toEqual([{ messageId: result.appended[0]!.id, topic, memories: 1, messages: said.length + 1 }]);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual([...kept].sort());
    const deleted = await memory.list({ userId: 'u', statuses: ['deleted'] });
    expect(deleted.map((m) => m.content)).toEqual([drawn]);
    expect((await memory.history('u', deleted[0]!.id)).at(-1)).toMatchObject({ actor: 'user', reason: `the user asked in conversation to forget what they said ${topic}` });
    expect((await memory.exportUser('u')).messages.map((m) => m.content).sort()).toEqual([before.text, after.text].sort());
    // Restorable, as a topic asked in conversation is.
    await memory.restore('u', deleted[0]!.id);
    expect(await memory.list({ userId: 'u' })).toHaveLength(3);
  });

  it.each([
    ['zh', '忘掉我今天早上说的话吧', '今天早上'],
    ['en', 'please delete our conversation from this morning', 'this morning'],
  ])('%s: "this morning" is midnight to noon of today: what was said in the afternoon stays', async (_lang, request, topic) => {
    const memory = open('2026-03-03T15:00:00Z');
    await memory.setSettings('u', { timeZone: 'UTC' });
    const at = (iso: string, content: string) => ({ userId: 'u', sessionId: 's1', role: 'user' as const, content, createdAt: new Date(iso) });
    await memory.appendMessages({ messages: [at('2026-03-03T08:00:00Z', 'morning words / 早上的话'), at('2026-03-03T13:00:00Z', 'afternoon words / 下午的话')] });
    const result = await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: request }] });
    expect(result.forgotten?.[0]).toMatchObject({ topic, messages: 2 });
    expect((await memory.exportUser('u')).messages.map((m) => m.content)).toEqual(['afternoon words / 下午的话']);
  });

  it.each([['zh', '忘掉我昨天说的话'], ['en', 'forget what I told you yesterday']])('%s: the engine answers the request as a time, for the door\'s notice', async (_lang, content) => {
    const memory = open(NOW);
    expect(await memory.forgetRequest({ userId: 'u', content })).toEqual({ topic: content.includes('昨天') ? '昨天' : 'yesterday', time: true });
  });
});

describe('forgetting what was said at a time: its edges (a tester\'s findings)', () => {
  it.each([
    ['zh', ['我怀孕了，还没告诉别人', '恭喜你！'], '把我今天说的都忘了吧'],
    ['en', ["I'm pregnant, haven't told anyone yet", 'Congratulations!'], 'Forget everything I told you today'],
  ])('%s: turns recorded in the same call as the request (the same instant) go with it', async (_lang, said, request) => {
    const memory = open(NOW);
    const result = await memory.appendMessages({ messages: [...said.map((content, i) => ({ userId: 'u', sessionId: 's1', role: i === 0 ? ('user' as const) : ('assistant' as const), content })), { userId: 'u', sessionId: 's1', role: 'user', content: request }] });
    expect(result.forgotten?.[0]?.messages).toBe(3);
    expect((await memory.exportUser('u')).messages).toEqual([]);
  });

  it.each([
    ['zh', '我是护士，在仁爱医院工作', '忘掉我昨天说的话'],
    ['en', 'I work as a nurse at Mercy Hospital', 'Forget everything I told you yesterday'],
  ])('%s: a memory said that day and again today stays (the later message reinforced it)', async (_lang, fact, request) => {
    const memory = open('2026-03-02T10:00:00Z');
    await memory.setSettings('u', { timeZone: 'UTC' });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: fact }] });
    await memory.extract('u', 's1');
    const drawn = (await memory.list({ userId: 'u' })).map((m) => m.id).sort();
    expect(drawn.length).toBeGreaterThan(0);
    memory.clock.set(NOW);
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's2', role: 'user', content: fact }] });
    await memory.extract('u', 's2');
    for (const id of drawn) expect((await memory.history('u', id)).some((e) => e.action === 'reinforce')).toBe(true);
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's3', role: 'user', content: request }] });
    expect((await memory.list({ userId: 'u' })).map((m) => m.id).sort()).toEqual(drawn);
  });
});

describe('forgetting what was said in the last minutes', () => {
  it.each([
    ['en', 'I love cats', "I'm thinking of quitting my job", 'forget everything I told you in the last hour', 'in the last hour'],
    ['zh', '我喜欢猫', '我在考虑辞职', '忘掉我最近一小时说的话', '最近一小时'],
  ])('%s: "%s … %s": the last hour\'s turns go, not the morning\'s', async (_lang, morning, recent, request, topic) => {
    const memory = open(NOW);
    const at = (iso: string, content: string) => ({ userId: 'u', sessionId: 's1', role: 'user' as const, content, createdAt: new Date(iso) });
    await memory.appendMessages({ messages: [at('2026-03-03T07:00:00Z', morning), at('2026-03-03T09:30:00Z', recent)] });
    const result = await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: request }] });
    expect(result.forgotten?.[0]).toMatchObject({ topic, messages: 2 });
    expect((await memory.exportUser('u')).messages.map((m) => m.content)).toEqual([morning]);
  });
});

describe('forgetting tonight after midnight, and the profile', () => {
  it.each([
    ['en', "I had a fight with my sister, I'm so angry", 'forget everything I told you tonight'],
    ['zh', '我跟我姐吵架了，气死我了', '忘掉我今晚说的话'],
  ])('%s: "tonight" said at 1 a.m. is the night going on: the evening\'s turns go', async (_lang, evening, request) => {
    const memory = open('2026-03-03T01:00:00Z');
    await memory.setSettings('u', { timeZone: 'UTC' });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: evening, createdAt: new Date('2026-03-02T22:30:00Z') }, { userId: 'u', sessionId: 's1', role: 'user', content: 'noon / 中午', createdAt: new Date('2026-03-02T12:00:00Z') }] });
    const result = await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: request }] });
    expect(result.forgotten?.[0]?.messages).toBe(2);
    expect((await memory.exportUser('u')).messages.map((m) => m.content)).toEqual(['noon / 中午']);
  });

  it.each([
    ['zh', '我怀孕了，还没告诉别人', '用户怀孕了', '用户喜欢猫', '忘掉我今天说的话'],
    ['en', "I'm pregnant, haven't told anyone yet", 'The user is pregnant', 'The user loves cats', 'Forget everything I told you today'],
  ])('%s: what the profile took from that time goes from it; the rest stays', async (_lang, said, drawn, kept, request) => {
    const memory = open(NOW);
    await memory.setSettings('u', { timeZone: 'UTC' });
    const [then] = (await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: said, createdAt: new Date('2026-03-03T08:00:00Z') }] })).appended;
    await memory.add({ userId: 'u', content: drawn, importance: 0.9, provenance: { messageIds: [then!.id] } });
    await memory.add({ userId: 'u', content: kept, importance: 0.9 });
    await memory.updateProfile('u', { force: true });
    expect((await memory.profile('u'))?.narrative).toContain(drawn);
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's2', role: 'user', content: request }] });
    const narrative = (await memory.profile('u'))?.narrative ?? '';
    expect(narrative).not.toContain(drawn);
    expect(narrative).toContain(kept);
  });
});
