import { describe, expect, it } from 'vitest';
import { memoryVersion } from '../domain/memory-version.js';
import { EngramError } from '../errors.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';

const make = closesAfterEach(() => testMemory(), (m) => m.close());
const stale = (e: unknown): boolean => EngramError.hasCode(e, 'PRECONDITION_FAILED');

describe('update with ifVersion (optimistic concurrency)', () => {
  it.each([
    ['zh', '用户每天早上喝咖啡', '用户每天早上喝两杯咖啡'],
    ['en', 'The user drinks coffee every morning', 'The user drinks two cups of coffee every morning'],
  ])('%s: a change made against the version before another client\'s is refused; made against the current one it keeps the other change', async (_, content, edited) => {
    const memory = make();
    const opened = await memory.add({ userId: 'u', content, kind: 'pattern', importance: 0.3 });
    // Another client, while the editor is open.
    const other = await memory.update('u', opened.id, { importance: 0.9, kind: 'preference' }, undefined, { ifVersion: memoryVersion(opened) });
    const error = await memory.update('u', opened.id, { content: edited }, undefined, { ifVersion: memoryVersion(opened) }).then(() => null, (e: unknown) => e);
    expect(stale(error)).toBe(true);
    expect((error as EngramError).details).toMatchObject({ id: opened.id, current: memoryVersion(other) });
    expect(await memory.get('u', opened.id)).toMatchObject({ content, kind: 'preference', importance: 0.9 });
    expect((await memory.history('u', opened.id)).map((h) => h.action)).toEqual(['create', 'update']);

    const saved = await memory.update('u', opened.id, { content: edited }, undefined, { ifVersion: [memoryVersion(other)] });
    expect(saved).toMatchObject({ content: edited, kind: 'preference', importance: 0.9 });
    expect((await memory.history('u', opened.id)).at(-1)).toMatchObject({ actor: 'user', changed: expect.not.arrayContaining(['kind', 'importance']) });
  });

  it('without ifVersion a patch applies as before; an empty or non-string ifVersion is INVALID_INPUT', async () => {
    const memory = make();
    const m = await memory.add({ userId: 'u', content: '用户喜欢猫' });
    await memory.update('u', m.id, { importance: 0.2 });
    expect((await memory.update('u', m.id, { importance: 0.4 })).importance).toBe(0.4);
    for (const ifVersion of ['', [], [42]]) {
      await expect(memory.update('u', m.id, { importance: 0.1 }, undefined, { ifVersion: ifVersion as unknown as string[] })).rejects.toSatisfy((e) => EngramError.hasCode(e, 'INVALID_INPUT'));
    }
    expect((await memory.get('u', m.id)).importance).toBe(0.4);
  });

  it('a todo reworded against a stale version leaves both the memory and its todo as they were', async () => {
    const memory = make();
    const todo = await memory.add({ userId: 'u', kind: 'todo', content: '明天下午三点开会' });
    const v0 = memoryVersion(todo);
    await memory.update('u', todo.id, { importance: 0.9 });
    await expect(memory.update('u', todo.id, { content: '明天下午四点开会' }, undefined, { ifVersion: v0 })).rejects.toSatisfy(stale);
    expect((await memory.listTodos({ userId: 'u' })).map((t) => t.content)).toEqual(['明天下午三点开会']);
  });
});

describe('delete, restore and purge with ifVersion', () => {
  it.each([
    ['zh', '用户对花生过敏', '用户对花生和芒果过敏'],
    ['en', 'The user is allergic to peanuts', 'The user is allergic to peanuts and mangoes'],
  ])('%s: each is refused against a version another change left behind, and applies against the current one', async (_, content, edited) => {
    const memory = make();
    const read = await memory.add({ userId: 'u', content });
    const other = await memory.update('u', read.id, { content: edited });
    for (const refused of [
      () => memory.delete('u', read.id, undefined, { ifVersion: memoryVersion(read) }),
      () => memory.purge('u', read.id, undefined, { ifVersion: memoryVersion(read) }),
    ]) await expect(refused()).rejects.toSatisfy(stale);
    expect(await memory.get('u', read.id)).toMatchObject({ content: edited, status: 'active' });
    const deleted = await memory.delete('u', read.id, undefined, { ifVersion: memoryVersion(other) });
    await expect(memory.restore('u', read.id, undefined, { ifVersion: memoryVersion(other) })).rejects.toSatisfy(stale);
    expect((await memory.get('u', read.id)).status).toBe('deleted');
    expect(await memory.restore('u', read.id, undefined, { ifVersion: [memoryVersion(deleted)] })).toMatchObject({ status: 'active' });
    await expect(memory.delete('u', read.id, undefined, { ifVersion: '' })).rejects.toSatisfy((e) => EngramError.hasCode(e, 'INVALID_INPUT'));
    expect((await memory.history('u', read.id)).map((h) => h.action)).toEqual(['create', 'update', 'delete', 'restore']);
  });
});

