import { describe, expect, it } from 'vitest';
import { readForgetRequest } from '../extraction/forget-request.js';
import { FORGET_UNDO_DAYS } from '../domain/forgotten.js';
import type { ExtractMemoriesInput } from '../prompts/extract-memories.js';
import { fixedClock } from '../testing/clock.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { scriptedChat } from '../testing/scripted-chat.js';
import type { ScriptFunction } from '../testing/scripted-model.js';
import { testMemory } from '../testing/test-memory.js';
import { createHashEmbedder } from '../embedders/hash-embedder.js';
import { createMemory } from '../memory.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';

const open = closesAfterEach((at: string = '2026-03-03T10:00:00Z') => testMemory({ clock: fixedClock(at) }), (memory) => memory.close());
const turn = (role: 'user' | 'assistant', content: string, sessionId = 's1') => ({ userId: 'u', sessionId, role, content });

const CASES = [
  {
    lang: 'zh',
    about: ['用户的前女友叫小美', '用户和前女友小美去年分手了'],
    other: ['用户喜欢猫'],
    said: ['我以前有个前女友叫小美', '我们去年分手了，前女友现在在北京'],
    request: '好的。另外，忘掉我前女友的事吧',
    topic: '前女友',
    name: '小美',
  },
  {
    lang: 'en',
    about: ["The user's ex is named Sarah", 'The user broke up with their ex last year'],
    other: ['The user loves cats'],
    said: ['my ex sarah and i broke up last year', 'my ex still texts me sometimes'],
    request: 'thanks. also, forget what I told you about my ex',
    topic: 'ex',
    name: 'Sarah',
  },
];

