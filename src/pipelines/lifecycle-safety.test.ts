import { describe, expect, it } from 'vitest';
import type { ReviewMemoryInput } from '../prompts/review-memory.js';
import { scriptedModel, type ScriptFunction } from '../testing/scripted-model.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';

const make = closesAfterEach(
  (script?: ScriptFunction) => testMemory(script ? { model: scriptedModel(script) } : {}),
  (memory) => memory.close(),
);

describe('the lifecycle never loses what the user said (issue 12.1)', () => {
  it.each([
    ['zh', '用户对青霉素过敏', '用户的女儿叫小雨', '用户有一次提到下雨'],
    ['en', 'The user is allergic to penicillin', "The user's daughter is called Emma", 'The user once mentioned a rainy day'],
  ])('%s: health and family facts and the top of the scale never decay; the rest is archived, never erased', async (_, allergyText, familyText, minorText) => {
    const memory = make();
    const allergy = await memory.add({ userId: 'u', kind: 'fact', content: allergyText, importance: 0.6 });
    const family = await memory.add({ userId: 'u', kind: 'person', content: familyText, importance: 0.4 });
    const top = await memory.add({ userId: 'u', kind: 'preference', content: `${minorText} (1)`, importance: 1 });
    const minor = await memory.add({ userId: 'u', kind: 'fact', content: minorText, importance: 0.3 });
    for (let week = 0; week < 60; week++) {
      memory.clock.advanceDays(7);
      await memory.runLifecycle();
    }
    expect(await memory.get('u', allergy.id)).toMatchObject({ status: 'active', importance: 0.6 });
    expect(await memory.get('u', family.id)).toMatchObject({ status: 'active', importance: 0.4 });
    expect(await memory.get('u', top.id)).toMatchObject({ status: 'active', importance: 1 });
    expect((await memory.history('u', allergy.id)).map((e) => e.action)).toEqual(['create']);

    // Archived: out of recall, but listed, exported and restorable.
    expect(await memory.get('u', minor.id)).toMatchObject({ status: 'archived' });
    expect((await memory.recall({ userId: 'u', query: minorText })).map((r) => r.memory.id)).not.toContain(minor.id);
    expect((await memory.list({ userId: 'u', statuses: ['archived'] })).map((m) => m.id)).toEqual([minor.id]);
    expect((await memory.exportUser('u')).memories.map((m) => m.id)).toContain(minor.id);
    expect((await memory.history('u', minor.id)).at(-1)).toMatchObject({ action: 'archive', actor: 'lifecycle' });
    await memory.restore('u', minor.id);
    expect((await memory.recall({ userId: 'u', query: minorText })).map((r) => r.memory.id)).toContain(minor.id);
  });

  it.each([
    ['zh', '用户有一次提到下雨', '用户提过一家关门的咖啡馆'],
    ['en', 'The user once mentioned a rainy day', 'The user mentioned a café that has since closed'],
  ])('%s: with a model, archiving above the lowest importance is the reviewer’s decision', async (_, keptText, goneText) => {
    const asked: ReviewMemoryInput[] = [];
    const memory = make((id, input) => {
      const i = input as ReviewMemoryInput;
      asked.push(i);
      return i.memory.content === keptText ? { decision: 'keep', reason: 'still true' } : { decision: 'delete', reason: 'outdated' };
    });
    const kept = await memory.add({ userId: 'u', content: keptText, importance: 0.45 });
    const gone = await memory.add({ userId: 'u', content: goneText, importance: 0.45 });
    memory.clock.advanceDays(91);
    await memory.runLifecycle();
    expect(asked.map((a) => [a.mode, a.memory.content]).sort()).toEqual([['decay', goneText], ['decay', keptText]].sort());
    const keptNow = await memory.get('u', kept.id);
    expect(keptNow.status).toBe('active');
    // Keeping never lowers importance below what decay left (the decay-review reset is 0.17).
    expect(keptNow.importance).toBeCloseTo(0.45 * 0.95 ** 13);
    expect(await memory.get('u', gone.id)).toMatchObject({ status: 'archived' });
    expect((await memory.history('u', gone.id)).at(-1)).toMatchObject({ actor: 'review', reason: 'outdated', after: { status: 'archived' } });
    // The kept memory is not asked about again on the next pass.
    await memory.runLifecycle();
    expect(asked).toHaveLength(2);
  });

  it.each([['zh', '用户喜欢拉面'], ['en', 'The user likes ramen']])('%s: a pass that changes nothing writes no history event (issue 12.9)', async (_, text) => {
    const memory = make();
    const m = await memory.add({ userId: 'u', content: text });
    await memory.runLifecycle();
    memory.clock.advanceDays(3);
    await memory.runLifecycle();
    expect((await memory.history('u', m.id)).map((e) => e.action)).toEqual(['create']);
    memory.clock.advanceDays(4);
    await memory.runLifecycle();
    expect((await memory.history('u', m.id)).map((e) => e.action)).toEqual(['create', 'decay']);
  });

  it.each([['zh', '用户喜欢拉面'], ['en', 'The user likes ramen']])('%s: only purge and forget erase', async (_, text) => {
    const memory = make();
    const m = await memory.add({ userId: 'u', content: text, importance: 0.05 });
    memory.clock.advanceDays(400);
    await memory.runLifecycle();
    expect((await memory.get('u', m.id)).status).toBe('archived');
    await memory.purge('u', m.id);
    await expect(memory.get('u', m.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('compression runs in the lifecycle with a model (issue 12.7)', () => {
  it.each([
    ['zh', ['用户喜欢拉面', '用户喜欢寿司', '用户喜欢天妇罗'], '用户喜欢日式料理：拉面、寿司和天妇罗', '用户对青霉素过敏'],
    ['en', ['The user likes ramen', 'The user likes sushi', 'The user likes tempura'], 'The user likes Japanese food: ramen, sushi and tempura', 'The user is allergic to penicillin'],
  ])('%s: after 90 days (seed 004 default), old rarely used memories are merged; health facts never are', async (_, foods, merged, allergy) => {
    const calls: string[] = [];
    const memory = make((id, input) => {
      calls.push(id);
      if (id === 'compress-memories') {
        const i = input as { memories: Array<{ alias: string; content: string }> };
        expect(i.memories.map((m) => m.content)).not.toContain(allergy);
        return { memories: [{ content: merged, importance: 0.6, sources: i.memories.map((m) => m.alias) }] };
      }
      return { decision: 'keep', reason: 'still true' };
    });
    const olds = [];
    for (const f of foods) olds.push(await memory.add({ userId: 'u', kind: 'preference', content: f, importance: 0.7 }));
    const health = await memory.add({ userId: 'u', kind: 'preference', content: allergy, importance: 0.7 });
    memory.clock.advanceDays(60);
    expect((await memory.runLifecycle()).compressions).toEqual([]);
    memory.clock.advanceDays(31);
    const report = await memory.runLifecycle();
    expect(report.compressions).toHaveLength(1);
    expect(report.compressions[0]!.archived.sort()).toEqual(olds.map((m) => m.id).sort());
    expect((await memory.list({ userId: 'u', kinds: ['preference'] })).map((m) => m.content).sort()).toEqual([allergy, merged].sort());
    expect((await memory.get('u', health.id)).status).toBe('active');
  });

  it.each([['zh', '用户喜欢拉面'], ['en', 'The user likes ramen']])('%s: the thresholds are settings', async (_, text) => {
    const seen: number[] = [];
    const memory = make((_, input) => {
      const i = input as { memories: Array<{ alias: string }> };
      seen.push(i.memories.length);
      return { memories: [{ content: `${text} (merged)`, importance: 0.5, sources: i.memories.map((m) => m.alias) }] };
    });
    for (let i = 0; i < 3; i++) await memory.add({ userId: 'u', content: `${text} ${i}` });
    memory.clock.advanceDays(11);
    expect(await memory.compress('u')).toEqual([]);
    expect(seen).toEqual([]);
    await memory.setSettings('u', { compressAfterDays: 10, compressBelowAccesses: 1 });
    expect(await memory.compress('u')).toHaveLength(1);
    expect(seen).toEqual([3]);
  });
});

describe('relations on save (issue 12.6)', () => {
  it.each([
    ['zh', '用户喜欢猫', '用户喜欢猫，尤其是布偶猫'],
    ['en', 'The user likes cats', 'The user likes cats, especially ragdolls'],
  ])('%s: a memory that spells out an existing one refines it, with a strength', async (_, short, long) => {
    const memory = make();
    const a = await memory.add({ userId: 'u', kind: 'preference', content: short });
    const b = await memory.add({ userId: 'u', kind: 'preference', content: long });
    const [rel] = await memory.relations('u', a.id);
    expect(rel).toMatchObject({ sourceId: b.id, targetId: a.id, type: 'refines' });
    expect(rel!.strength).toBeGreaterThan(0.3);
    expect(rel!.strength).toBeLessThan(1);
    const own = await memory.relate({ userId: 'u', sourceId: b.id, targetId: a.id, type: 'supports', strength: 0.6 });
    expect((await memory.relations('u', a.id)).map((r) => r.type)).toEqual(['refines', 'supports']);
    await memory.unrelate('u', own.id);
    await expect(memory.unrelate('u', own.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(memory.relate({ userId: 'u', sourceId: a.id, targetId: a.id, type: 'supports' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(memory.relate({ userId: 'v', sourceId: b.id, targetId: a.id, type: 'supports' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
