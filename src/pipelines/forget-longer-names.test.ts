import { describe, expect, it } from 'vitest';
import { previewForgetTopic } from './forget-preview.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';
import { scriptedChat } from '../testing/scripted-chat.js';
import { scriptedModel, type ScriptFunction } from '../testing/scripted-model.js';
import type { UpdateProfileInput } from '../prompts/update-profile.js';

const engine = closesAfterEach(() => testMemory(), (memory) => memory.close());

/** Someone, and someone else whose name begins with theirs: in Chinese 刘强 and 刘强东, in English Sam and Samantha. */
const PEOPLE = [
  {
    lang: 'zh',
    name: '刘强',
    theirs: ['用户的同事叫刘强', '刘强喜欢打篮球'],
    theirSaid: '刘强今天请我吃饭',
    others: ['用户在读刘强东的自传', '刘强东创办了京东'],
    othersSaid: '我最近在读刘强东的自传，挺有意思',
  },
  {
    lang: 'en',
    name: 'Sam',
    theirs: ["The user's coworker is named Sam", 'Sam plays basketball'],
    theirSaid: 'Sam bought me lunch today',
    others: ["The user is reading Samantha Power's memoir", 'Samantha Power was a US ambassador'],
    othersSaid: "I'm reading Samantha Power's memoir, it's good",
  },
];

/** The user's memories and messages of both, in one engine. */
async function remembered(p: (typeof PEOPLE)[number]): Promise<ReturnType<typeof testMemory>> {
  const memory = engine();
  for (const content of [...p.theirs, ...p.others]) await memory.add({ userId: 'u', content });
  await memory.appendMessages({ messages: [p.theirSaid, p.othersSaid].map((content) => ({ userId: 'u', sessionId: 's0', role: 'user' as const, content })) });
  return memory;
}

const contents = async (memory: ReturnType<typeof testMemory>): Promise<string[]> => (await memory.list({ userId: 'u', statuses: ['active', 'archived', 'deleted'] })).filter((m) => m.status !== 'deleted').map((m) => m.content).sort();
const said = async (memory: ReturnType<typeof testMemory>): Promise<string[]> => (await memory.exportUser('u')).messages.map((m) => m.content);

describe('forgetting someone by name leaves whoever\'s name begins with it (刘强 / 刘强东, Sam / Samantha)', () => {
  it.each([
    { ...PEOPLE[0]!, request: '忘掉刘强的事' },
    { ...PEOPLE[0]!, request: '别记住刘强' },
    { ...PEOPLE[1]!, request: 'forget what I told you about Sam' },
  ])('$lang: "$request" forgets theirs, memories and messages, and only theirs', async (p) => {
    const memory = await remembered(p);
    const result = await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's1', role: 'user', content: p.request }] });
    expect(result.forgotten?.[0]).toMatchObject({ topic: p.name, memories: p.theirs.length });
    expect(await contents(memory)).toEqual([...p.others].sort());
    expect(await said(memory)).toEqual([p.othersSaid]);
  });

  it.each(PEOPLE)('$lang: forgetTopic (the page, the API, MCP, the CLI) and its dry run take the same', async (p) => {
    const memory = await remembered(p);
    expect((await previewForgetTopic(memory.deps, 'u', p.name)).map((m) => m.content).sort()).toEqual([...p.theirs].sort());
    const report = await memory.forgetTopic('u', p.name);
    expect(report).toMatchObject({ forgotten: expect.any(Array), messages: 1 });
    expect(report.forgotten).toHaveLength(p.theirs.length);
    expect(await contents(memory)).toEqual([...p.others].sort());
    expect(await said(memory)).toEqual([p.othersSaid]);
  });

  it.each([
    ['zh', '刘强', ['刘强说他下周去上海', '刘强今天加班', '刘强也喜欢猫', '刘强都三十岁了', '刘强在北京工作', '刘强是程序员', '刘强家养了一只狗', '刘强和刘强东是两个人', '刘强东西很多，搬家很累', '刘强种的菜很好吃', '刘强烤的蛋糕很甜']],
    ['en', 'Sam', ["Sam said he'd visit", 'Sam and Samantha are cousins', "Sam's dog is named Rex"]],
  ])('%s: every other mention of %s is still theirs: a word after the name (a verb no name ends in too), or both named', async (_lang, name, texts) => {
    const memory = engine();
    for (const content of [...texts, name === 'Sam' ? "Samantha Power's memoir is on the user's desk" : '用户在读刘强东的自传']) await memory.add({ userId: 'u', content });
    expect((await previewForgetTopic(memory.deps, 'u', name)).map((m) => m.content).sort()).toEqual([...texts].sort());
  });
});

