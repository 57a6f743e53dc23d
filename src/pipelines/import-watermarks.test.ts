import { describe, expect, it } from 'vitest';
import type { ExtractMemoriesInput } from '../prompts/extract-memories.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { scriptedChat } from '../testing/scripted-chat.js';
import { sequentialIds } from '../testing/clock.js';
import { scriptedModel, type ScriptFunction } from '../testing/scripted-model.js';
import { testMemory } from '../testing/test-memory.js';

const T0 = Date.parse('2026-03-02T10:00:00Z');
const setup = closesAfterEach((script: ScriptFunction) => scriptedChat(script, { at: T0 }), ({ memory }) => memory.close());
/** The engine imported into: its ids are not the ones the exporting test engine gave out. */
const target = closesAfterEach((script: ScriptFunction) => {
  const model = scriptedModel(script);
  return { model, memory: testMemory({ model, ids: sequentialIds('imported') }) };
}, ({ memory }) => memory.close());

const SAID: Record<string, string> = {
  我喜欢猫: '用户喜欢猫',
  "I'm allergic to peanuts": 'The user is allergic to peanuts',
  我下周三要去上海出差: '用户下周三要去上海出差',
};

/** A model that remembers every turn it is shown, as the tester's run did each time it was asked. */
const remembersAll: ScriptFunction = (_, input) => ({
  operations: (input as ExtractMemoriesInput).messages.flatMap((m) => (SAID[m.content] ? [{ op: 'add', kind: 'fact', content: SAID[m.content], sourceMessageIds: [m.ref] }] : [])),
  reason: 'remembered',
});

/** The user's memories as content → status and importance. */
async function memoriesOf(memory: ReturnType<typeof testMemory>, userId: string) {
  const { memories } = await memory.exportUser(userId);
  return Object.fromEntries(memories.map((m) => [m.content, `${m.status} ${m.importance}`]));
}

describe('importing an export does not extract its messages again', () => {
  it.each([
    { file: 'with session watermarks', strip: false },
    { file: 'written before exports carried watermarks', strip: true },
  ])('a file $file: the deleted 用户喜欢猫 stays deleted, importances stay (zh, en)', async ({ strip }) => {
    const { memory, say } = setup(remembersAll);
    await say('s1', ['user', '我喜欢猫'], ['user', "I'm allergic to peanuts"], ['user', '我下周三要去上海出差']);
    expect(await memory.extract('u', 's1')).toMatchObject({ status: 'applied', added: 3 });
    const cat = (await memory.list({ userId: 'u' })).find((m) => m.content === '用户喜欢猫')!;
    await memory.delete('u', cat.id);
    const before = await memoriesOf(memory, 'u');
    expect(before['用户喜欢猫']).toMatch(/^deleted/);

    const file = JSON.parse(JSON.stringify(await memory.exportUser('u'))) as Record<string, unknown>;
    if (strip) delete file.sessions;
    else expect(file.sessions).toEqual([{ id: 's1', processedSeq: 2, summarizedSeq: -1 }]);

    const other = target(remembersAll);
    await other.memory.importUser(file, { userId: 'v' });
    // Nothing for the server's scheduler either.
    expect(await other.memory.deps.store.sessionsWithBacklog(10)).toEqual([]);
    expect(await other.memory.extract('v', 's1')).toMatchObject({ added: 0, reinforced: 0, messages: 0 });
    expect(await memoriesOf(other.memory, 'v')).toEqual(before);
    expect(other.model.calls).toHaveLength(0);
  });

  it('messages after the watermark are still extracted after an import, those before it not again', async () => {
    const { memory, say } = setup(remembersAll);
    await say('s1', ['user', '我喜欢猫'], ['assistant', '好的']);
    await memory.extract('u', 's1');
    await memory.delete('u', (await memory.list({ userId: 'u' }))[0]!.id);
    await say('s1', ['user', "I'm allergic to peanuts"]);
    await memory.endSession('u', 's1');

    const other = target(remembersAll);
    await other.memory.importUser(JSON.parse(JSON.stringify(await memory.exportUser('u'))), { userId: 'v' });
    const session = await other.memory.getSession('v', 's1');
    expect(session).toMatchObject({ processedSeq: 1, endedAt: memory.clock.now() });
    expect(await other.memory.extract('v', 's1')).toMatchObject({ status: 'applied', added: 1, messages: 1 });
    expect(await memoriesOf(other.memory, 'v')).toMatchObject({ 用户喜欢猫: expect.stringMatching(/^deleted/), 'The user is allergic to peanuts': expect.stringMatching(/^active/) });
  });

  it('refuses a file that gives one session twice, naming it, and writes nothing', async () => {
    const { memory, say } = setup(remembersAll);
    await say('s1', ['user', '我喜欢猫']);
    const file = JSON.parse(JSON.stringify(await memory.exportUser('u'))) as { sessions: unknown[] };
    file.sessions = [...file.sessions, ...file.sessions];
    const other = target(remembersAll);
    await expect(other.memory.importUser(file, { userId: 'v' })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('sessions.1: session s1 is given twice') });
    expect(await other.memory.exportUser('v')).toMatchObject({ memories: [], messages: [] });
  });
});
