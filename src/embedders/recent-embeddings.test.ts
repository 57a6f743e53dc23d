import { describe, expect, it } from 'vitest';
import { EngramError } from '../errors.js';
import type { Embedder } from './embedder.js';
import { recentEmbeddings } from './recent-embeddings.js';

/** An embedder that records every text it is asked for; vector = [length, first code point]. */
function counting(fail?: (texts: readonly string[]) => boolean) {
  const asked: string[][] = [];
  const inner: Embedder = {
    id: 'test@1',
    dimensions: 2,
    embed: async (texts) => {
      asked.push([...texts]);
      if (fail?.(texts)) throw new EngramError('EMBEDDING_FAILED', 'model down');
      return texts.map((t) => Float32Array.from([t.length, t.codePointAt(0) ?? 0]));
    },
  };
  return { inner, asked };
}

describe('recent embeddings', () => {
  it('embeds a text seen moments ago only once, in order, Chinese and English alike', async () => {
    const { inner, asked } = counting();
    const embedder = recentEmbeddings(inner).forUser('li');
    const first = await embedder.embed(['我想养宠物，有什么建议？']);
    const turn = await embedder.embed(['我想养宠物，有什么建议？', 'Cats are easy to keep.', 'Cats are easy to keep.']);
    expect(asked).toEqual([['我想养宠物，有什么建议？'], ['Cats are easy to keep.']]);
    expect(turn.map((v) => [...v])).toEqual([[...first[0]!], [22, 67], [22, 67]]);
    expect(embedder.id).toBe('test@1');
    expect(embedder.dimensions).toBe(2);
  });

  it('hands every caller its own copy', async () => {
    const embedder = recentEmbeddings(counting().inner).forUser('li');
    const [a] = await embedder.embed(['用户喜欢猫']);
    a![0] = 999;
    const [b] = await embedder.embed(['用户喜欢猫']);
    expect(b![0]).toBe(5);
  });

  it('drops the least recently used past its size, and never keeps long texts', async () => {
    const { inner, asked } = counting();
    const embedder = recentEmbeddings(inner, { perUser: 2, maxChars: 10 }).forUser('li');
    await embedder.embed(['猫', 'dog']);
    await embedder.embed(['猫']);
    await embedder.embed(['fish']);
    await embedder.embed(['猫', 'dog', 'a very long sentence']);
    await embedder.embed(['a very long sentence']);
    expect(asked).toEqual([['猫', 'dog'], ['fish'], ['dog', 'a very long sentence'], ['a very long sentence']]);
  });

  it('keeps no failure: the next call asks the model again', async () => {
    let down = true;
    const { inner, asked } = counting(() => down);
    const embedder = recentEmbeddings(inner).forUser('li');
    await expect(embedder.embed(['我喜欢猫 I like cats'])).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
    down = false;
    expect((await embedder.embed(['我喜欢猫 I like cats']))[0]!.length).toBe(2);
    expect(asked).toEqual([['我喜欢猫 I like cats'], ['我喜欢猫 I like cats']]);
  });

  it.each([
    ['Chinese', '我的密码是 hunter2，别告诉别人'],
    ['English', 'my password is hunter2, keep it secret'],
  ])('keeps each user apart: another user saying the same text is embedded afresh (%s)', async (_language, text) => {
    const { inner, asked } = counting();
    const recent = recentEmbeddings(inner);
    await recent.forUser('alice').embed([text]);
    await recent.forUser('bob').embed([text]);
    await recent.forUser('alice').embed([text]);
    expect(asked).toEqual([[text], [text]]);
  });

  it('forgets a dropped user\'s texts, and only theirs; the least recently active user goes first', async () => {
    const { inner, asked } = counting();
    const recent = recentEmbeddings(inner, { users: 2 });
    await recent.forUser('alice').embed(['用户喜欢猫']);
    await recent.forUser('bob').embed(['The user likes dogs']);
    recent.dropUser('alice');
    await recent.forUser('alice').embed(['用户喜欢猫']);
    await recent.forUser('bob').embed(['The user likes dogs']);
    expect(asked).toEqual([['用户喜欢猫'], ['The user likes dogs'], ['用户喜欢猫']]);
    // Bob was active last: carol's arrival pushes alice out, not him.
    await recent.forUser('carol').embed(['carol']);
    await recent.forUser('bob').embed(['The user likes dogs']);
    await recent.forUser('alice').embed(['用户喜欢猫']);
    expect(asked.slice(3)).toEqual([['carol'], ['用户喜欢猫']]);
  });
});

