import { describe, expect, it } from 'vitest';
import { EngramError } from '../../errors.js';
import { indexTerms } from '../../text/segment.js';
import { at, mem, user, useStore, vec, type StoreFactory } from './fixtures.js';

/** MemoriesPort: every method, in Chinese and English. */
export function describeMemoriesContract(name: string, factory: StoreFactory): void {
  describe(`memories port: ${name}`, () => {
    const open = useStore(factory);

    it('inserts, gets, updates with history before/after, and counts (zh, en)', async () => {
      const { store } = open();
      await store.insertMemory(mem('m1', 'u', '用户喜欢猫', { kind: 'preference' }), vec(1), user);
      await store.insertMemory(mem('m2', 'u', 'I work at a bakery'), vec(0, 1), { actor: 'extraction', producedBy: 'extract-memories@3', messageIds: ['x1'] });
      expect((await store.getMemory('u', 'm1'))!.content).toBe('用户喜欢猫');
      expect(await store.getMemory('u', 'missing')).toBeNull();
      const updated = await store.updateMemory('u', 'm1', { content: '用户喜欢狗', importance: 0.8 }, vec(0, 0, 1), { actor: 'user', reason: '改了', at: at(5) });
      expect(updated).toMatchObject({ content: '用户喜欢狗', importance: 0.8 });
      expect(await store.getMemory('u', 'm1')).toEqual(updated);
      const history = await store.history('u', 'm1');
      expect(history.map((h) => h.action)).toEqual(['create', 'update']);
      expect(history[1]).toMatchObject({ changed: expect.arrayContaining(['content', 'importance']), before: expect.objectContaining({ content: '用户喜欢猫' }), after: expect.objectContaining({ content: '用户喜欢狗' }), reason: '改了' });
      expect((await store.history('u', 'm2'))[0]).toMatchObject({ actor: 'extraction', producedBy: 'extract-memories@3', messageIds: ['x1'] });
      expect(await store.countMemories({ userId: 'u' })).toBe(2);
      expect(await store.countMemories({ userId: 'u', kinds: ['preference'] })).toBe(1);
      await expect(store.updateMemory('u', 'missing', { importance: 0.1 }, undefined, user)).rejects.toSatisfy((e) => e instanceof EngramError && e.code === 'NOT_FOUND');
    });

    it('lists with order, limit and offset', async () => {
      const { store } = open();
      for (const [i, content] of ['第一条', 'second', '第三条'].entries()) await store.insertMemory(mem(`m${i}`, 'u', content, { createdAt: at(i), updatedAt: at(i), importance: i / 10 }), vec(1), user);
      expect((await store.listMemories({ userId: 'u', orderBy: 'createdAt', order: 'asc' })).map((m) => m.id)).toEqual(['m0', 'm1', 'm2']);
      expect((await store.listMemories({ userId: 'u', orderBy: 'importance', order: 'desc', limit: 2 })).map((m) => m.id)).toEqual(['m2', 'm1']);
      expect((await store.listMemories({ userId: 'u', orderBy: 'createdAt', order: 'asc', limit: 1, offset: 1 })).map((m) => m.id)).toEqual(['m1']);
      expect((await store.listMemories({ userId: 'u', ids: ['m2', 'zz'] })).map((m) => m.id)).toEqual(['m2']);
    });

    it('searches by vector and by keyword, and returns stored vectors', async () => {
      const { store } = open();
      await store.insertMemory(mem('zh', 'u', '周末去西湖划船'), vec(1), user);
      await store.insertMemory(mem('en', 'u', 'Rowing on the lake every weekend'), vec(0, 1), user);
      await store.insertMemory(mem('gone', 'u', '西湖 rowing', { status: 'deleted' }), vec(1), user);
      expect((await store.searchVector({ userId: 'u', vector: vec(1), k: 5 })).map((h) => h.id)).toEqual(expect.arrayContaining(['zh', 'en']));
      expect((await store.searchVector({ userId: 'u', vector: vec(1), k: 1 }))[0]!.id).toBe('zh');
      expect((await store.searchVector({ userId: 'u', vector: vec(1), k: 5, statuses: ['deleted'] })).map((h) => h.id)).toEqual(['gone']);
      expect((await store.searchKeyword({ userId: 'u', terms: indexTerms('西湖'), k: 5 })).map((h) => h.id)).toEqual(['zh']);
      const en = await store.searchKeyword({ userId: 'u', terms: indexTerms('rowing weekend'), k: 5 });
      expect(en[0]).toMatchObject({ id: 'en', coverage: expect.any(Number) });
      const vectors = await store.vectorsOf('u', ['zh', 'en', 'missing']);
      expect([...vectors.keys()].sort()).toEqual(['en', 'zh']);
      expect(Array.from(vectors.get('zh')!).map((x) => Math.round(x * 1000))).toEqual([1000, 0, 0, 0]);
    });

    it('scores keyword-only candidates against a query vector: near the exact product, also once searches have warmed any cache, never another user\'s', async () => {
      const { store } = open();
      await store.insertMemory(mem('zh', 'u', '周末去西湖划船'), vec(1, 0.5, -0.25, 0.1), user);
      await store.insertMemory(mem('en', 'u', 'Rowing on the lake every weekend'), vec(-0.3, 1, 0.2, 0.7), user);
      await store.insertMemory(mem('other', 'v', '西湖 rowing'), vec(1, 0.5, -0.25, 0.1), user);
      const q = vec(0.6, 0.8, 0.1, -0.2);
      const exact = await store.vectorsOf('u', ['zh', 'en']);
      const dot = (v: Float32Array): number => v.reduce((a, x, i) => a + x * q[i]!, 0);
      for (let round = 0; round < 2; round++) {
        const scores = await store.vectorScores('u', ['zh', 'en', 'missing', 'other'], q);
        expect([...scores.keys()].sort()).toEqual(['en', 'zh']);
        for (const id of ['zh', 'en']) expect(Math.abs(scores.get(id)! - dot(exact.get(id)!))).toBeLessThan(0.02);
        for (let i = 0; i < 4; i++) await store.searchVector({ userId: 'u', vector: q, k: 1 });
      }
      // The stored vectors stay exact whatever the scores come from.
      expect(await store.vectorsOf('u', ['zh'])).toEqual(new Map([['zh', exact.get('zh')]]));
    });

    it('records access without touching importance', async () => {
      const { store } = open();
      await store.insertMemory(mem('m', 'u', 'likes jasmine tea 茉莉花茶', { importance: 0.4 }), vec(1), user);
      await store.recordAccess('u', ['m', 'missing'], at(30));
      await store.recordAccess('u', ['m'], at(40));
      expect(await store.getMemory('u', 'm')).toMatchObject({ accessCount: 2, lastAccessedAt: at(40), importance: 0.4 });
    });

    it('purges row, vector, keyword row and the words of its history', async () => {
      const { store } = open();
      await store.insertMemory(mem('m', 'u', '秘密：我的密码提示是小黑'), vec(1), { actor: 'user', reason: '用户说的' });
      await store.purgeMemory('u', 'm', { actor: 'user', reason: 'asked' });
      expect(await store.getMemory('u', 'm')).toBeNull();
      expect(await store.searchKeyword({ userId: 'u', terms: indexTerms('密码'), k: 5 })).toEqual([]);
      expect((await store.vectorsOf('u', ['m'])).size).toBe(0);
      const history = await store.history('u', 'm');
      expect(history.at(-1)!.action).toBe('purge');
      expect(JSON.stringify(history)).not.toMatch(/密码|用户说的|asked/);
    });

    it('exports history by user, reports taken ids and imports a memory with its own history', async () => {
      const { store } = open();
      await store.insertMemory(mem('a', 'u', 'I speak Cantonese 我会说粤语'), vec(1), user);
      await store.updateMemory('u', 'a', { importance: 0.9 }, undefined, user);
      const events = await store.historyOfUser('u');
      expect(events.map((e) => [e.memoryId, e.action])).toEqual([['a', 'create'], ['a', 'update']]);
      expect(await store.takenIds('memories', ['a', 'b'])).toEqual(new Set(['a']));
      expect(await store.takenIds('history', [events[0]!.id, 'h?'])).toEqual(new Set([events[0]!.id]));
      expect(await store.takenIds('todos', ['t'])).toEqual(new Set());
      expect(await store.takenIds('relations', ['r'])).toEqual(new Set());

      await store.purgeMemory('u', 'a', user);
      const copy = mem('a', 'v', 'I speak Cantonese 我会说粤语', { importance: 0.9 });
      await store.importMemory(copy, vec(1), events.map((e) => ({ ...e, id: `v-${e.id}`, userId: 'v' })));
      expect(await store.getMemory('v', 'a')).toEqual(copy);
      expect((await store.history('v', 'a')).map((e) => [e.id, e.action, e.at.getTime()])).toEqual(events.map((e) => [`v-${e.id}`, e.action, e.at.getTime()]));
      expect((await store.searchKeyword({ userId: 'v', terms: indexTerms('粤语'), k: 5 })).map((h) => h.id)).toEqual(['a']);
      expect((await store.searchVector({ userId: 'v', vector: vec(1), k: 5 })).map((h) => h.id)).toEqual(['a']);
      await store.importMemory(null, null, [{ ...events[0]!, id: 'orphan', memoryId: 'purged-one', userId: 'v', before: null, after: null, action: 'purge', changed: [] }]);
      expect((await store.history('v', 'purged-one')).map((e) => e.id)).toEqual(['orphan']);
    });
  });
}
