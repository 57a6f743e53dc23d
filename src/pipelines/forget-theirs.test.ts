import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';
import { createBundledEmbedder } from '../embedders/bundled-embedder.js';

const engine = closesAfterEach(testMemory, (m) => m.close());
const turn = (role: 'user' | 'assistant', content: string, sessionId = 's1') => ({ userId: 'u', sessionId, role, content });

describe("forgetting someone else's thing asked in conversation (\"forget my wife's birthday\")", () => {
  it.each([
    {
      lang: 'zh',
      theirs: ['用户老婆的生日是5月5日', '李娜的生日快到了，用户想送她一束花'],
      kept: ['用户的生日是3月3日', '用户的妻子叫李娜', '用户妈妈的生日在十月'],
      theirsSaid: '我老婆的生日是5月5号',
      keptSaid: ['我的生日是3月3号', '我妈的生日在十月'],
      request: '忘掉我老婆的生日吧',
      topic: '老婆的生日',
    },
    {
      lang: 'en',
      theirs: ["The user's wife's birthday is May 5", "Anna's birthday is coming up and the user wants to get her flowers"],
      kept: ["The user's birthday is March 3", "The user's wife is named Anna", "The user's mom's birthday is in October"],
      theirsSaid: "my wife's birthday is May 5",
      keptSaid: ['my birthday is March 3', "my mom's birthday is in October"],
      request: "forget my wife's birthday",
      topic: "wife's birthday",
    },
  ])('$lang: hers goes, by the word for her and by her name; the user\'s own, another\'s, and she herself stay', async ({ theirs, kept, theirsSaid, keptSaid, request, topic }) => {
    const memory = engine();
    for (const content of [...theirs, ...kept]) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: [turn('user', theirsSaid, 's0'), ...keptSaid.map((c) => turn('user', c, 's0'))] });

    expect(await memory.forgetRequest({ userId: 'u', content: request })).toEqual({ topic });
    const result = await memory.appendMessages({ messages: [turn('user', request)] });

    expect(result.forgotten).toEqual([{ messageId: result.appended[0]!.id, topic, memories: theirs.length, messages: 2 }]);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual([...kept].sort());
    expect((await memory.list({ userId: 'u', statuses: ['deleted'] })).map((m) => m.content).sort()).toEqual([...theirs].sort());
    expect((await memory.exportUser('u')).messages.map((m) => m.content).sort()).toEqual([...keptSaid].sort());
  });

  it.each([
    ['zh', '用户妈妈的电话是13800000000', '用户的电话是13911111111', '删掉我妈的电话', '13800000000'],
    ['en', "The user's mom's phone number is 555-0101", "The user's phone number is 555-0199", "delete my mom's phone number", '555-0101'],
    ['zh', '用户的妈妈住在杭州西湖区', '用户住在上海浦东', '别记住我妈的住址', '西湖区'],
    ['en', "The user's mom lives in Columbus, Ohio", 'The user lives in Seattle', "forget my mom's address", 'Columbus'],
  ])("%s: their number or address (%s) goes, the user's own stays", async (_lang, theirs, own, request, trace) => {
    const memory = engine();
    await memory.add({ userId: 'u', content: theirs });
    await memory.add({ userId: 'u', content: own });
    const result = await memory.appendMessages({ messages: [turn('user', request)] });
    expect(result.forgotten?.[0]).toMatchObject({ memories: 1 });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual([own]);
    const block = await memory.context({ userId: 'u', query: theirs, tokenBudget: 800 });
    expect(block.text).not.toContain(trace);
  });

  it.each([
    ['zh', '用户的生日是3月3日', '忘掉我老婆的生日'],
    ['en', "The user's birthday is March 3", "forget my wife's birthday"],
  ])('%s: nothing of hers kept: no notice, nothing of the user\'s own taken', async (_lang, own, request) => {
    const memory = engine();
    await memory.add({ userId: 'u', content: own });
    expect(await memory.forgetRequest({ userId: 'u', content: request })).toBeUndefined();
    await memory.appendMessages({ messages: [turn('user', request)] });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual([own]);
  });

  it.each([
    ['zh', ['我忘了我老婆的生日', '忘了我老婆的生日', '别忘了我老婆的生日', '忘掉我老婆的话']],
    ['en', ["I always forget my wife's birthday", "don't forget my wife's birthday", "forget my wife's cooking"]],
  ])('%s: forgetting spoken of, not asked for, erases nothing of hers', async (_lang, messages) => {
    const memory = engine();
    await memory.add({ userId: 'u', content: '用户老婆的生日是5月5日' });
    await memory.add({ userId: 'u', content: "The user's wife's birthday is May 5" });
    const result = await memory.appendMessages({ messages: messages.map((content) => turn('user', content)) });
    expect(result.forgotten).toBeUndefined();
    expect(await memory.list({ userId: 'u' })).toHaveLength(2);
  });

  it.each([
    ['zh', '用户的生日是3月3日。用户老婆的生日是5月5日。', '忘掉我老婆的生日', '5月5日', '3月3日'],
    ['en', "The user's birthday is March 3. The user's wife's birthday is May 5.", "forget my wife's birthday", 'May 5', 'March 3'],
  ])("%s: the profile is rewritten without hers, the user's own stays in it", async (_lang, both, request, hers, own) => {
    const memory = engine();
    for (const content of both.split(/(?<=[。.])\s*/u).filter((s) => s.length > 0)) await memory.add({ userId: 'u', content, importance: 0.9 });
    await memory.updateProfile('u', { force: true });
    expect((await memory.profile('u'))?.narrative).toContain(hers);
    await memory.appendMessages({ messages: [turn('user', request)] });
    const narrative = (await memory.profile('u'))?.narrative ?? '';
    expect(narrative).not.toContain(hers);
    expect(narrative).toContain(own);
  });
});

describe("someone else's thing in the other language (the bundled embedder's glosses)", () => {
  it.each([
    ['en → zh', "forget my wife's birthday", '用户老婆的生日是5月5日', '用户的生日是3月3日'],
    ['zh → en', '忘掉我老婆的生日', "The user's wife's birthday is May 5", "The user's birthday is March 3"],
    ['en → zh', "delete my mom's phone number", '用户妈妈的电话是13800000000', '用户的电话是13911111111'],
  ])('%s: "%s" takes "%s", leaves "%s"', async (_dir, request, theirs, own) => {
    const memory = testMemory({ embedder: createBundledEmbedder() });
    try {
      await memory.add({ userId: 'u', content: theirs });
      await memory.add({ userId: 'u', content: own });
      await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: request }] });
      expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual([own]);
    } finally {
      await memory.close();
    }
  }, 60_000);
});
