import { describe, expect, it } from 'vitest';
import type { ForgottenRequest } from '../../domain/forgotten.js';
import { indexTerms } from '../../text/segment.js';
import { at, msg, todo, useStore, vec, EMBEDDER, type StoreFactory } from './fixtures.js';

/** A record of what one request forgot, for user `u` unless said. */
const record = (id: string, min: number, over: Partial<ForgottenRequest> = {}): ForgottenRequest => ({
  id,
  userId: 'u',
  at: at(min),
  expiresAt: at(min + 60),
  topic: '前女友',
  request: '忘掉我前女友的事',
  memories: [{ id: 'm1', status: 'active' }],
  todos: [todo('t1', 'u', 'Call Sarah back 给小美回电话', { dueAt: at(90), repeat: { every: 'week', interval: 1, timeZone: 'Asia/Shanghai' } })],
  messages: [{ id: id, userId: 'u', sessionId: 's', seq: 3, role: 'user', content: '忘掉我前女友的事', createdAt: at(min), expiresAt: at(min + 500) }],
  profileWritten: [2, 3],
  staleProfileVersions: [1],
  ...over,
});

/** ForgottenPort: records of what requests in conversation forgot, and messages put back in their places. */
export function describeForgottenContract(name: string, factory: StoreFactory): void {
  describe(`forgotten port: ${name}`, () => {
    const open = useStore(factory);

    it('keeps a record per request, replaced as it is written again, newest first, dates and all (zh, en)', async () => {
      const { store } = open();
      const first = record('r1', 1, { todos: [todo('t1', 'u', '给小美回电话', { dueAt: at(90), remindAt: at(80) })] });
      await store.saveForgotten(first);
      await store.saveForgotten(record('r2', 5, { topic: 'my ex', request: 'forget about my ex', todos: [] }));
      expect(await store.getForgotten('u', 'r1')).toEqual(first);
      const again = { ...first, memories: [...first.memories, { id: 'm2', status: 'archived' as const }] };
      await store.saveForgotten(again);
      expect(await store.getForgotten('u', 'r1')).toEqual(again);
      expect((await store.listForgotten('u')).map((r) => [r.id, r.topic])).toEqual([['r2', 'my ex'], ['r1', '前女友']]);
      expect(await store.deleteForgotten('u', 'r1')).toBe(true);
      expect(await store.deleteForgotten('u', 'r1')).toBe(false);
      expect(await store.getForgotten('u', 'r1')).toBeNull();
    });

    it('keeps users apart, drops records past their time for every user, and forgetting a user drops theirs', async () => {
      const { store } = open();
      await store.saveForgotten(record('r', 0));
      await store.saveForgotten(record('r', 0, { userId: 'v', topic: 'my ex' }));
      await store.saveForgotten(record('late', 0, { userId: 'v', expiresAt: at(500) }));
      expect(await store.getForgotten('v', 'r')).toMatchObject({ topic: 'my ex' });
      expect(await store.deleteForgotten('v', 'missing')).toBe(false);
      expect(await store.deleteExpiredForgotten(at(59))).toBe(0);
      expect(await store.deleteExpiredForgotten(at(60))).toBe(2);
      expect((await store.listForgotten('v')).map((r) => r.id)).toEqual(['late']);
      expect(await store.listForgotten('u')).toEqual([]);
      await store.forgetUser('v');
      expect(await store.listForgotten('v')).toEqual([]);
    });

    it('puts messages back in their places, searchable again, skipping ids and places taken (zh, en)', async () => {
      const { store } = open();
      await store.appendMessages('u', 's', [msg('a', '我前女友叫小美', 0), msg('b', 'My ex Sarah moved to Boston', 1), msg('c', '今天天气不错', 2)]);
      const [a, b] = await store.listMessages({ userId: 'u', ids: ['a', 'b'] });
      const vectors = await store.messageVectorsOf('u', ['a', 'b']);
      await store.purgeMessages('u', ['a', 'b']);
      await store.appendMessages('u', 's', [msg('d', 'later', 3)]);
      const back = await store.restoreMessages('u', [
        { ...a!, vector: vectors.get('a')!, embedderId: EMBEDDER.id },
        { ...b!, vector: null },
        // Its id is taken again (said again since), and so is the place of the next one.
        { ...a!, id: 'c', seq: 9, vector: null },
        { ...b!, id: 'z', seq: 2, vector: null },
      ]);
      expect(back.map((m) => [m.id, m.seq])).toEqual([['a', 0], ['b', 1]]);
      expect((await store.listMessages({ userId: 'u', sessionId: 's' })).map((m) => [m.id, m.seq, m.content])).toEqual([
        ['a', 0, '我前女友叫小美'], ['b', 1, 'My ex Sarah moved to Boston'], ['c', 2, '今天天气不错'], ['d', 3, 'later'],
      ]);
      expect((await store.listMessages({ userId: 'u', ids: ['a'] }))[0]).toEqual(a);
      expect((await store.searchMessageKeyword({ userId: 'u', terms: indexTerms('小美'), k: 5 })).map((h) => h.id)).toEqual(['a']);
      expect((await store.searchMessageKeyword({ userId: 'u', terms: indexTerms('Boston'), k: 5 })).map((h) => h.id)).toEqual(['b']);
      expect((await store.searchMessageVector({ userId: 'u', vector: vectors.get('a')!, k: 1 })).map((h) => h.id)).toEqual(['a']);
      // Without a vector it waits for reindex, as a message stored unmarked does.
      expect(await store.pendingVectors('messages', 10)).toEqual([{ userId: 'u', id: 'b', content: 'My ex Sarah moved to Boston' }]);
      // The session goes on after them.
      expect((await store.appendMessages('u', 's', [msg('e', 'next', 4)])).map((m) => m.seq)).toEqual([4]);
    });

    it('makes a forgotten session again, and the next turn comes after what was put back', async () => {
      const { store } = open();
      const back = await store.restoreMessages('u', [{ id: 'x', userId: 'u', sessionId: 'gone', seq: 5, role: 'user', content: '我昨天去了杭州 I went to Hangzhou', createdAt: at(7), vector: vec(1), embedderId: EMBEDDER.id }]);
      expect(back.map((m) => m.seq)).toEqual([5]);
      expect(await store.getSession('u', 'gone')).toMatchObject({ id: 'gone', processedSeq: -1 });
      expect(await store.listMessages({ userId: 'v' })).toEqual([]);
      expect((await store.appendMessages('u', 'gone', [msg('y', 'next', 8)])).map((m) => m.seq)).toEqual([6]);
    });
  });
}
