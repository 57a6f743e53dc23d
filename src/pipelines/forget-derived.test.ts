import { afterEach, describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';
import { previewForgetTopic } from './forget-preview.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});

describe('forgetting a topic takes what was drawn from its messages and no longer says who', () => {
  it.each([
    {
      lang: 'zh',
      topic: '刘强',
      said: '我前男友叫刘强，他是个程序员，我下周要去上海出差',
      elsewhere: '我同事说他也喜欢猫',
      naming: '用户的前男友叫刘强',
      unnamed: '用户提到的他是程序员',
      ownFact: '用户下周要去上海出差',
      unnamedElsewhere: '用户的同事说他也喜欢猫',
    },
    {
      lang: 'en',
      topic: 'Tom',
      said: "My ex Tom is a chef, he works at Nopa. I'm flying to Denver next week",
      elsewhere: 'My coworker says he likes cats too',
      naming: "The user's ex is Tom, a chef",
      unnamed: 'The user said he works at Nopa',
      ownFact: 'The user is flying to Denver next week',
      unnamedElsewhere: "The user's coworker says he likes cats too",
    },
  ])('$lang: the memory naming the topic and the unnamed one from its message go; a fact of the user\'s own and others stay', async ({ topic, said, elsewhere, naming, unnamed, ownFact, unnamedElsewhere }) => {
    const memory = testMemory();
    engines.push(memory);
    const { appended } = await memory.appendMessages({ messages: [said, elsewhere].map((content) => ({ userId: 'u', sessionId: 's', role: 'user' as const, content })) });
    const [fromTopic, fromElsewhere] = appended.map((m) => ({ messageIds: [m.id] }));
    for (const content of [naming, unnamed, ownFact]) await memory.add({ userId: 'u', content, provenance: fromTopic });
    await memory.add({ userId: 'u', content: unnamedElsewhere, provenance: fromElsewhere });

    expect((await previewForgetTopic(memory.deps, 'u', topic)).map((m) => m.content).sort()).toEqual([naming, unnamed].sort());
    const report = await memory.forgetTopic('u', topic);
    expect(report.forgotten).toHaveLength(2);
    expect(report.messages).toBe(1);
    expect((await memory.list({ userId: 'u', statuses: ['active', 'archived', 'deleted'] })).map((m) => m.content).sort()).toEqual([ownFact, unnamedElsewhere].sort());
  });
});
