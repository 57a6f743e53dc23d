import { describe, expect, it } from 'vitest';
import { previewForgetTopic } from './forget-preview.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';
import { createHashEmbedder } from '../embedders/hash-embedder.js';
import { createBundledEmbedder } from '../embedders/bundled-embedder.js';

const engine = closesAfterEach(() => testMemory(), (memory) => memory.close());

describe('what a topic is: "ex" is not an ex-colleague, 前任 not a former boss', () => {
  it.each([
    {
      lang: 'en',
      request: 'forget my ex',
      gone: ["The user's ex is Sarah", "The user's ex-wife Anna lives in Ohio"],
      kept: ["The user's ex-colleague Tom works at Google", 'The user has an Ex-Lax prescription', "The user's ex-boss was strict"],
    },
    {
      lang: 'zh',
      request: '把我前任的事都忘了吧',
      gone: ['用户的前任叫小丽', '用户的前女友叫小美'],
      kept: ['用户的前任老板很凶', '用户的前任经理姓李'],
    },
  ])('$lang: "$request" forgets the ex (and the words for one), not what only shares the word', async ({ request, gone, kept }) => {
    const memory = engine();
    for (const content of [...gone, ...kept]) await memory.add({ userId: 'u', content });
    const result = await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: request }] });
    expect(result.forgotten?.[0]?.memories).toBe(gone.length);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual([...kept].sort());
  });
});

describe('every door forgets a topic as a request in chat does', () => {
  it.each([
    { lang: 'zh', topic: '前女友', named: '用户的前女友叫小美', about: '小美下个月结婚', other: '用户喜欢猫' },
    { lang: 'en', topic: 'ex', named: "The user's ex is named Sarah", about: 'Sarah moved to Paris last spring', other: 'The user loves cats' },
  ])('$lang: forgetTopic (the page, the API, MCP, the CLI) also takes whoever the memories name it; the dry run lists it', async ({ topic, named, about, other }) => {
    const memory = engine();
    for (const content of [named, about, other]) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's0', role: 'user', content: about }] });
    const preview = await previewForgetTopic(memory.deps, 'u', topic);
    expect(preview.map((p) => p.content).sort()).toEqual([named, about].sort());
    const report = await memory.forgetTopic('u', topic);
    expect(report.names).toEqual([named.includes('小美') ? '小美' : 'Sarah']);
    expect((await memory.list({ userId: 'u', statuses: ['active', 'archived', 'deleted'] })).map((m) => m.content)).toEqual([other]);
    expect((await memory.exportUser('u')).messages).toEqual([]);
  });

  it('zh: forgetTopic("前任") takes the words memories use for one (前女友, 前男友), as the chat request does', async () => {
    const memory = engine();
    for (const content of ['用户的前女友叫小美', '用户的前任老板很凶', '用户喜欢猫']) await memory.add({ userId: 'u', content });
    await memory.forgetTopic('u', '前任');
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual(['用户喜欢猫', '用户的前任老板很凶'].sort());
  });
});

