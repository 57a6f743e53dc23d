import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Memory } from '../domain/memory.js';
import { EngramError } from '../errors.js';
import { indexTerms } from '../text/segment.js';
import type { Store } from './store.js';

function vec(...xs: number[]): Float32Array {
  const v = new Float32Array(4);
  xs.forEach((x, i) => (v[i] = x));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

export function memoryFixture(over: Partial<Memory> & Pick<Memory, 'id' | 'userId' | 'content'>): Memory {
  const at = new Date('2026-01-01T00:00:00Z');
  return {
    kind: 'fact',
    importance: 0.5,
    confidence: 1,
    source: 'manual',
    verified: true,
    core: false,
    status: 'active',
    provenance: { messageIds: [] },
    language: 'en',
    createdAt: at,
    updatedAt: at,
    accessCount: 0,
    embedderId: 'test@4',
    ...over,
  };
}

const user = { actor: 'user' } as const;

/**
 * The contract every Store implementation runs (STYLE habit 5). `open` returns a fresh, empty store.
 */
export function runStoreContract(name: string, open: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
      await store.bindEmbedder({ id: 'test@4', dimensions: 4 });
    });
    afterEach(async () => store.close());

    it('round-trips a memory with every field', async () => {
      const m = memoryFixture({
        id: 'm1', userId: 'u1', content: '用户喜欢猫', kind: 'preference', agentId: 'a1', sessionId: 's1', language: 'zh',
        structuredData: { animal: 'cat' }, provenance: { sessionId: 's1', messageIds: ['msg1'], producedBy: 'extract-memories@1' },
        expiresAt: new Date('2027-01-01T00:00:00Z'), happenedAt: new Date('2025-12-31T00:00:00Z'),
      });
      await store.insertMemory(m, vec(1), user);
      expect(await store.getMemory('u1', 'm1')).toEqual(m);
    });

    it('never returns another user\'s memory', async () => {
      await store.insertMemory(memoryFixture({ id: 'm1', userId: 'u1', content: 'I love cats' }), vec(1), user);
      await store.insertMemory(memoryFixture({ id: 'm2', userId: 'u2', content: 'I love cats too' }), vec(1), user);
      expect(await store.getMemory('u2', 'm1')).toBeNull();
      expect((await store.listMemories({ userId: 'u2' })).map((m) => m.id)).toEqual(['m2']);
      expect((await store.searchVector({ userId: 'u2', vector: vec(1), k: 10 })).map((h) => h.id)).toEqual(['m2']);
      expect((await store.searchKeyword({ userId: 'u2', terms: indexTerms('cats'), k: 10 })).map((h) => h.id)).toEqual(['m2']);
      await expect(store.updateMemory('u2', 'm1', { content: 'x' }, undefined, user)).rejects.toSatisfy((e) => EngramError.hasCode(e, 'NOT_FOUND'));
    });

    it('finds Chinese and English text by keyword', async () => {
      await store.insertMemory(memoryFixture({ id: 'zh', userId: 'u', content: '用户下周要去东京出差' }), vec(1), user);
      await store.insertMemory(memoryFixture({ id: 'en', userId: 'u', content: 'The user is travelling to Tokyo next week' }), vec(0, 1), user);
      expect((await store.searchKeyword({ userId: 'u', terms: indexTerms('东京'), k: 5 })).map((h) => h.id)).toEqual(['zh']);
      expect((await store.searchKeyword({ userId: 'u', terms: indexTerms('travel to tokyo'), k: 5 })).map((h) => h.id)).toEqual(['en']);
    });

    it('never throws on FTS syntax in terms', async () => {
      await store.insertMemory(memoryFixture({ id: 'm', userId: 'u', content: 'quotes " and stars *' }), vec(1), user);
      for (const q of ['"', '*', 'NEAR', 'a OR', '-x', '(', ')', 'AND NOT', '"unterminated', '^', ':']) {
        await expect(store.searchKeyword({ userId: 'u', terms: [q], k: 5 })).resolves.toBeInstanceOf(Array);
      }
    });

    it('ranks vectors by cosine within the user and filters by status', async () => {
      await store.insertMemory(memoryFixture({ id: 'near', userId: 'u', content: 'a' }), vec(1, 0.1), user);
      await store.insertMemory(memoryFixture({ id: 'far', userId: 'u', content: 'b' }), vec(0, 1), user);
      await store.insertMemory(memoryFixture({ id: 'gone', userId: 'u', content: 'c', status: 'deleted' }), vec(1), user);
      const hits = await store.searchVector({ userId: 'u', vector: vec(1), k: 5 });
      expect(hits.map((h) => h.id)).toEqual(['near', 'far']);
      expect(hits[0]!.score).toBeGreaterThan(0.99);
      expect((await store.searchVector({ userId: 'u', vector: vec(1), k: 5, statuses: ['deleted'] })).map((h) => h.id)).toEqual(['gone']);
    });

    it('writes a history event with before and after for every change', async () => {
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
      await store.insertMemory(memoryFixture({ id: 'm', userId: 'u', content: 'The user lives in Berlin' }), vec(1), user);
      await store.updateMemory('u', 'm', { content: 'The user lives in Paris' }, vec(1), user);
      expect(await store.searchKeyword({ userId: 'u', terms: indexTerms('Berlin'), k: 5 })).toEqual([]);
      expect((await store.searchKeyword({ userId: 'u', terms: indexTerms('Paris'), k: 5 })).map((h) => h.id)).toEqual(['m']);
    });

    it('purge erases row, vector and keyword row, and the content from history', async () => {
      await store.insertMemory(memoryFixture({ id: 'm', userId: 'u', content: 'secret diary entry' }), vec(1), user);
      await store.purgeMemory('u', 'm', user);
      expect(await store.getMemory('u', 'm')).toBeNull();
      expect(await store.searchKeyword({ userId: 'u', terms: indexTerms('secret'), k: 5 })).toEqual([]);
      expect(await store.searchVector({ userId: 'u', vector: vec(1), k: 5, statuses: ['active', 'deleted', 'archived'] })).toEqual([]);
      const events = await store.history('u', 'm');
      expect(JSON.stringify(events)).not.toContain('secret');
      expect(events.at(-1)!.action).toBe('purge');
    });

    it('records access without touching importance', async () => {
      await store.insertMemory(memoryFixture({ id: 'm', userId: 'u', content: 'x', importance: 0.4 }), vec(1), user);
      await store.recordAccess('u', ['m'], new Date('2026-03-01T00:00:00Z'));
      await store.recordAccess('u', ['m'], new Date('2026-03-02T00:00:00Z'));
      const m = (await store.getMemory('u', 'm'))!;
      expect(m).toMatchObject({ accessCount: 2, importance: 0.4, lastAccessedAt: new Date('2026-03-02T00:00:00Z') });
    });

    it('lists with filters: kinds, status, time range, scope, expiry', async () => {
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

    it('refuses a different embedder unless replacing, and then needs new vectors', async () => {
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

/** The conversation half of the contract. */
export function runMessageStoreContract(name: string, open: () => Promise<Store>): void {
  describe(`Store contract (messages): ${name}`, () => {
    let store: Store;
    const at = (min: number) => new Date(Date.UTC(2026, 0, 1, 0, min));
    const msg = (id: string, content: string, min: number, role: 'user' | 'assistant' = 'user') => ({ id, role, content, createdAt: at(min), vector: vec(min % 4 === 0 ? 1 : 0, 1), embedderId: 'test@4' });
    beforeEach(async () => {
      store = await open();
      await store.bindEmbedder({ id: 'test@4', dimensions: 4 });
    });
    afterEach(async () => store.close());

    it('appends in order, idempotent by message id, and tracks the session', async () => {
      const first = await store.appendMessages('u', 's1', [msg('a', '你好', 0), msg('b', '我下周要去东京出差', 1)]);
      expect(first.map((m) => [m.id, m.seq])).toEqual([['a', 0], ['b', 1]]);
      const again = await store.appendMessages('u', 's1', [msg('b', '我下周要去东京出差', 1), msg('c', 'Sounds great', 2, 'assistant')]);
      expect(again.map((m) => [m.id, m.seq])).toEqual([['c', 2]]);
      expect((await store.listMessages({ userId: 'u', sessionId: 's1' })).map((m) => m.id)).toEqual(['a', 'b', 'c']);
      const session = (await store.getSession('u', 's1'))!;
      expect(session).toMatchObject({ id: 's1', userId: 'u', processedSeq: -1, lastActiveAt: at(2), extractionState: 'ok' });
    });

    it('keeps users apart, even with the same message and session ids', async () => {
      await store.appendMessages('u1', 's', [msg('m', 'I love cats', 0)]);
      await store.appendMessages('u2', 's', [msg('m', 'I love dogs', 0)]);
      expect((await store.listMessages({ userId: 'u2' })).map((m) => m.content)).toEqual(['I love dogs']);
      expect((await store.searchMessageKeyword({ userId: 'u2', terms: indexTerms('cats'), k: 5 }))).toEqual([]);
      expect((await store.searchMessageVector({ userId: 'u2', vector: vec(1, 1), k: 5 })).map((h) => h.id)).toEqual(['m']);
      expect((await store.messageVectorsOf('u2', ['m'])).size).toBe(1);
    });

    it('searches Chinese and English messages and finds neighbours', async () => {
      await store.appendMessages('u', 's', [msg('1', '缓存方案用 Redis 还是 Memcached？', 0), msg('2', '取决于你的需求', 1, 'assistant'), msg('3', 'I decided to use Redis', 2), msg('4', 'Good choice', 3, 'assistant')]);
      expect((await store.searchMessageKeyword({ userId: 'u', terms: indexTerms('缓存方案'), k: 5 })).map((h) => h.id)).toEqual(['1']);
      expect((await store.searchMessageKeyword({ userId: 'u', terms: indexTerms('decide redis'), k: 5 })).map((h) => h.id)[0]).toBe('3');
      expect((await store.messageNeighbours('u', ['3'], 1)).map((m) => m.id).sort()).toEqual(['2', '3', '4']);
      expect((await store.listMessages({ userId: 'u', sessionId: 's', afterSeq: 1, throughSeq: 2 })).map((m) => m.id)).toEqual(['3']);
    });

    it('deletes expired messages with their index rows, once extraction has seen them', async () => {
      await store.appendMessages('u', 's', [{ ...msg('old', 'ancient history', 0), expiresAt: at(10) }, { ...msg('new', 'ancient scrolls', 1), expiresAt: at(100) }]);
      expect(await store.deleteExpiredMessages(at(50))).toBe(0);
      await store.markProcessed('u', 's', 1, 'new', at(2));
      expect(await store.deleteExpiredMessages(at(50))).toBe(1);
      expect((await store.searchMessageKeyword({ userId: 'u', terms: indexTerms('ancient'), k: 5 })).map((h) => h.id)).toEqual(['new']);
      expect((await store.listMessages({ userId: 'u' })).map((m) => m.id)).toEqual(['new']);
    });

    it('purges given messages of one user only, with their index rows', async () => {
      await store.appendMessages('u', 's', [msg('a', '我在西湖边画画', 0), msg('b', 'I painted by the lake', 1)]);
      await store.appendMessages('v', 's', [msg('a', '我在西湖边画画', 0)]);
      expect(await store.purgeMessages('u', ['a', 'missing'])).toBe(1);
      expect((await store.listMessages({ userId: 'u' })).map((m) => m.id)).toEqual(['b']);
      expect(await store.searchMessageKeyword({ userId: 'u', terms: indexTerms('西湖'), k: 5 })).toEqual([]);
      expect((await store.messageVectorsOf('u', ['a', 'b'])).has('a')).toBe(false);
      expect((await store.searchMessageKeyword({ userId: 'v', terms: indexTerms('西湖'), k: 5 })).map((h) => h.id)).toEqual(['a']);
    });
  });
}
