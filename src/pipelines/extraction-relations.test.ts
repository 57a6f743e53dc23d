import { afterEach, describe, expect, it } from 'vitest';
import type { ExtractMemoriesInput } from '../prompts/extract-memories.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { testMemory } from '../testing/test-memory.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});

const aliasOf = (input: unknown, content: string): string => {
  const shown = (input as ExtractMemoriesInput).existing.find((m) => m.content === content);
  if (!shown) throw new Error(`"${content}" was not shown to the extractor`);
  return shown.alias;
};

describe('model extraction writes relations it knows (issue 12 item 6)', () => {
  it.each([
    ['zh', '用户住在上海', '用户喜欢喝咖啡', '用户每天在上海坐地铁上班', '我每天在上海坐地铁上班，最近不喝咖啡了，改喝茶', '用户现在喝茶，不再喝咖啡'],
    ['en', 'The user lives in Berlin', 'The user loves coffee', 'The user commutes by U-Bahn in Berlin every day', 'I take the U-Bahn in Berlin every day; lately I drink tea, not coffee', 'The user now drinks tea instead of coffee'],
  ])('%s: supports / refines / contradicts on adds and updates; an invented alias is rejected visibly', async (_, home, coffee, commute, said, tea) => {
    const model = scriptedModel((id, input) => {
      if (id !== 'extract-memories') throw new Error(`unexpected prompt ${id}`);
      return {
        operations: [
          { op: 'add', kind: 'fact', content: commute, importance: 0.5, relations: [{ type: 'supports', target: aliasOf(input, home), strength: 0.9 }, { type: 'refines', target: '99' }] },
          { op: 'add', kind: 'preference', content: tea, importance: 0.6, relations: [{ type: 'contradicts', target: aliasOf(input, coffee), reason: tea }] },
        ],
        reason: 'two new facts',
      };
    });
    const memory = testMemory({ model });
    engines.push(memory);
    const a = await memory.add({ userId: 'u', kind: 'identity', content: home, importance: 0.9 });
    const c = await memory.add({ userId: 'u', kind: 'preference', content: coffee, importance: 0.7 });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: said }] });
    const report = await memory.extract('u', 's');
    expect(report).toMatchObject({ status: 'applied', added: 2 });
    expect(report.rejected).toEqual([{ op: 'add.relation', target: '99', reason: 'alias was not shown' }]);
    expect((await memory.extractionRuns('u', 's')).at(-1)!.rejected).toEqual(report.rejected);

    const commuteMemory = (await memory.list({ userId: 'u' })).find((m) => m.content === commute)!;
    const teaMemory = (await memory.list({ userId: 'u' })).find((m) => m.content === tea)!;
    expect((await memory.relations('u', a.id)).map((r) => [r.sourceId, r.type, r.targetId, r.strength])).toEqual([[commuteMemory.id, 'supports', a.id, 0.9]]);
    expect((await memory.relations('u', c.id)).map((r) => [r.sourceId, r.type, r.targetId, r.reason])).toEqual([[teaMemory.id, 'contradicts', c.id, tea]]);
  });

  it.each([
    ['zh', '用户在学吉他', '用户喜欢吉他音乐', '用户在学吉他，每周上两节课', '我在学吉他，现在每周上两节课'],
    ['en', 'The user is learning the guitar', 'The user loves music', 'The user is learning the guitar, two lessons a week', 'I am learning the guitar, two lessons a week now'],
  ])('%s: an update links the updated memory; self-links and repeats are not written', async (_, guitar, music, detail, said) => {
    const current = (input: unknown): string => (input as ExtractMemoriesInput).existing.find((m) => m.content === guitar || m.content === detail)!.alias;
    const model = scriptedModel((_, input) => ({
      operations: [
        { op: 'update', target: current(input), content: detail, reason: 'more detail', relations: [{ type: 'supports', target: aliasOf(input, music) }, { type: 'refines', target: current(input) }] },
      ],
      reason: 'updated',
    }));
    const memory = testMemory({ model });
    engines.push(memory);
    const g = await memory.add({ userId: 'u', kind: 'fact', content: guitar });
    const m = await memory.add({ userId: 'u', kind: 'preference', content: music });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: said }] });
    const report = await memory.extract('u', 's');
    expect(report, JSON.stringify(report)).toMatchObject({ status: 'applied', updated: 1 });
    expect(report.rejected).toEqual([{ op: 'update.relation', target: expect.any(String), reason: 'a memory cannot relate to itself' }]);
    const links = async () => (await memory.relations('u', m.id)).filter((r) => r.type === 'supports').map((r) => [r.sourceId, r.targetId]);
    expect(await links()).toEqual([[g.id, m.id]]);
    // Said again in a later batch: the same link is not written twice.
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: said }] });
    expect(await memory.extract('u', 's')).toMatchObject({ status: 'applied' });
    expect(await links()).toEqual([[g.id, m.id]]);
  });
});