describe('forgetting asked in chat takes no one else (a second tester\'s findings)', () => {
  it.each([
    {
      lang: 'en',
      request: 'forget my ex',
      gone: ["The user's ex is named Sarah", 'Sarah moved to Paris last spring'],
      kept: ["The user's daughter Sarah starts school in May", "The user loves the song 'Sarah' by Fleetwood Mac", 'The user will travel to Rome'],
      keptSaid: 'My daughter Sarah lost her first tooth!',
    },
    {
      lang: 'zh',
      request: '忘掉我前女友的事',
      gone: ['用户的前女友叫小美', '小美喜欢吃日料'],
      kept: ['用户的妹妹叫小美', '用户喜欢猫'],
      keptSaid: '我妹妹小美今天过生日',
    },
  ])('$lang: whoever the ex is named goes, not someone else of that name (a daughter, a sister, a song)', async ({ request, gone, kept, keptSaid }) => {
    const memory = engine();
    for (const content of [...gone, ...kept]) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's0', role: 'user', content: keptSaid }] });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: request }] });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual([...kept].sort());
    expect((await memory.exportUser('u')).messages.map((m) => m.content)).toEqual([keptSaid]);
  });

  it.each([
    ['zh', '忘掉小王吧', ['用户的朋友叫小王', '小王下周结婚'], ['用户最喜欢的书是《小王子》']],
    ['en', 'forget what I told you about Will', ["The user's friend is named Will", 'Will moved to Boston'], ['The user will travel to Rome', 'The user wrote a will last year']],
  ])('%s: a name is the name as written and a word of its own ("小王子", "will" stay)', async (_lang, request, gone, kept) => {
    const memory = engine();
    for (const content of [...gone, ...kept]) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: request }] });
    const left = (await memory.list({ userId: 'u' })).map((m) => m.content);
    for (const k of kept) expect(left).toContain(k);
    for (const g of gone) expect(left).not.toContain(g);
  });

  it.each([
    ['en', 'forget my ex 😡', ["The user's ex is named Sarah"], ["The user's ex-colleague Tom works at Google", 'The user has an Ex-Lax prescription']],
    ['en', 'forget my ex lol', ["The user's ex is named Sarah"], ["The user's ex-boss was strict"]],
    ['zh', '忘掉我前女友的事😡', ['用户的前女友叫小美'], ['用户喜欢猫']],
    ['en', 'forget my ex', ["The user's ex is named Sarah"], ["The user's sister's ex-husband is Mike"]],
    ['zh', '忘掉我的前任', ['用户的前任叫小丽'], ['用户妹妹的前男友叫阿强']],
  ])('%s: "%s" forgets the user\'s ex only (an emoji or "lol" after it, a sister\'s ex)', async (_lang, request, gone, kept) => {
    const memory = engine();
    for (const content of [...gone, ...kept]) await memory.add({ userId: 'u', content });
    const result = await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: request }] });
    expect(result.forgotten?.[0]?.memories).toBe(gone.length);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual([...kept].sort());
  });

  it.each([
    ['en', 'forget what I told you at lunch', 'The user eats lunch at 12:30 every day'],
    ['en', 'forget what I told you on the phone', "The user's phone number is 555-0101"],
    ['en', 'forget everything I told you on Monday', 'The user has yoga class every Monday'],
    ['zh', '帮我忘掉我前女友', '用户的前女友叫小美'],
  ])('%s: "%s" asks nothing of the memory (where or when it was said; help getting over someone)', async (_lang, request, kept) => {
    const memory = engine();
    await memory.add({ userId: 'u', content: kept });
    const result = await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: request }] });
    expect(result.forgotten).toBeUndefined();
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual([kept]);
  });
});

describe('the user\'s own address and phone, in the words memories use', () => {
  it.each([
    ['en', 'delete my address', ["The user's home is 12 Pine Street", 'The user moved to 12 Pine Street'], ["The user's mom lives in Ohio"]],
    ['zh', '别记住我的住址', ['用户的家在张江路1号', '用户搬到了张江路1号'], ['用户的妈妈住在杭州']],
    ['en', "Don't remember my phone number anymore", ["The user's mobile number is 555-0101", 'The user can be reached at 555-0101'], ["The user's mom's phone number is 555-0199"]],
  ])('%s: "%s"', async (_lang, request, gone, kept) => {
    const memory = engine();
    for (const content of [...gone, ...kept]) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: request }] });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual(kept);
  });

  it.each([
    ['en', 'forget my birthday', ["The user's birthday is March 3"], ["The user's wife Anna has a birthday on May 5", "Anna, the user's wife, celebrates her birthday on May 5"]],
    ['zh', '忘掉我的生日', ['用户的生日是3月3日'], ['用户给妈妈过生日']],
  ])('%s: "%s" leaves a birthday whose clause is about someone else', async (_lang, request, gone, kept) => {
    const memory = engine();
    for (const content of [...gone, ...kept]) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: request }] });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual([...kept].sort());
  });
});

describe('several of the user\'s own things in one request', () => {
  it.each([
    ['en', 'forget my birthday and my address', ["The user's birthday is March 3", 'The user lives at 12 Pine Street'], 'The user loves cats', 'birthday, address'],
    ['zh', '忘掉我的生日和住址', ['用户的生日是3月3日', '用户住在上海浦东张江路1号'], '用户喜欢猫', '生日, 住址'],
  ])('%s: "%s" forgets each (it was one topic that matched nothing, and reported success)', async (_lang, request, gone, kept, topic) => {
    const memory = engine();
    for (const content of [...gone, kept]) await memory.add({ userId: 'u', content });
    expect(await memory.forgetRequest({ userId: 'u', content: request })).toEqual({ topic });
    const result = await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: request }] });
    expect(result.forgotten?.[0]).toMatchObject({ topic, memories: gone.length });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual([kept]);
  });

  it('"忘掉我和刘强的事" is about 刘强, not "和刘强"; "Tom and Jerry" stays one topic', async () => {
    const { readForgetRequest } = await import('../extraction/forget-request.js');
    expect(readForgetRequest('忘掉我和刘强的事')).toEqual({ topic: '刘强' });
    expect(readForgetRequest('forget what I told you about Tom and Jerry')).toEqual({ topic: 'Tom and Jerry' });
  });
});