describe('a todo or a profile sentence about the other one stays', () => {
  it.each([
    { lang: 'zh', name: '刘强', theirs: '用户的同事叫刘强', theirTodo: '给刘强回电话', others: '用户在读刘强东的自传', othersTodo: '看刘强东的直播' },
    { lang: 'en', name: 'Sam', theirs: "The user's coworker is named Sam", theirTodo: 'Call Sam back', others: "The user is reading Samantha Power's memoir", othersTodo: "Finish Samantha Power's memoir" },
  ])('$lang: forgetting $name', async ({ name, theirs, theirTodo, others, othersTodo }) => {
    const memory = engine();
    for (const content of [theirs, others]) await memory.add({ userId: 'u', content, importance: 0.9 });
    for (const [i, content] of [theirTodo, othersTodo].entries()) {
      await memory.deps.store.insertTodo({ id: `t${i}`, userId: 'u', content, completed: false, reminded: false, createdAt: memory.clock.now(), deliveryAttempts: 0 });
    }
    await memory.updateProfile('u', { force: true });
    await memory.forgetTopic('u', name);
    expect((await memory.listTodos({ userId: 'u' })).map((t) => t.content)).toEqual([othersTodo]);
    const profile = await memory.profile('u');
    expect(profile?.narrative).toContain(others);
    expect(profile?.narrative).not.toContain(theirs);
  });
});

describe('the profile\'s model is told who else the name is not', () => {
  it.each([
    { ...PEOPLE[0]!, told: '刘强（不是刘强东）' },
    { ...PEOPLE[1]!, told: 'Sam' },
  ])('$lang: forgetting $name asks the model to leave out "$told"', async ({ name, theirs, others, told }) => {
    const asked: string[] = [];
    const model = scriptedModel((_id, input) => {
      const forget = (input as UpdateProfileInput).forgetTopic;
      if (forget !== undefined) asked.push(forget);
      return { narrative: 'narrative', basicInfo: {}, changes: 'changed' };
    });
    const memory = testMemory({ model });
    try {
      for (const content of [...theirs, ...others]) await memory.add({ userId: 'u', content, importance: 0.9 });
      await memory.updateProfile('u', { force: true });
      await memory.forgetTopic('u', name);
      expect(asked).toEqual([told]);
    } finally {
      await memory.close();
    }
  });
});

describe('the model naming the topic (extract-memories "forget")', () => {
  const chat = closesAfterEach((script: ScriptFunction) => scriptedChat(script, { at: Date.parse('2026-03-02T10:00:00Z') }), ({ memory }) => memory.close());
  /** The model asks, for the batch's one user message, to forget `topic`. */
  const asking = (topic: string): ScriptFunction => () => ({ operations: [{ op: 'skip', reason: '' }], forget: [{ topic, ref: 'm1' }], reason: '' });

  it.each([
    { ...PEOPLE[0]!, ask: '刘强的那些事，你都别留着了' },
    { ...PEOPLE[1]!, ask: 'Sam and I are done. Wipe him from your memory, all of it.' },
  ])('$lang: "$name" forgets theirs and leaves the other\'s, as a request at append does', async (p) => {
    const { memory, say } = chat(asking(p.name));
    for (const content of [...p.theirs, ...p.others]) await memory.add({ userId: 'u', content });
    await say('s1', ['user', p.ask]);
    const report = await memory.extract('u', 's1');
    expect(report.forgotten?.[0]).toMatchObject({ topic: p.name, memories: p.theirs.length });
    expect(await contents(memory)).toEqual([...p.others].sort());
  });

  it.each([
    { lang: 'zh', name: '刘强', ask: '我不想再看刘强东的新闻了，他的事你都别留着了', other: '用户在读刘强东的自传' },
    { lang: 'en', name: 'Sam', ask: "I'm done with Samantha Power's books. Wipe her from your memory, all of it.", other: "The user is reading Samantha Power's memoir" },
  ])('$lang: "$name" where the conversation names only someone whose name begins with it is refused: nothing forgotten', async ({ name, ask, other }) => {
    const { memory, say } = chat(asking(name));
    await memory.add({ userId: 'u', content: other });
    await say('s1', ['user', ask]);
    const report = await memory.extract('u', 's1');
    expect(report.forgotten).toBeUndefined();
    expect(report.rejected).toEqual([expect.objectContaining({ op: 'forget', reason: `"${name}" is not named in the conversation` })]);
    expect(await contents(memory)).toEqual([other]);
  });
});
