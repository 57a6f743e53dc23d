import { describe, expect, it } from 'vitest';
import type { Memory } from '../../domain/memory.js';
import { EngramError } from '../../errors.js';
import { indexTerms } from '../../text/segment.js';
import { memoryFixture, user, useStore, vec, type StoreFactory } from './fixtures.js';

/** MemoriesPort queries: every field round-trips, filters, keyword and vector search, embedder binding, transactions. */
export function describeMemoryQueriesContract(name: string, factory: StoreFactory): void {
  describe(`memory queries: ${name}`, () => {
    const open = useStore(factory);

    it('round-trips a memory with every field', async () => {
      const { store } = open();
      const m = memoryFixture({
        id: 'm1', userId: 'u1', content: '用户喜欢猫', kind: 'preference', agentId: 'a1', sessionId: 's1', language: 'zh',
        structuredData: { animal: 'cat' }, provenance: { sessionId: 's1', messageIds: ['msg1'], producedBy: 'extract-memories@1' },
        expiresAt: new Date('2027-01-01T00:00:00Z'), happenedAt: new Date('2025-12-31T00:00:00Z'),
      });
      await store.insertMemory(m, vec(1), user);
      expect(await store.getMemory('u1', 'm1')).toEqual(m);
    });

    it('never returns another user\'s memory', async () => {
      const { store } = open();
      await store.insertMemory(memoryFixture({ id: 'm1', userId: 'u1', content: 'I love cats' }), vec(1), user);
      await store.insertMemory(memoryFixture({ id: 'm2', userId: 'u2', content: 'I love cats too' }), vec(1), user);
      expect(await store.getMemory('u2', 'm1')).toBeNull();
      expect((await store.listMemories({ userId: 'u2' })).map((m) => m.id)).toEqual(['m2']);
      expect((await store.searchVector({ userId: 'u2', vector: vec(1), k: 10 })).map((h) => h.id)).toEqual(['m2']);
      expect((await store.searchKeyword({ userId: 'u2', terms: indexTerms('cats'), k: 10 })).map((h) => h.id)).toEqual(['m2']);
      await expect(store.updateMemory('u2', 'm1', { content: 'x' }, undefined, user)).rejects.toSatisfy((e) => EngramError.hasCode(e, 'NOT_FOUND'));
    });

    it('finds Chinese and English text by keyword', async () => {
      const { store } = open();
      await store.insertMemory(memoryFixture({ id: 'zh', userId: 'u', content: '用户下周要去东京出差' }), vec(1), user);
      await store.insertMemory(memoryFixture({ id: 'en', userId: 'u', content: 'The user is travelling to Tokyo next week' }), vec(0, 1), user);
      expect((await store.searchKeyword({ userId: 'u', terms: indexTerms('东京'), k: 5 })).map((h) => h.id)).toEqual(['zh']);
      expect((await store.searchKeyword({ userId: 'u', terms: indexTerms('travel to tokyo'), k: 5 })).map((h) => h.id)).toEqual(['en']);
    });

    it('never throws on FTS syntax in terms', async () => {
      const { store } = open();
      await store.insertMemory(memoryFixture({ id: 'm', userId: 'u', content: 'quotes " and stars *' }), vec(1), user);
      for (const q of ['"', '*', 'NEAR', 'a OR', '-x', '(', ')', 'AND NOT', '"unterminated', '^', ':']) {
        await expect(store.searchKeyword({ userId: 'u', terms: [q], k: 5 })).resolves.toBeInstanceOf(Array);
      }
    });

    it('ranks vectors by cosine within the user and filters by status', async () => {
      const { store } = open();
      await store.insertMemory(memoryFixture({ id: 'near', userId: 'u', content: 'a' }), vec(1, 0.1), user);
      await store.insertMemory(memoryFixture({ id: 'far', userId: 'u', content: 'b' }), vec(0, 1), user);
      await store.insertMemory(memoryFixture({ id: 'gone', userId: 'u', content: 'c', status: 'deleted' }), vec(1), user);
      const hits = await store.searchVector({ userId: 'u', vector: vec(1), k: 5 });
      expect(hits.map((h) => h.id)).toEqual(['near', 'far']);
      expect(hits[0]!.score).toBeGreaterThan(0.99);
      expect((await store.searchVector({ userId: 'u', vector: vec(1), k: 5, statuses: ['deleted'] })).map((h) => h.id)).toEqual(['gone']);
    });

    it('writes a history event with before and after for every change', async () => {
      const { store } = open();
      await store.insertMemory(memoryFixture({ id: 'm', userId: 'u', content: '用户住在北京' }), vec(1), user);
      await store.updateMemory('u', 'm', { content: '用户住在上海', updatedAt: new Date('2026-02-01T00:00:00Z') }, vec(0, 1), { actor: 'extraction', reason: '用户搬家了', producedBy: 'extract-memories@1', messageIds: ['x'] });
      await store.updateMemory('u', 'm', { status: 'deleted' }, undefined, user);
      const events = await store.history('u', 'm');
      expect(events.map((e) => e.action)).toEqual(['create', 'update', 'delete']);
      expect(events[1]).toMatchObject({ changed: ['content'], before: { content: '用户住在北京' }, after: { content: '用户住在上海' }, actor: 'extraction', reason: '用户搬家了', producedBy: 'extract-memories@1', messageIds: ['x'] });
      // Soft-deleted memories leave the keyword and vector results.
      expect(await store.searchKeyword({ userId: 'u', terms: indexTerms('上海'), k: 5 })).toEqual([]);
      expect(await store.searchVector({ userId: 'u', vector: vec(0, 1), k: 5 })).toEqual([]);
    });

    it('updates the keyword index when content changes', async () => {
      const { store } = open();
      await store.insertMemory(memoryFixture({ id: 'm', userId: 'u', content: 'The user lives in Berlin' }), vec(1), user);
      await store.updateMemory('u', 'm', { content: 'The user lives in Paris' }, vec(1), user);
      expect(await store.searchKeyword({ userId: 'u', terms: indexTerms('Berlin'), k: 5 })).toEqual([]);
      expect((await store.searchKeyword({ userId: 'u', terms: indexTerms('Paris'), k: 5 })).map((h) => h.id)).toEqual(['m']);
    });

    it('lists with filters: kinds, status, time range, scope, expiry', async () => {
      const { store } = open();
      const d = (s: string) => new Date(s);
      await store.insertMemory(memoryFixture({ id: 'a', userId: 'u', content: 'a', kind: 'preference', createdAt: d('2026-01-01'), agentId: 'bot1' }), vec(1), user);
      await store.insertMemory(memoryFixture({ id: 'b', userId: 'u', content: 'b', kind: 'event', createdAt: d('2026-02-01'), sessionId: 's' }), vec(1), user);
      await store.insertMemory(memoryFixture({ id: 'c', userId: 'u', content: 'c', kind: 'fact', createdAt: d('2026-03-01'), expiresAt: d('2026-03-02') }), vec(1), user);
      await store.insertMemory(memoryFixture({ id: 'd', userId: 'u', content: 'd', status: 'archived' }), vec(1), user);
      const ids = async (q: object) => (await store.listMemories({ userId: 'u', ...q })).map((m) => m.id);
      expect(await ids({})).toEqual(['c', 'b', 'a', 'd'].filter((x) => x !== 'd'));
      expect(await ids({ kinds: ['preference', 'event'], order: 'asc' })).toEqual(['a', 'b']);
      expect(await ids({ statuses: ['archived'] })).toEqual(['d']);
      expect(await ids({ createdFrom: d('2026-01-15'), createdTo: d('2026-02-15') })).toEqual(['b']);
      expect(await ids({ agentId: 'bot1' })).toEqual(['a']);
      expect(await ids({ sessionId: 's' })).toEqual(['b']);
      expect(await ids({ notExpiredAt: d('2026-04-01') })).toEqual(['b', 'a']);
      expect(await store.countMemories({ userId: 'u', statuses: ['active', 'archived'] })).toBe(4);
    });

    it('lists the ranking fields of exactly what listMemories lists, with recorded accesses (zh, en)', async () => {
      const { store } = open();
      const d = (s: string) => new Date(s);
      await store.insertMemory(memoryFixture({ id: 'a', userId: 'u', content: '用户喜欢猫', kind: 'preference', importance: 0.7, happenedAt: d('2026-01-05') }), vec(1), user);
      await store.insertMemory(memoryFixture({ id: 'b', userId: 'u', content: 'The user adopted a cat', kind: 'event', createdAt: d('2026-02-01') }), vec(1), user);
      await store.insertMemory(memoryFixture({ id: 'c', userId: 'u', content: 'gone', status: 'deleted' }), vec(1), user);
      await store.insertMemory(memoryFixture({ id: 'x', userId: 'other', content: '别人的猫' }), vec(1), user);
      await store.recordAccess('u', ['a'], d('2026-03-01'));
      const pick = ({ id, userId, kind, content, importance, createdAt, updatedAt, happenedAt, lastAccessedAt, accessCount }: Memory) =>
        ({ id, userId, kind, content, importance, createdAt, updatedAt, accessCount, ...(happenedAt ? { happenedAt } : {}), ...(lastAccessedAt ? { lastAccessedAt } : {}) });
      for (const q of [{ ids: ['a', 'b', 'c', 'x'] }, { ids: ['a', 'b'], kinds: ['event' as const] }, { statuses: ['active' as const, 'deleted' as const] }]) {
        const fields = await store.listRankingFields({ userId: 'u', ...q });
        const whole = await store.listMemories({ userId: 'u', ...q });
        expect(fields.sort((x, y) => x.id.localeCompare(y.id))).toEqual(whole.map(pick).sort((x, y) => x.id.localeCompare(y.id)));
      }
      expect((await store.listRankingFields({ userId: 'u', ids: ['a'] }))[0]).toMatchObject({ accessCount: 1, lastAccessedAt: d('2026-03-01'), happenedAt: d('2026-01-05'), importance: 0.7 });
    });

    it('refuses a different embedder unless replacing, and then needs new vectors', async () => {
      const { store } = open();
      await store.insertMemory(memoryFixture({ id: 'm', userId: 'u', content: 'x' }), vec(1), user);
      await expect(store.bindEmbedder({ id: 'other@8', dimensions: 8 })).rejects.toSatisfy((e) => EngramError.hasCode(e, 'EMBEDDER_MISMATCH'));
      await store.bindEmbedder({ id: 'other@8', dimensions: 8 }, { replace: true });
      expect(await store.pendingVectors('memories', 10)).toEqual([{ userId: 'u', id: 'm', content: 'x' }]);
      const v8 = new Float32Array(8).fill(Math.SQRT1_2 / 2);
      await store.setVectors('memories', [{ userId: 'u', id: 'm', vector: v8 }], 'other@8');
      expect(await store.pendingVectors('memories', 10)).toEqual([]);
      expect((await store.searchVector({ userId: 'u', vector: v8, k: 1 })).map((h) => h.id)).toEqual(['m']);
    });

    it('applies a transaction whole or not at all', async () => {
      const { store } = open();
      await expect(
        store.transaction(async (tx) => {
          await tx.insertMemory(memoryFixture({ id: 't1', userId: 'u', content: 'one' }), vec(1), user);
          throw new Error('crash midway');
        }),
      ).rejects.toThrow('crash midway');
      expect(await store.getMemory('u', 't1')).toBeNull();
      expect(await store.history('u', 't1')).toEqual([]);
      await store.transaction(async (tx) => {
        await tx.insertMemory(memoryFixture({ id: 't2', userId: 'u', content: 'two' }), vec(1), user);
        await tx.updateMemory('u', 't2', { importance: 0.9 }, undefined, user);
      });
      expect((await store.getMemory('u', 't2'))!.importance).toBe(0.9);
    });
  });
}
