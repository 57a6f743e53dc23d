import { describe, expect, it } from 'vitest';
import { indexTerms } from '../../text/segment.js';
import { at, msg, useStore, vec, type StoreFactory } from './fixtures.js';

/** MessagesPort: append (idempotent), list, neighbours, both searches, vectors, expiry, purge. */
export function describeMessagesContract(name: string, factory: StoreFactory): void {
  describe(`messages port: ${name}`, () => {
    const open = useStore(factory);

    it('appends in order, idempotent by message id, and tracks the session', async () => {
      const { store } = open();
      const first = await store.appendMessages('u', 's1', [msg('a', '你好', 0), msg('b', '我下周要去东京出差', 1)]);
      expect(first.map((m) => [m.id, m.seq])).toEqual([['a', 0], ['b', 1]]);
      const again = await store.appendMessages('u', 's1', [msg('b', '我下周要去东京出差', 1), msg('c', 'Sounds great', 2, 'assistant')]);
      expect(again.map((m) => [m.id, m.seq])).toEqual([['c', 2]]);
      expect((await store.listMessages({ userId: 'u', sessionId: 's1' })).map((m) => m.id)).toEqual(['a', 'b', 'c']);
      const session = (await store.getSession('u', 's1'))!;
      expect(session).toMatchObject({ id: 's1', userId: 'u', processedSeq: -1, lastActiveAt: at(2), extractionState: 'ok' });
    });

    it('keeps users apart, even with the same message and session ids', async () => {
      const { store } = open();
      await store.appendMessages('u1', 's', [msg('m', 'I love cats', 0)]);
      await store.appendMessages('u2', 's', [msg('m', 'I love dogs', 0)]);
      expect((await store.listMessages({ userId: 'u2' })).map((m) => m.content)).toEqual(['I love dogs']);
      expect((await store.searchMessageKeyword({ userId: 'u2', terms: indexTerms('cats'), k: 5 }))).toEqual([]);
      expect((await store.searchMessageVector({ userId: 'u2', vector: vec(1, 1), k: 5 })).map((h) => h.id)).toEqual(['m']);
      expect((await store.messageVectorsOf('u2', ['m'])).size).toBe(1);
      expect([...(await store.messageVectorScores('u2', ['m'], vec(1, 1))).keys()]).toEqual(['m']);
      expect((await store.messageVectorScores('u1', ['missing'], vec(1, 1))).size).toBe(0);
    });

    it('scores turns against a query vector near the exact product, also once searches have warmed any cache (我下周去东京 / Tokyo next week)', async () => {
      const { store } = open();
      await store.appendMessages('u', 's', [msg('a', '我下周去东京', 0), msg('b', 'Tokyo next week, nice', 1, 'assistant')]);
      const q = vec(0.6, 0.8, 0.1, -0.2);
      const exact = await store.messageVectorsOf('u', ['a', 'b']);
      expect(exact.size).toBe(2);
      const dot = (v: Float32Array): number => v.reduce((acc, x, i) => acc + x * q[i]!, 0);
      for (let round = 0; round < 2; round++) {
        const scores = await store.messageVectorScores('u', ['a', 'b'], q);
        expect([...scores.keys()].sort()).toEqual([...exact.keys()].sort());
        for (const [id, v] of exact) expect(Math.abs(scores.get(id)! - dot(v))).toBeLessThan(0.02);
        for (let i = 0; i < 4; i++) await store.searchMessageVector({ userId: 'u', vector: q, k: 1 });
      }
    });

    it('scores the neighbours it finds as messageVectorScores does, for this user only (缓存 / cache)', async () => {
      const { store } = open();
      await store.appendMessages('u', 's', [msg('1', '缓存方案用 Redis 还是 Memcached？', 0), msg('2', '取决于你的需求', 1, 'assistant'), msg('3', 'I decided to use Redis', 2), msg('4', 'Good choice', 3, 'assistant'), msg('5', 'Next: the database', 4)]);
      await store.appendMessages('v', 's', [msg('3', 'another user, same id', 0)]);
      const q = vec(0.3, -0.5, 0.8, 0.1);
      for (let round = 0; round < 2; round++) {
        const { messages, vectorScores } = await store.scoredNeighbours('u', ['3'], 1, q);
        const neighbours = await store.messageNeighbours('u', ['3'], 1);
        expect(messages.map((m) => m.id).sort()).toEqual(['2', '3', '4']);
        expect(messages).toEqual(expect.arrayContaining(neighbours));
        expect(Object.fromEntries(vectorScores)).toEqual(Object.fromEntries(await store.messageVectorScores('u', ['2', '3', '4'], q)));
        // Warm any cache, then again.
        for (let i = 0; i < 4; i++) await store.searchMessageVector({ userId: 'u', vector: q, k: 2 });
      }
      expect(await store.scoredNeighbours('w', ['3'], 1, q)).toEqual({ messages: [], vectorScores: new Map() });
      expect((await store.scoredNeighbours('v', ['3'], 2, q)).messages.map((m) => m.content)).toEqual(['another user, same id']);
    });

    it('searches Chinese and English messages and finds neighbours', async () => {
      const { store } = open();
      await store.appendMessages('u', 's', [msg('1', '缓存方案用 Redis 还是 Memcached？', 0), msg('2', '取决于你的需求', 1, 'assistant'), msg('3', 'I decided to use Redis', 2), msg('4', 'Good choice', 3, 'assistant')]);
      expect((await store.searchMessageKeyword({ userId: 'u', terms: indexTerms('缓存方案'), k: 5 })).map((h) => h.id)).toEqual(['1']);
      expect((await store.searchMessageKeyword({ userId: 'u', terms: indexTerms('decide redis'), k: 5 })).map((h) => h.id)[0]).toBe('3');
      expect((await store.messageNeighbours('u', ['3'], 1)).map((m) => m.id).sort()).toEqual(['2', '3', '4']);
      expect((await store.listMessages({ userId: 'u', sessionId: 's', afterSeq: 1, throughSeq: 2 })).map((m) => m.id)).toEqual(['3']);
    });

    it('deletes expired messages with their index rows, once extraction has seen them', async () => {
      const { store } = open();
      await store.appendMessages('u', 's', [{ ...msg('old', 'ancient history', 0), expiresAt: at(10) }, { ...msg('new', 'ancient scrolls', 1), expiresAt: at(100) }]);
      expect(await store.deleteExpiredMessages(at(50))).toBe(0);
      await store.markProcessed('u', 's', 1, 'new', at(2));
      expect(await store.deleteExpiredMessages(at(50))).toBe(1);
      expect((await store.searchMessageKeyword({ userId: 'u', terms: indexTerms('ancient'), k: 5 })).map((h) => h.id)).toEqual(['new']);
      expect((await store.listMessages({ userId: 'u' })).map((m) => m.id)).toEqual(['new']);
    });

    it('purges given messages of one user only, with their index rows', async () => {
      const { store } = open();
      await store.appendMessages('u', 's', [msg('a', '我在西湖边画画', 0), msg('b', 'I painted by the lake', 1)]);
      await store.appendMessages('v', 's', [msg('a', '我在西湖边画画', 0)]);
      expect(await store.purgeMessages('u', ['a', 'missing'])).toBe(1);
      expect((await store.listMessages({ userId: 'u' })).map((m) => m.id)).toEqual(['b']);
      expect(await store.searchMessageKeyword({ userId: 'u', terms: indexTerms('西湖'), k: 5 })).toEqual([]);
      expect((await store.messageVectorsOf('u', ['a', 'b'])).has('a')).toBe(false);
      expect((await store.searchMessageKeyword({ userId: 'v', terms: indexTerms('西湖'), k: 5 })).map((h) => h.id)).toEqual(['a']);
    });

    it('filters a message search by session and lists newest first', async () => {
      const { store } = open();
      await store.appendMessages('u', 's1', [msg('a', 'I adopted a cat named Mochi', 0)]);
      await store.appendMessages('u', 's2', [msg('b', '我的猫叫麻薯 Mochi', 4)]);
      expect((await store.searchMessageKeyword({ userId: 'u', terms: indexTerms('mochi'), k: 5, sessionId: 's2' })).map((h) => h.id)).toEqual(['b']);
      expect((await store.searchMessageVector({ userId: 'u', vector: (await store.messageVectorsOf('u', ['a'])).get('a')!, k: 5, sessionId: 's1' })).map((h) => h.id)).toEqual(['a']);
      await store.appendMessages('u', 's2', [msg('c', 'She sleeps all day 她整天睡觉', 5)]);
      expect((await store.listMessages({ userId: 'u', sessionId: 's2', order: 'desc', limit: 1 })).map((m) => m.id)).toEqual(['c']);
      expect((await store.listMessages({ userId: 'u', ids: ['a'] })).map((m) => m.content)).toEqual(['I adopted a cat named Mochi']);
    });
  });
}
