import { afterEach, describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});

function engine() {
  const memory = testMemory();
  engines.push(memory);
  return memory;
}

const turn = (role: 'user' | 'assistant', content: string, sessionId = 's1') => ({ userId: 'u', sessionId, role, content });

describe('forgetting asked for in conversation', () => {
  it.each([
    {
      lang: 'zh',
      about: ['用户的前女友叫小美', '用户和前女友小美去年分手了'],
      other: ['用户喜欢猫', '用户下周要去杭州出差'],
      said: ['我以前有个前女友叫小美', '我们去年分手了，前女友现在在北京'],
      request: '好的。另外，忘掉我前女友的事吧',
      reply: '好的，关于你前女友的事我已经忘掉了。',
      topic: '前女友',
      name: '小美',
      trace: '前女友',
    },
    {
      lang: 'en',
      about: ["The user's ex is named Sarah", 'The user broke up with their ex last year'],
      // "next week" holds "ex" only inside a word: it is not about the ex.
      other: ['The user loves cats', 'The user has a dentist appointment next week'],
      said: ['my ex sarah and i broke up last year', 'my ex still texts me sometimes'],
      request: 'thanks. also, forget what I told you about my ex',
      reply: "Done, I won't bring up your ex again.",
      topic: 'ex',
      name: 'Sarah',
      trace: ' ex',
    },
  ])('$lang: the memories are deleted (restorable), the messages and the request itself purged; everything else stays', async ({ about, other, said, request, reply, topic, name, trace }) => {
    const memory = engine();
    for (const content of [...about, ...other]) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: said.map((content) => turn('user', content, 's0')) });

    const result = await memory.appendMessages({ messages: [turn('user', request), turn('assistant', reply)] });

    expect(result.forgotten).toEqual([{ messageId: result.appended[0]!.id, topic, names: [name], memories: about.length, messages: said.length + 2 }]);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual([...other].sort());
    const deleted = await memory.list({ userId: 'u', statuses: ['deleted'] });
    expect(deleted.map((m) => m.content).sort()).toEqual([...about].sort());
    expect((await memory.history('u', deleted[0]!.id)).at(-1)).toMatchObject({ actor: 'user', reason: `the user asked in conversation to forget "${topic}"` });
    const { messages } = await memory.exportUser('u');
    expect(JSON.stringify(messages)).not.toContain(trace);
    const block = await memory.context({ userId: 'u', query: request, tokenBudget: 800 });
    expect(block.text).not.toContain(trace);
    // A misread request is undone from the page or the API.
    await memory.restore('u', deleted[0]!.id);
    expect(await memory.list({ userId: 'u' })).toHaveLength(other.length + 1);
  });

  it.each([
    {
      lang: 'zh',
      own: ['用户的生日是3月3日'],
      others: ['用户妻子的生日是5月5日', '小美的生日在下周'],
      ownSaid: '我的生日是3月3号',
      othersSaid: '我老婆的生日是5月5号，别忘了提醒我',
      request: '忘掉我的生日吧',
    },
    {
      lang: 'en',
      own: ["The user's birthday is March 3"],
      others: ["The user's wife's birthday is May 5", "Sarah's birthday is next week"],
      ownSaid: 'my birthday is March 3',
      othersSaid: "my wife's birthday is May 5, remind me before it",
      request: 'forget my birthday',
    },
  ])('$lang: "my birthday" is the user\'s own: the wife\'s and a friend\'s stay, memories and messages', async ({ own, others, ownSaid, othersSaid, request }) => {
    const memory = engine();
    for (const content of [...own, ...others]) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: [turn('user', ownSaid, 's0'), turn('user', othersSaid, 's0')] });

    const result = await memory.appendMessages({ messages: [turn('user', request)] });

    expect(result.forgotten?.[0]).toMatchObject({ memories: own.length, messages: 2 });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual([...others].sort());
    const kept = (await memory.exportUser('u')).messages.map((m) => m.content);
    expect(kept).toEqual([othersSaid]);
  });

  it.each([
    ['zh', '用户的前女友叫小美', '小美喜欢吃日料，她是做设计的', '忘掉我前女友的事', '小美'],
    ['en', "The user's ex is named Sarah", 'Sarah loves sushi and works as a designer', 'forget what I told you about my ex', 'Sarah'],
  ])('%s: whoever the memories name the topic is forgotten with it (messages that only say her name)', async (_lang, naming, said, request, name) => {
    const memory = engine();
    await memory.add({ userId: 'u', content: naming });
    await memory.add({ userId: 'u', content: 'The user loves cats' });
    await memory.appendMessages({ messages: [turn('user', said, 's0')] });
    const result = await memory.appendMessages({ messages: [turn('user', request)] });
    expect(result.forgotten?.[0]).toMatchObject({ names: [name], memories: 1 });
    expect(JSON.stringify((await memory.exportUser('u')).messages)).not.toContain(name);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual(['The user loves cats']);
  });

  it.each([
    ['zh', '用户住在上海浦东新区张江路100号', '用户的妈妈住在杭州', '我住在上海浦东新区张江路100号', '别记住我的住址', '张江路'],
    ['en', 'The user lives at 12 Pine Street, Seattle', "The user's mom lives in Ohio", 'I live at 12 Pine Street', 'delete my address from your memory', 'Pine Street'],
  ])('%s: an address is found by how memories say it ("用户住在", "lives at"), the mother\'s stays', async (_lang, own, mothers, said, request, trace) => {
    const memory = engine();
    await memory.add({ userId: 'u', content: own });
    await memory.add({ userId: 'u', content: mothers });
    await memory.appendMessages({ messages: [turn('user', said, 's0')] });
    const result = await memory.appendMessages({ messages: [turn('user', request)] });
    expect(result.forgotten?.[0]).toMatchObject({ memories: 1, messages: 2 });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual([mothers]);
    expect(JSON.stringify((await memory.exportUser('u')).messages)).not.toContain(trace);
  });

  it.each([
    ['zh', ['我忘了带钥匙', '别忘了周五还信用卡', '我想忘掉他', '算了，忘了吧'], '用户喜欢猫'],
    ['en', ['I always forget to call mom', "don't forget the milk", 'forget it', "I don't remember anything about it"], 'The user loves cats'],
  ])('%s: forgetting spoken of, not asked for, erases nothing', async (_lang, messages, kept) => {
    const memory = engine();
    await memory.add({ userId: 'u', content: kept });
    const result = await memory.appendMessages({ messages: messages.map((content) => turn('user', content)) });
    expect(result.forgotten).toBeUndefined();
    expect(result.appended).toHaveLength(messages.length);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual([kept]);
    expect(await memory.workingWindow('u', 's1')).toHaveLength(messages.length);
  });

  it.each([
    { request: 'forget sarah', remembered: ["The user's ex is Sarah", 'Sarah loves sushi'], kept: ['The user loves tacos'] },
    { request: 'Forget Sarah.', remembered: ["The user's ex is Sarah"], kept: ['用户喜欢猫'] },
    { request: 'FORGET SARAH', remembered: ["The user's ex is Sarah"], kept: ['The user loves tacos'] },
  ])('a bare name ("$request") forgets someone remembered by that name', async ({ request, remembered, kept }) => {
    const memory = engine();
    for (const content of [...remembered, ...kept]) await memory.add({ userId: 'u', content });
    const result = await memory.appendMessages({ messages: [turn('user', request)] });
    expect(result.forgotten?.[0]).toMatchObject({ memories: remembered.length });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual(kept);
  });

  it('traditional characters: "別記住我前女友的事" forgets the memories written so ("用戶的前女友叫小美")', async () => {
    const memory = engine();
    for (const content of ['用戶的前女友叫小美', '用戶喜歡貓']) await memory.add({ userId: 'u', content });
    const result = await memory.appendMessages({ messages: [turn('user', '別記住我前女友的事')] });
    expect(result.forgotten?.[0]).toMatchObject({ topic: '前女友', names: ['小美'], memories: 1 });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual(['用戶喜歡貓']);
  });

  it('a bare name said just before, not yet extracted, is someone: "My ex is Sarah…" then "forget sarah"', async () => {
    const memory = engine();
    await memory.add({ userId: 'u', content: 'The user loves cats' });
    await memory.appendMessages({ messages: [turn('user', 'My ex is Sarah, she loves sushi'), turn('assistant', 'Got it.')] });
    const result = await memory.appendMessages({ messages: [turn('user', 'forget sarah')] });
    expect(result.forgotten?.[0]).toMatchObject({ topic: 'sarah' });
    expect((await memory.workingWindow('u', 's1')).map((m) => m.content)).toEqual(['Got it.']);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual(['The user loves cats']);
  });

  it.each([
    { lang: 'en', said: ['what should we cook tonight? maybe tacos', 'forget tacos'], remembered: 'The user loves tacos' },
    { lang: 'en', said: ['is Paris nice in winter?', 'Forget Paris.'], remembered: 'The user wants to visit Rome' },
  ])('$lang: a bare "forget X" naming no one remembered is "never mind X": nothing erased, no message purged', async ({ said, remembered }) => {
    const memory = engine();
    await memory.add({ userId: 'u', content: remembered });
    const result = await memory.appendMessages({ messages: said.map((content) => turn('user', content)) });
    expect(result.forgotten).toBeUndefined();
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual([remembered]);
    expect((await memory.workingWindow('u', 's1')).map((m) => m.content)).toEqual(said);
  });

  it.each([
    {
      lang: 'en',
      request: 'forget my birthday',
      about: ["The user's birthday is March 3"],
      kept: ['The user starts a new job in March', 'The user loves Canadian bacon'],
      said: ['I have a dentist appointment in March'],
    },
    { lang: 'en', request: 'Forget what I told you about my ex', about: ["The user's ex is Canadian"], kept: ["The user's wife is Canadian too", 'The user loves Canadian bacon'], said: ['My wife is Canadian'] },
    { lang: 'zh', request: '忘掉我前女友的事', about: ['用户的前女友是护士'], kept: ['用户的妈妈是护士，在人民医院工作'], said: ['我妈是护士'] },
  ])('$lang: what the topic *is* ("$about.0") is no name: only its own memories go', async ({ request, about, kept, said }) => {
    const memory = engine();
    for (const content of [...about, ...kept]) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: said.map((content) => turn('user', content, 's0')) });
    const result = await memory.appendMessages({ messages: [turn('user', request)] });
    expect(result.forgotten?.[0]).toMatchObject({ memories: about.length });
    expect(result.forgotten?.[0]?.names).toBeUndefined();
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual([...kept].sort());
    expect((await memory.workingWindow('u', 's0')).map((m) => m.content)).toEqual(said);
  });

  it.each([
    { request: 'forget will', memories: ["The user's brother is Will"], said: ['I will call mom tomorrow', 'My brother Will is visiting'] },
    { request: 'Forget Mark.', memories: ["The user's coworker is Mark", 'The user needs to mark the exams by Friday'], said: ['I need to mark 40 exams'] },
    { request: 'forget tesla', memories: ['The user is considering buying a Tesla'], said: ['should I buy a Tesla?'] },
    { request: 'Forget Paris.', memories: ["The user's hometown is Paris"], said: ['I miss Paris so much'] },
  ])('a bare "$request" that is a common word or no one: nothing erased', async ({ request, memories, said }) => {
    const memory = engine();
    for (const content of memories) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: said.map((content) => turn('user', content)) });
    const result = await memory.appendMessages({ messages: [turn('user', request)] });
    expect(result.forgotten).toBeUndefined();
    expect(await memory.list({ userId: 'u' })).toHaveLength(memories.length);
    expect((await memory.workingWindow('u', 's1')).map((m) => m.content)).toEqual([...said, request]);
  });

  it.each([
    {
      lang: 'en',
      request: 'Please delete my address from your memory',
      own: ['The user lives at 12 Pine Street'],
      others: ["The user's mom's address is 5 Oak St"],
      said: ["What's the IP address of my router?", "Send the invite to Anna's email address"],
    },
    {
      lang: 'zh',
      request: '删掉我的手机号',
      own: ['用户的手机号是13800000000'],
      others: ['用户妈妈的电话是13911111111'],
      said: ['我妈的电话是13911111111，帮我记一下'],
    },
  ])("$lang: the user's own address or phone goes; the mother's, and other addresses, stay", async ({ request, own, others, said }) => {
    const memory = engine();
    for (const content of [...own, ...others]) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: said.map((content) => turn('user', content, 's0')) });
    const result = await memory.appendMessages({ messages: [turn('user', request)] });
    expect(result.forgotten?.[0]).toMatchObject({ memories: own.length });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual(others);
    expect((await memory.workingWindow('u', 's0')).map((m) => m.content)).toEqual(said);
  });

  it('only the user can ask: an assistant saying "forget your ex" erases nothing; another user is untouched', async () => {
    const memory = engine();
    await memory.add({ userId: 'u', content: "The user's ex is named Sarah" });
    await memory.add({ userId: 'v', content: "The user's ex is named Tom" });
    const said = await memory.appendMessages({ messages: [turn('assistant', 'Maybe forget about your ex for a while?')] });
    expect(said.forgotten).toBeUndefined();
    await memory.appendMessages({ messages: [turn('user', 'forget my ex')] });
    expect(await memory.list({ userId: 'u' })).toEqual([]);
    expect((await memory.list({ userId: 'v' })).map((m) => m.content)).toEqual(["The user's ex is named Tom"]);
  });
});
