import { afterEach, describe, expect, it } from 'vitest';
import type { ExtractMemoriesInput } from '../prompts/extract-memories.js';
import type { UpdateProfileInput } from '../prompts/update-profile.js';
import { scriptedModel, type ScriptFunction } from '../testing/scripted-model.js';
import { testMemory } from '../testing/test-memory.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});
function setup(script?: ScriptFunction) {
  const model = script ? scriptedModel(script) : undefined;
  const memory = testMemory(model ? { model } : {});
  engines.push(memory);
  let n = 0;
  const say = async (sessionId: string, content: string) => {
    memory.clock.advance(60_000);
    await memory.appendMessages({ messages: [{ id: `msg-${++n}`, userId: 'u', sessionId, role: 'user', content }] });
    return memory.extract('u', sessionId);
  };
  return { memory, say, model };
}

describe('a correction leaves no stale trace (issue 12.3)', () => {
  it.each([
    ['zh', '我住在北京', '我叫李明', '不对，我现在住在上海', '北京', '上海'],
    ['en', 'I live in Berlin', 'My name is Alice', 'No wait, actually I live in Munich', 'Berlin', 'Munich'],
  ])('%s, no model: content, structured data and profile state only the current fact; the old one is history and a supersedes relation', async (_, home, name, correction, oldCity, newCity) => {
    const { memory, say } = setup();
    await say('s1', home);
    await say('s1', name);
    const [before] = await memory.list({ userId: 'u', kinds: ['identity'] }).then((all) => all.filter((m) => m.content.includes(oldCity)));
    expect(before).toBeDefined();
    await memory.updateProfile('u', { force: true });
    expect((await say('s1', correction)).updated).toBe(1);

    const now = await memory.get('u', before!.id);
    expect(now.content).toContain(newCity);
    expect(JSON.stringify(now.structuredData ?? {})).not.toContain(oldCity);
    expect(now.structuredData).toMatchObject({ slot: 'home', value: newCity });
    const profile = (await memory.updateProfile('u', { force: true })).profile!;
    expect(profile.narrative).toContain(newCity);
    expect(profile.narrative).not.toContain(oldCity);
    expect(profile.basicInfo.location).toBe(newCity);

    expect((await memory.history('u', now.id)).at(-1)).toMatchObject({ before: { content: before!.content }, after: { content: now.content } });
    const supersedes = (await memory.relations('u', now.id)).filter((r) => r.type === 'supersedes' && r.sourceId === now.id);
    expect(supersedes).toHaveLength(1);
    const old = await memory.get('u', supersedes[0]!.targetId);
    expect(old).toMatchObject({ status: 'archived', content: before!.content });
    // The old version is never recalled or put in a context.
    expect((await memory.recall({ userId: 'u', query: oldCity })).map((r) => r.memory.id)).not.toContain(old.id);
    expect((await memory.context({ userId: 'u', query: oldCity })).text).not.toContain(before!.content);
  });

  it.each([
    ['zh', '用户住在北京', '用户现在住在上海', '北京', '上海'],
    ['en', 'The user lives in Berlin', 'The user now lives in Munich', 'Berlin', 'Munich'],
  ])('%s, with a model: an extraction update writes the supersedes relation, drops contradicted fields, and the profile is told what was replaced', async (_, oldText, newText, oldCity, newCity) => {
    const profileInputs: UpdateProfileInput[] = [];
    const { memory, say } = setup((id, input) => {
      if (id === 'update-profile') {
        profileInputs.push(input as UpdateProfileInput);
        return { narrative: `x ${newCity}`, basicInfo: { location: oldCity }, changes: 'moved' };
      }
      const i = input as ExtractMemoriesInput;
      const target = i.existing.find((m) => m.content === oldText);
      return target ? { operations: [{ op: 'update', target: target.alias, content: newText, reason: 'moved' }], reason: 'moved' } : { operations: [{ op: 'skip', reason: '-' }], reason: '-' };
    });
    const m = await memory.add({ userId: 'u', kind: 'identity', content: oldText, importance: 0.8, structuredData: { slot: 'home', value: oldCity } });
    await say('s1', newText);
    const now = await memory.get('u', m.id);
    expect(now.content).toBe(newText);
    expect(now.structuredData?.value).toBeUndefined();
    const [rel] = (await memory.relations('u', m.id)).filter((r) => r.type === 'supersedes');
    expect((await memory.get('u', rel!.targetId)).content).toBe(oldText);
    await memory.updateProfile('u', { force: true });
    expect(profileInputs.at(-1)!.newFacts.find((f) => f.content.startsWith(newText))!.content).toContain(oldText);
  });

  it.each([['zh', '用户喜欢猫'], ['en', 'The user likes cats']])('%s: update() without an actor records the user instead of failing (issue 12.9)', async (_, text) => {
    const { memory } = setup();
    const m = await memory.add({ userId: 'u', content: text });
    await memory.update('u', m.id, { importance: 0.7 }, { reason: 'by hand' });
    expect((await memory.history('u', m.id)).at(-1)).toMatchObject({ actor: 'user', reason: 'by hand' });
  });
});
