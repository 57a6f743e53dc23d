import { describe, expect, it } from 'vitest';
import { readForgetRequest } from '../extraction/forget-request.js';
import type { ExtractMemoriesInput } from '../prompts/extract-memories.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { scriptedChat } from '../testing/scripted-chat.js';
import type { ScriptFunction } from '../testing/scripted-model.js';

const T0 = Date.parse('2026-03-02T10:00:00Z');
const setup = closesAfterEach((script: ScriptFunction) => scriptedChat(script, { at: T0 }), ({ memory }) => memory.close());

/** The model's answer for a batch: the first call remembers, the second asks to forget (or whatever `second` says). */
const twoCalls = (first: unknown, second: (input: ExtractMemoriesInput) => unknown): ScriptFunction => {
  let calls = 0;
  return (_, input) => (++calls === 1 ? first : second(input as ExtractMemoriesInput));
};

describe('forgetting the model read as asked (extract-memories "forget")', () => {
  it.each([
    {
      lang: 'zh',
      told: '我前女友叫小美，她特别喜欢吃日料',
      about: ['用户的前女友叫小美', '小美喜欢吃日料'],
      other: '用户喜欢猫',
      otherSaid: '对了，我很喜欢猫',
      // Read by the model, not by the patterns at append: the request names her only by a pronoun of the turn before.
      ask: '我们早就分了。关于她的一切，你都别留着了',
      topic: '小美',
    },
    {
      lang: 'en',
      told: 'My ex is Sarah, she loves sushi',
      about: ["The user's ex is Sarah", 'Sarah loves sushi'],
      other: 'The user loves cats',
      otherSaid: 'By the way, I love cats',
      ask: "We're done for good. Wipe her from your memory, all of it.",
      topic: 'Sarah',
    },
  ])('$lang: the topic is forgotten as a request read at append is (memories deleted restorably, messages purged)', async ({ told, about, other, otherSaid, ask, topic }) => {
    expect(readForgetRequest(ask)).toBeUndefined();
    const { memory, say } = setup(
      twoCalls(
        { operations: [...about, other].map((content) => ({ op: 'add', kind: 'fact', content, sourceMessageIds: ['m1'] })), reason: 'remembered' },
        (input) => ({ operations: [{ op: 'skip', reason: 'a request to forget' }], forget: [{ topic, ref: input.messages.find((m) => m.content === ask)!.ref }], reason: 'asked to forget' }),
      ),
    );
    await say('s1', ['user', told], ['user', otherSaid]);
    await memory.extract('u', 's1');
    await say('s1', ['user', ask], ['assistant', 'OK.']);

    const report = await memory.extract('u', 's1');

    expect(report).toMatchObject({ status: 'applied', rejected: [] });
    expect(report.forgotten).toEqual([expect.objectContaining({ messageId: 'msg-3', topic, memories: about.length })]);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual([other]);
    const deleted = await memory.list({ userId: 'u', statuses: ['deleted'] });
    expect(deleted.map((m) => m.content).sort()).toEqual([...about].sort());
    expect((await memory.history('u', deleted[0]!.id)).at(-1)).toMatchObject({ actor: 'user', reason: `the user asked in conversation to forget "${topic}"` });
    const { messages } = await memory.exportUser('u');
    expect(messages.map((m) => m.content)).toEqual([otherSaid, 'OK.']);
  });


  it.each([
    { lang: 'zh', whose: "the user's own", remembered: ['用户的生日是3月3日', '用户妻子的生日是5月5日'], ask: '还有我生日那个，你也别留着了', topic: '用户的生日', kept: ['用户妻子的生日是5月5日'] },
    { lang: 'en', whose: "the user's own", remembered: ["The user's birthday is March 3", "The user's wife's birthday is May 5"], ask: 'Also my birthday: wipe it, please.', topic: 'my birthday', kept: ["The user's wife's birthday is May 5"] },
    { lang: 'zh', whose: "someone's", remembered: ['用户的生日是3月3日', '用户老婆的生日是5月5日'], ask: '还有我老婆生日那个，你也别留着了', topic: '用户老婆的生日', kept: ['用户的生日是3月3日'] },
    { lang: 'en', whose: "someone's", remembered: ["The user's birthday is March 3", "The user's wife's birthday is May 5"], ask: "Also my wife's birthday: wipe it, please.", topic: "my wife's birthday", kept: ["The user's birthday is March 3"] },
  ])('$lang: a topic the model names as $whose ("$topic") leaves the other\'s', async ({ remembered, ask, topic, kept }) => {
    expect(readForgetRequest(ask)).toBeUndefined();
    const { memory, say } = setup(
      twoCalls(
        { operations: remembered.map((content) => ({ op: 'add', kind: 'fact', content, sourceMessageIds: ['m1'] })), reason: 'remembered' },
        (input) => ({ operations: [{ op: 'skip', reason: 'a request to forget' }], forget: [{ topic, ref: input.messages.find((m) => m.content === ask)!.ref }], reason: 'asked to forget' }),
      ),
    );
    await say('s1', ['user', '生日 / birthday: March 3, my wife May 5']);
    await memory.extract('u', 's1');
    await say('s1', ['user', ask], ['assistant', 'OK.']);

    const report = await memory.extract('u', 's1');

    expect(report.forgotten).toEqual([expect.objectContaining({ memories: 1 })]);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual(kept);
  });

  it.each([
    { lang: 'zh', said: '我和刘强吵翻了，以后你脑子里别存着刘强这个人', topic: '刘强', added: '用户和刘强吵翻了' },
    { lang: 'en', said: "I had a fight with Mark. Don't keep anything about Mark around.", topic: 'Mark', added: 'The user had a fight with Mark' },
  ])('$lang: what the same batch added about the topic goes too', async ({ said, topic, added }) => {
    expect(readForgetRequest(said)).toBeUndefined();
    const { memory, say } = setup(() => ({ operations: [{ op: 'add', kind: 'event', content: added, sourceMessageIds: ['m1'] }], forget: [{ topic, ref: 'm1' }], reason: '' }));
    await say('s1', ['user', said]);
    const report = await memory.extract('u', 's1');
    expect(report.forgotten?.[0]).toMatchObject({ topic, memories: 1 });
    expect(await memory.list({ userId: 'u' })).toEqual([]);
  });

  it.each([
    { lang: 'zh', userSays: '我喜欢猫，我朋友小王喜欢狗。忘了我刚说的吧', assistantSays: '好的，我记下了。' },
    { lang: 'en', userSays: 'I love cats and my friend Bob loves dogs. Forget what I said.', assistantSays: 'Got it, noted.' },
  ])('$lang: an invented ref, the assistant, "the user", a topic nobody said: rejected and recorded, nothing forgotten', async ({ userSays, assistantSays }) => {
    const bob = userSays.includes('Bob') ? 'Bob' : '小王';
    const { memory, say } = setup(() => ({
      operations: [{ op: 'add', kind: 'preference', content: userSays, sourceMessageIds: ['m1'] }],
      forget: [
        { topic: bob, ref: 'm9' },
        { topic: bob, ref: 'm2' },
        { topic: userSays.includes('Bob') ? 'the user' : '用户', ref: 'm1' },
        { topic: userSays.includes('Bob') ? 'Alice' : '小美', ref: 'm1' },
      ],
      reason: '',
    }));
    await say('s1', ['user', userSays], ['assistant', assistantSays]);
    const report = await memory.extract('u', 's1');
    expect(report.forgotten).toBeUndefined();
    expect(report.rejected.map((r) => [r.op, r.target, r.reason.split(' ')[0]])).toEqual([
      ['forget', 'm9', 'unknown'],
      ['forget', 'm2', 'only'],
      ['forget', 'm1', expect.stringMatching(/^"/)],
      ['forget', 'm1', expect.stringMatching(/^"/)],
    ]);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual([userSays]);
    expect((await memory.exportUser('u')).messages).toHaveLength(2);
  });

  it.each([
    { lang: 'zh', said: '我昨天跟你说的那些，你都别留着了', topic: '昨天', kept: '用户昨天去了医院' },
    { lang: 'en', said: 'Wipe what I told you yesterday from your memory, all of it.', topic: 'yesterday', kept: 'The user went to the doctor yesterday' },
  ])('$lang: a time the model names as the topic ("$topic") is refused: the word would erase every turn that says it', async ({ said, topic, kept }) => {
    const { memory, say } = setup(() => ({ operations: [{ op: 'skip', reason: '' }], forget: [{ topic, ref: 'm1' }], reason: '' }));
    await memory.add({ userId: 'u', content: kept });
    await say('s1', ['user', said]);
    const report = await memory.extract('u', 's1');
    expect(report.forgotten).toBeUndefined();
    expect(report.rejected).toEqual([expect.objectContaining({ op: 'forget', reason: expect.stringContaining('a time') })]);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual([kept]);
  });

  it.each([
    { lang: 'zh', said: '王总今天又骂人了，气死我了', topic: '王总' },
    { lang: 'en', said: "I keep forgetting Sarah's birthday", topic: 'Sarah' },
  ])('$lang: a message that asks nothing to be forgotten: the model\'s reading is refused', async ({ said, topic }) => {
    const { memory, say } = setup(() => ({ operations: [{ op: 'skip', reason: '' }], forget: [{ topic, ref: 'm1' }], reason: '' }));
    await memory.add({ userId: 'u', content: `${topic} is someone the user knows / 用户认识${topic}` });
    await say('s1', ['user', said]);
    const report = await memory.extract('u', 's1');
    expect(report.forgotten).toBeUndefined();
    expect(report.rejected).toEqual([expect.objectContaining({ op: 'forget', reason: 'the message asks nothing to be forgotten' })]);
    expect(await memory.list({ userId: 'u' })).toHaveLength(1);
  });

  it('a model that answers "forget": null is read as asking nothing (as many servers send absent fields)', async () => {
    const { memory, say } = setup(() => ({ operations: [{ op: 'add', kind: 'preference', content: '用户喜欢猫 / The user likes cats', sourceMessageIds: ['m1'] }], forget: null, reason: '' }));
    await say('s1', ['user', '我喜欢猫 — I like cats']);
    expect(await memory.extract('u', 's1')).toMatchObject({ status: 'applied', added: 1, rejected: [] });
  });

  it('more than three topics in one batch: the rest are rejected (a model listing many has misread)', async () => {
    const names = ['小王', '小李', 'Mark', 'Anna', 'Bob'];
    const { memory, say } = setup(() => ({ operations: [{ op: 'skip', reason: '' }], forget: names.map((topic) => ({ topic, ref: 'm1' })), reason: '' }));
    await say('s1', ['user', `${names.join('、')}的事都别记了 / forget them all`]);
    const report = await memory.extract('u', 's1');
    expect(report.forgotten?.map((f) => f.topic)).toEqual(names.slice(0, 3));
    expect(report.rejected.map((r) => r.reason)).toEqual([expect.stringContaining('more than 3'), expect.stringContaining('more than 3')]);
  });

  it.each([
    { lang: 'zh', ask: '我的住址你别存着了，不安全', topic: '住址', lives: '用户住在上海浦东' },
    { lang: 'en', ask: "Stop keeping track of where I live, it's creepy", topic: 'where I live', lives: 'The user lives in Seattle' },
  ])("$lang: the user's own data is found by the words memories use for it", async ({ ask, topic, lives }) => {
    expect(readForgetRequest(ask)).toBeUndefined();
    const { memory, say } = setup(() => ({ operations: [{ op: 'skip', reason: '' }], forget: [{ topic, ref: 'm1' }], reason: '' }));
    await memory.add({ userId: 'u', content: lives });
    await say('s1', ['user', ask]);
    const report = await memory.extract('u', 's1');
    expect(report.forgotten?.[0]).toMatchObject({ topic, memories: 1 });
    expect(await memory.list({ userId: 'u' })).toEqual([]);
  });
});