describe('a topic of several words is found however its words end', () => {
  it.each([
    { lang: 'en', topic: 'peanut allergy', gone: ['The user is allergic to peanuts'], kept: ['The user has a severe allergy to shellfish', 'The user loves peanut butter cookies', 'The user loves cats'], said: 'I am allergic to peanuts' },
    { lang: 'zh', topic: '花生过敏', gone: ['用户对花生过敏'], kept: ['用户对猫毛过敏', '用户喜欢吃花生酱饼干', '用户喜欢猫'], said: '我对花生过敏' },
  ])('$lang: "$topic" forgets what holds each word in another form ("allergic", "peanuts"), and only that', async ({ topic, gone, kept, said }) => {
    const memory = engine();
    for (const content of [...gone, ...kept]) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's0', role: 'user', content: said }] });
    expect((await previewForgetTopic(memory.deps, 'u', topic)).map((p) => p.content)).toEqual(gone);
    const report = await memory.forgetTopic('u', topic);
    expect(report.messages).toBe(1);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual([...kept].sort());
  });
});

describe('a topic is forgotten in both languages (through the embedder\'s bridge)', () => {
  /** The hash embedder with a bridge of a few glosses: what the bundled embedder's CC-CEDICT gives for them. */
  const GLOSSES: Record<string, string> = { 花生: 'peanut', 过敏: 'allergic', 猫毛: 'cat hair', 用户: 'user', 对: 'to', 和: 'and', 芒果: 'mango', 喜欢: 'love', 猫: 'cat' };
  const bridged = (): ReturnType<typeof testMemory> => {
    const hash = createHashEmbedder({ dimensions: 256 });
    const gloss = (text: string): string => text.replace(/花生|过敏|猫毛|用户|芒果|喜欢|对|和|猫/gu, (w) => ` ${GLOSSES[w]} `).replace(/\s+/gu, ' ').trim();
    return testMemory({ embedder: { ...hash, embed: (t) => hash.embed(t), bridge: (texts) => Promise.resolve(texts.map(gloss)) } });
  };
  const open = closesAfterEach(bridged, (memory) => memory.close());

  it.each([
    { lang: 'zh → en', topic: '花生', gone: ['用户对花生和芒果过敏', 'The user is allergic to peanuts'], kept: ['The user is allergic to cats', '用户对猫毛过敏'], said: 'I am allergic to peanuts' },
    { lang: 'en → zh', topic: 'peanut allergy', gone: ['The user is allergic to peanuts', '用户对花生和芒果过敏'], kept: ['The user is allergic to cats', '用户对猫毛过敏'], said: '我对花生过敏' },
  ])('$lang: "$topic" forgets what says it in the other language, memories and messages', async ({ topic, gone, kept, said }) => {
    const memory = open();
    for (const content of [...gone, ...kept]) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's0', role: 'user', content: said }] });
    expect((await previewForgetTopic(memory.deps, 'u', topic)).map((p) => p.content).sort()).toEqual([...gone].sort());
    expect((await memory.forgetTopic('u', topic)).messages).toBe(1);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual([...kept].sort());
  });

  it.each([
    ['zh', '忘掉我的生日', "The user's wife's birthday is May 5"],
    ['en', 'forget my birthday', '用户老婆的生日是5月5日'],
  ])("%s: the user's own is told by the words around a mention, not across languages: \"%s\" leaves \"%s\"", async (_lang, request, wifes) => {
    const memory = open();
    await memory.add({ userId: 'u', content: wifes });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: request }] });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual([wifes]);
  });
});

describe('the bundled embedder bridges the languages for forgetting', () => {
  it('"花生" finds "The user is allergic to peanuts", "peanut allergy" finds "用户对花生和芒果过敏"', async () => {
    const memory = testMemory({ embedder: createBundledEmbedder() });
    try {
      for (const content of ['The user is allergic to peanuts', '用户对花生和芒果过敏', 'The user is allergic to cats', '用户喜欢猫']) await memory.add({ userId: 'u', content });
      expect((await previewForgetTopic(memory.deps, 'u', '花生')).map((p) => p.content).sort()).toEqual(['The user is allergic to peanuts', '用户对花生和芒果过敏']);
      expect((await previewForgetTopic(memory.deps, 'u', 'peanut allergy')).map((p) => p.content).sort()).toEqual(['The user is allergic to peanuts', '用户对花生和芒果过敏']);
    } finally {
      await memory.close();
    }
  }, 60_000);
});