describe('an editor left open over Engram\'s own changes of importance', () => {
  it.each([
    ['zh', '用户每天早上喝咖啡', '用户每天早上喝两杯咖啡'],
    ['en', 'The user drinks coffee every morning', 'The user drinks two cups of coffee every morning'],
  ])('%s: after the daily decay and a reinforcement by use, the words and a delete still save; a new importance is refused', async (_, content, edited) => {
    const memory = make();
    const opened = await memory.add({ userId: 'u', kind: 'event', content, importance: 0.6 });
    memory.clock.advanceDays(30);
    expect((await memory.runLifecycle()).decayed).toBe(1);
    await memory.reportReply({ userId: 'u', message: content, reply: content, recalledIds: [opened.id] });
    const drifted = await memory.get('u', opened.id);
    expect(drifted.importance).not.toBe(opened.importance);
    expect((await memory.history('u', opened.id)).map((h) => h.action)).toEqual(['create', 'decay', 'reinforce']);

    await expect(memory.update('u', opened.id, { importance: 0.9 }, undefined, { ifVersion: memoryVersion(opened) })).rejects.toSatisfy(stale);
    const saved = await memory.update('u', opened.id, { content: edited }, undefined, { ifVersion: memoryVersion(opened) });
    expect(saved).toMatchObject({ content: edited, importance: drifted.importance });
    // A person's change is still a conflict for the version before it.
    await expect(memory.delete('u', opened.id, undefined, { ifVersion: memoryVersion(opened) })).rejects.toSatisfy(stale);
    expect((await memory.delete('u', opened.id, undefined, { ifVersion: memoryVersion(saved) })).status).toBe('deleted');
  });
});

describe('structured data after a hand edit of the content', () => {
  it.each([
    ['我对花生过敏', '用户对花生过敏', '用户对花生和芒果过敏'],
    ['I am allergic to peanuts', 'The user is allergic to peanuts', 'The user is allergic to peanuts and mangoes'],
  ])('"%s": the value read from the old wording goes when the content grows around it; history keeps it', async (said, content, edited) => {
    const memory = make();
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: said }] });
    await memory.extract('u', 's');
    const [m] = await memory.list({ userId: 'u' });
    expect(m).toMatchObject({ content, structuredData: { slot: 'allergy' } });
    const saved = await memory.update('u', m!.id, { content: edited });
    expect(saved.structuredData).toBeUndefined();
    expect((await memory.get('u', m!.id)).structuredData).toBeUndefined();
    expect((await memory.history('u', m!.id)).at(-1)).toMatchObject({ changed: expect.arrayContaining(['content', 'structuredData']), before: { structuredData: m!.structuredData } });
  });

  it('an edit that leaves the words of a value as they were keeps it (zh, en); structured data given replaces it', async () => {
    const memory = make();
    const zh = await memory.add({ userId: 'u', kind: 'identity', content: '用户住在北京，喜欢爬山', structuredData: { slot: 'home', value: '北京' } });
    expect((await memory.update('u', zh.id, { content: '用户住在北京，喜欢爬香山' })).structuredData).toEqual({ slot: 'home', value: '北京' });
    const en = await memory.add({ userId: 'u', kind: 'identity', content: 'The user lives in Berlin and likes hiking', structuredData: { slot: 'home', value: 'Berlin' } });
    expect((await memory.update('u', en.id, { content: 'The user lives in Berlin and loves hiking' })).structuredData).toEqual({ slot: 'home', value: 'Berlin' });
    expect((await memory.update('u', en.id, { content: 'The user lives in Munich', structuredData: { value: 'Munich' } })).structuredData).toEqual({ value: 'Munich' });
  });

  it('a learning reworded keeps its steps', async () => {
    const memory = make();
    const skill = await memory.recordLearning({ userId: 'u', task: '发布周报', steps: ['拉数据', '写摘要', '发邮件'] });
    const saved = await memory.update('u', skill.id, { content: '发布周报（周一上午）：拉数据 → 写摘要 → 发邮件' });
    expect(saved.structuredData?.steps).toEqual(['拉数据', '写摘要', '发邮件']);
  });
});