describe('recent embeddings and a forget in flight', () => {
  it.each([['Chinese', '我叫李明，住在上海'], ['English', 'My name is Li Ming and I live in Shanghai']])('keeps nothing an embedding brought back while its user was being forgotten (%s)', async (_language, text) => {
    const asked: string[][] = [];
    let release: () => void = () => undefined;
    let slow = true;
    const inner: Embedder = {
      id: 'test@1',
      dimensions: 2,
      embed: async (texts) => {
        asked.push([...texts]);
        if (slow) await new Promise<void>((resolve) => (release = resolve));
        return texts.map(() => Float32Array.from([1, 0]));
      },
    };
    const recent = recentEmbeddings(inner);
    const pending = recent.forUser('li').embed([text]);
    await Promise.resolve();
    recent.dropUser('li');
    slow = false;
    release();
    await pending;
    await recent.forUser('li').embed([text]);
    expect(asked).toEqual([[text], [text]]);
  });
});

/** An engine over an in-memory file whose embedder records every text it is asked to embed. */
async function engineRecordingTexts() {
  const { createMemory } = await import('../memory.js');
  const { openSqliteStore } = await import('../store/sqlite/sqlite-store.js');
  const { createHashEmbedder } = await import('./hash-embedder.js');
  const hash = createHashEmbedder({ dimensions: 64 });
  const asked: string[] = [];
  const memory = createMemory({ store: openSqliteStore({ path: ':memory:' }), embedder: { id: hash.id, dimensions: hash.dimensions, embed: (texts) => (asked.push(...texts), hash.embed(texts)) } });
  return { memory, asked };
}

describe('a chat turn through the engine', () => {
  it.each([
    ['Chinese', '我的猫最近不爱吃东西，用户喜欢猫怎么办？', '先带猫去看兽医。'],
    ['English', 'The user likes cats: my cat stopped eating, what now?', 'Take the cat to a vet first.'],
  ])('embeds the user message and the reply once each (%s)', async (_language, message, reply) => {
    const { memory, asked } = await engineRecordingTexts();
    const cat = await memory.add({ userId: 'li', kind: 'preference', content: '用户喜欢猫 — the user likes cats' });
    asked.length = 0;
    const block = await memory.context({ userId: 'li', query: message, sessionId: 's' });
    await memory.appendMessages({ messages: [{ id: 'u1', userId: 'li', sessionId: 's', role: 'user', content: message }, { id: 'a1', userId: 'li', sessionId: 's', role: 'assistant', content: reply }] });
    await memory.reportReply({ userId: 'li', message, reply, recalledIds: [cat.id] });
    expect(block.tokens).toBeGreaterThan(0);
    expect(asked.sort()).toEqual([message, reply].sort());
    await memory.close();
  });

  it.each([
    ['Chinese', '我想养宠物，有什么建议？', '养猫很省心。'],
    ['English', 'I want a pet, any advice?', 'Cats are easy to keep.'],
  ])('reuses no vector across users, and none of a user after they are forgotten (%s)', async (_language, message, reply) => {
    const { memory, asked } = await engineRecordingTexts();
    const turn = async (userId: string) => {
      await memory.context({ userId, query: message, sessionId: 's' });
      await memory.appendMessages({ messages: [{ id: `u-${asked.length}`, userId, sessionId: 's', role: 'user', content: message }, { id: `a-${asked.length}`, userId, sessionId: 's', role: 'assistant', content: reply }] });
    };
    await turn('alice');
    expect(asked.sort()).toEqual([message, reply].sort());
    asked.length = 0;
    // Bob says the same: his turn is embedded afresh (a reused vector would answer him sooner, telling him what alice said).
    await turn('bob');
    expect(asked.sort()).toEqual([message, reply].sort());
    asked.length = 0;
    await memory.forgetSession({ userId: 'alice', sessionId: 's' });
    await memory.context({ userId: 'alice', query: message });
    expect(asked).toEqual([message]);
    asked.length = 0;
    await memory.forget({ userId: 'bob' });
    await memory.context({ userId: 'bob', query: reply });
    expect(asked).toEqual([reply]);
    await memory.close();
  });
});