describe('undoing what a request in conversation forgot', () => {
  it.each(CASES)('$lang: the request is listed; undone, its messages come back in their places and its memories as they were', async ({ about, other, said, request, topic, name }) => {
    const memory = open();
    for (const content of [...about, ...other]) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: said.map((content) => turn('user', content, 's0')) });
    const before = (await memory.exportUser('u')).messages;
    const asked = await memory.appendMessages({ messages: [turn('user', request), turn('assistant', 'OK / 好的')] });
    const id = asked.appended[0]!.id;
    expect(asked.forgotten).toEqual([expect.objectContaining({ messageId: id, memories: about.length, messages: said.length + 1 })]);
    expect((await memory.searchMessages({ userId: 'u', query: name })).map((h) => h.message.content)).toEqual(['OK / 好的']);

    const listed = await memory.forgottenOnRequest('u');
    expect(listed).toEqual([{ id, at: memory.clock.now(), expiresAt: new Date(memory.clock.now().getTime() + FORGET_UNDO_DAYS * 86_400_000), topic, request, memories: about.length, messages: said.length + 1, todos: 0 }]);
    // Another user sees none of it, and cannot undo it.
    expect(await memory.forgottenOnRequest('v')).toEqual([]);
    await expect(memory.undoForgotten('v', id)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const undone = await memory.undoForgotten('u', id);

    expect(undone).toEqual({ id, topic, memories: about.length, messages: said.length + 1, todos: 0, profile: false });
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual([...about, ...other].sort());
    const messages = (await memory.exportUser('u')).messages;
    expect(messages.map((m) => [m.sessionId, m.seq, m.content])).toEqual([...before, ...asked.appended].map((m) => [m.sessionId, m.seq, m.content]));
    expect((await memory.searchMessages({ userId: 'u', query: name })).map((h) => h.message.content)).toContain(said[0]);
    const block = await memory.context({ userId: 'u', query: name, tokenBudget: 800 });
    expect(block.text).toContain(name);
    const restored = (await memory.list({ userId: 'u' })).find((m) => m.content === about[0])!;
    expect((await memory.history('u', restored.id)).at(-1)).toMatchObject({ actor: 'user', reason: `undid forgetting "${topic}" asked in conversation` });
    // Once: it is no longer listed, and a second undo is refused.
    expect(await memory.forgottenOnRequest('u')).toEqual([]);
    await expect(memory.undoForgotten('u', id)).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it.each(CASES)('$lang: a memory the user restored or erased meanwhile is left as it is', async ({ about, said, request }) => {
    const memory = open();
    for (const content of about) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: said.map((content) => turn('user', content, 's0')) });
    const id = (await memory.appendMessages({ messages: [turn('user', request)] })).appended[0]!.id;
    const [first, second] = await memory.list({ userId: 'u', statuses: ['deleted'] });
    await memory.restore('u', first!.id);
    await memory.update('u', first!.id, { importance: 0.9 });
    await memory.purge('u', second!.id);

    expect((await memory.undoForgotten('u', id)).memories).toBe(0);
    expect(await memory.get('u', first!.id)).toMatchObject({ status: 'active', importance: 0.9 });
    await expect(memory.get('u', second!.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it.each([
    { lang: 'zh', said: '我怀孕了，还没告诉别人', drawn: '用户怀孕了', kept: '用户喜欢猫', request: '忘掉我今天说的话', topic: 'what they said 今天' },
    { lang: 'en', said: "I'm pregnant, haven't told anyone yet", drawn: 'The user is pregnant', kept: 'The user loves cats', request: 'Forget everything I told you today', topic: 'what they said today' },
  ])('$lang: what was said at a time comes back, and the profile as it was before the request rewrote it', async ({ said, drawn, kept, request, topic }) => {
    const memory = open();
    await memory.setSettings('u', { timeZone: 'UTC' });
    const [then] = (await memory.appendMessages({ messages: [{ ...turn('user', said), createdAt: new Date('2026-03-03T08:00:00Z') }] })).appended;
    await memory.add({ userId: 'u', content: drawn, importance: 0.9, provenance: { messageIds: [then!.id] } });
    await memory.add({ userId: 'u', content: kept, importance: 0.9 });
    await memory.updateProfile('u', { force: true });
    const profile = (await memory.profile('u'))!;
    expect(profile.narrative).toContain(drawn);
    const id = (await memory.appendMessages({ messages: [turn('user', request, 's2')] })).appended[0]!.id;
    expect((await memory.profile('u'))?.narrative).not.toContain(drawn);
    expect((await memory.forgottenOnRequest('u'))[0]).toMatchObject({ id, topic, memories: 1, messages: 2 });

    expect(await memory.undoForgotten('u', id)).toMatchObject({ memories: 1, messages: 2, profile: true });

    expect((await memory.profile('u'))?.narrative).toBe(profile.narrative);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual([drawn, kept].sort());
    expect((await memory.exportUser('u')).messages.map((m) => m.content)).toEqual([said, request]);
  });

  it.each([
    { lang: 'zh', memories: ['用户的生日是3月3日', '用户住在杭州西湖区', '用户喜欢猫'], request: '忘掉我的生日和地址', address: '杭州' },
    { lang: 'en', memories: ["The user's birthday is March 3", 'The user lives in Boston', 'The user loves cats'], request: 'forget my birthday and my address', address: 'Boston' },
  ])('$lang: a request of two things rewrites the profile without each (the address by the words that name the user); undone, it is as it was before both', async ({ memories, request, address }) => {
    const memory = open();
    for (const content of memories) await memory.add({ userId: 'u', content, importance: 0.9 });
    await memory.updateProfile('u', { force: true });
    const profile = (await memory.profile('u'))!;
    const id = (await memory.appendMessages({ messages: [turn('user', request)] })).appended[0]!.id;
    expect((await memory.profile('u'))!.version).toBe(profile.version + 2);
    expect((await memory.profile('u'))!.narrative).not.toContain(address);
    expect((await memory.profile('u'))!.narrative).toContain(memories[2]);

    expect(await memory.undoForgotten('u', id)).toMatchObject({ memories: 2, profile: true });

    expect((await memory.profile('u'))?.narrative).toBe(profile.narrative);
  });

  it.each(CASES)('$lang: erased at once, nothing of it can come back; other users and other memories are untouched', async ({ about, other, said, request, name }) => {
    const memory = open();
    for (const content of [...about, ...other]) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: said.map((content) => turn('user', content, 's0')) });
    const id = (await memory.appendMessages({ messages: [turn('user', request)] })).appended[0]!.id;
    await expect(memory.eraseForgotten('v', id)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    expect(await memory.eraseForgotten('u', id)).toEqual({ id, memories: about.length, messages: said.length + 1 });

    expect(await memory.list({ userId: 'u', statuses: ['deleted'] })).toEqual([]);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual(other);
    expect(await memory.forgottenOnRequest('u')).toEqual([]);
    await expect(memory.undoForgotten('u', id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(JSON.stringify(await memory.exportUser('u'))).not.toContain(name);
  });

  it.each(CASES)('$lang: after the undo time the messages are erased for good by the scheduler; the memories stay restorable one by one', async ({ about, said, request }) => {
    const memory = open();
    for (const content of about) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: said.map((content) => turn('user', content, 's0')) });
    const id = (await memory.appendMessages({ messages: [turn('user', request)] })).appended[0]!.id;
    memory.clock.advance((FORGET_UNDO_DAYS * 24 - 1) * 3_600_000);
    await memory.tick();
    expect(await memory.forgottenOnRequest('u')).toHaveLength(1);
    memory.clock.advance(3_600_000);
    await memory.tick();

    expect(await memory.forgottenOnRequest('u')).toEqual([]);
    await expect(memory.undoForgotten('u', id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await memory.list({ userId: 'u', statuses: ['deleted'] })).toHaveLength(about.length);
  });

  it.each([
    { lang: 'zh', about: '用户的前女友叫小美', task: '给小美回电话', request: '忘掉我前女友的事' },
    { lang: 'en', about: "The user's ex is named Sarah", task: 'Call Sarah back', request: 'forget what I told you about my ex' },
  ])('$lang: a todo of the topic with no memory of its own comes back with it', async ({ about, task, request }) => {
    const store = openSqliteStore({ path: ':memory:' });
    const clock = fixedClock('2026-03-03T10:00:00Z');
    const memory = createMemory({ store, embedder: createHashEmbedder({ dimensions: 256 }), clock });
    try {
      await memory.add({ userId: 'u', content: about });
      const todo = { id: 'todo-1', userId: 'u', content: task, dueAt: new Date('2026-03-05T09:00:00Z'), completed: false, reminded: false, createdAt: clock.now(), deliveryAttempts: 0 };
      await store.insertTodo(todo);
      const id = (await memory.appendMessages({ messages: [turn('user', request)] })).appended[0]!.id;
      expect(await memory.listTodos({ userId: 'u' })).toEqual([]);
      expect((await memory.forgottenOnRequest('u'))[0]).toMatchObject({ todos: 1 });

      expect(await memory.undoForgotten('u', id)).toMatchObject({ todos: 1 });

      expect(await memory.listTodos({ userId: 'u' })).toEqual([todo]);
    } finally {
      await memory.close();
    }
  });

  it.each(CASES)('$lang: forgetting the user erases what their requests forgot', async ({ about, request }) => {
    const memory = open();
    for (const content of about) await memory.add({ userId: 'u', content });
    await memory.appendMessages({ messages: [turn('user', request)] });
    expect(await memory.forgottenOnRequest('u')).toHaveLength(1);
    await memory.forget({ userId: 'u' });
    expect(await memory.forgottenOnRequest('u')).toEqual([]);
  });
});

describe('an undone request, read again by the model among the restored turns', () => {
  const T0 = Date.parse('2026-03-02T10:00:00Z');
  const setup = closesAfterEach((script: ScriptFunction) => scriptedChat(script, { at: T0 }), ({ memory }) => memory.close());

  it.each([
    { lang: 'zh', told: '我前女友叫小美', about: '用户的前女友叫小美', ask: '忘掉我前女友的事', topic: '前女友' },
    { lang: 'en', told: 'My ex is named Sarah', about: "The user's ex is named Sarah", ask: 'forget what I told you about my ex', topic: 'ex' },
  ])('$lang: is not acted on again', async ({ told, about, ask, topic }) => {
    expect(readForgetRequest(ask)).toBeDefined();
    // The model asks to forget whatever request it reads; it is the undo that must hold.
    const { memory, say } = setup((_, input) => {
      const request = (input as ExtractMemoriesInput).messages.find((m) => m.content === ask);
      return request ? { operations: [{ op: 'skip', reason: 'a request to forget' }], forget: [{ topic, ref: request.ref }], reason: 'asked to forget' } : { operations: [], reason: 'nothing' };
    });
    await memory.add({ userId: 'u', content: about });
    await say('s1', ['user', told]);
    await say('s1', ['user', ask]);
    const [record] = await memory.forgottenOnRequest('u');
    await memory.undoForgotten('u', record!.id);
    expect((await memory.exportUser('u')).messages.map((m) => m.content)).toEqual([told, ask]);

    const report = await memory.extract('u', 's1');

    expect(report.forgotten ?? []).toEqual([]);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual([about]);
  });
});
