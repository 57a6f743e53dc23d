import { describe, expect, it } from 'vitest';
import { memoryVersion } from '../../domain/memory-version.js';
import { EngramError } from '../../errors.js';
import { at, mem, user, useStore, vec, type StoreFactory } from './fixtures.js';

const stale = (e: unknown): boolean => EngramError.hasCode(e, 'PRECONDITION_FAILED');

/**
 * MemoriesPort.updateMemory with a condition (optimistic concurrency, HTTP If-Match): the version
 * is compared on the row the write holds, so a change based on a version read before someone else's
 * change is refused and writes nothing, however many callers race on one store.
 */
export function describeConditionalUpdateContract(name: string, factory: StoreFactory): void {
  describe(`memories port, conditional update: ${name}`, () => {
    const open = useStore(factory);

    it('applies at the version read; refuses a stale version and writes nothing, history included (zh, en)', async () => {
      const { store } = open();
      for (const [id, content, edited] of [['zh', '用户每天早上喝咖啡', '用户每天早上喝两杯咖啡'], ['en', 'The user drinks coffee every morning', 'The user drinks two cups of coffee every morning']] as const) {
        await store.insertMemory(mem(id, 'u', content, { kind: 'pattern', importance: 0.3, structuredData: { at: at(1) } }), vec(1), user);
        const read = await store.getMemory('u', id);
        const v0 = memoryVersion(read!);
        // Another client changes importance and kind meanwhile.
        const other = await store.updateMemory('u', id, { importance: 0.9, kind: 'preference', updatedAt: at(2) }, undefined, user, { ifVersion: [v0] });
        const v1 = memoryVersion(other);
        expect(v1).not.toBe(v0);
        expect(memoryVersion((await store.getMemory('u', id))!)).toBe(v1);

        // The page's save, made against what it read: refused, nothing written.
        const error = await store.updateMemory('u', id, { content: edited, updatedAt: at(3) }, vec(0, 1), user, { ifVersion: [v0] }).then(() => null, (e: unknown) => e);
        expect(stale(error), String(error)).toBe(true);
        expect((error as EngramError).details).toMatchObject({ id, expected: [v0], current: v1 });
        expect(await store.getMemory('u', id)).toMatchObject({ content, kind: 'preference', importance: 0.9 });
        expect((await store.history('u', id)).map((h) => h.action)).toEqual(['create', 'update']);
        expect((await store.vectorsOf('u', [id])).get(id)![0]).toBeCloseTo(1);

        // Against the current version (one of several given) it applies.
        const saved = await store.updateMemory('u', id, { content: edited, updatedAt: at(3) }, vec(0, 1), user, { ifVersion: ['no-such-version', v1] });
        expect(saved).toMatchObject({ content: edited, kind: 'preference', importance: 0.9 });
        expect(memoryVersion((await store.getMemory('u', id))!)).toBe(memoryVersion(saved));
      }
    });

    it('a stale version is refused even when the patch changes nothing; a missing memory is still NOT_FOUND', async () => {
      const { store } = open();
      await store.insertMemory(mem('m', 'u', 'I like green tea 我喜欢绿茶'), vec(1), user);
      const v0 = memoryVersion((await store.getMemory('u', 'm'))!);
      await store.updateMemory('u', 'm', { status: 'deleted' }, undefined, user);
      await expect(store.updateMemory('u', 'm', { status: 'deleted' }, undefined, user, { ifVersion: [v0] })).rejects.toSatisfy(stale);
      await expect(store.updateMemory('u', 'missing', { importance: 0.1 }, undefined, user, { ifVersion: [v0] })).rejects.toSatisfy((e) => EngramError.hasCode(e, 'NOT_FOUND'));
    });

    it('recall marking a memory accessed does not change its version (an open editor lost nothing)', async () => {
      const { store } = open();
      await store.insertMemory(mem('m', 'u', '用户对花生过敏'), vec(1), user);
      const v0 = memoryVersion((await store.getMemory('u', 'm'))!);
      await store.recordAccess('u', ['m'], at(9));
      expect(memoryVersion((await store.getMemory('u', 'm'))!)).toBe(v0);
      await expect(store.updateMemory('u', 'm', { importance: 0.8 }, undefined, user, { ifVersion: [v0] })).resolves.toMatchObject({ importance: 0.8 });
    });

    it('inside a transaction: a stale version rolls the transaction back', async () => {
      const { store } = open();
      await store.insertMemory(mem('m', 'u', 'The user lives in Berlin 用户住在柏林'), vec(1), user);
      const v0 = memoryVersion((await store.getMemory('u', 'm'))!);
      await store.updateMemory('u', 'm', { importance: 0.7 }, undefined, user);
      const error = await store.transaction(async (tx) => {
        await tx.setSettings('u', { silentMinutes: 7 });
        await tx.updateMemory('u', 'm', { content: 'The user lives in Paris' }, undefined, user, { ifVersion: [v0] });
      }).then(() => null, (e: unknown) => e);
      expect(stale(error)).toBe(true);
      expect((await store.getMemory('u', 'm'))!.content).toBe('The user lives in Berlin 用户住在柏林');
      expect((await store.ownSettings('u')).silentMinutes).toBeUndefined();
    });

    it('callers racing with the same version: exactly one change applies, the others are refused', async () => {
      const { store } = open();
      await store.insertMemory(mem('m', 'u', '用户每天早上喝咖啡 / drinks coffee every morning', { importance: 0.3 }), vec(1), user);
      const v0 = memoryVersion((await store.getMemory('u', 'm'))!);
      const values = [0.1, 0.2, 0.4, 0.6, 0.8, 0.9];
      const results = await Promise.allSettled(values.map((importance) => store.updateMemory('u', 'm', { importance }, undefined, user, { ifVersion: [v0] })));
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected').every((r) => stale((r as PromiseRejectedResult).reason))).toBe(true);
      const winner = (won[0] as PromiseFulfilledResult<{ importance: number }>).value.importance;
      expect((await store.getMemory('u', 'm'))!.importance).toBe(winner);
      expect((await store.history('u', 'm')).map((h) => h.action)).toEqual(['create', 'update']);
    });

    it('soft delete, restore and purge with a stale version are refused and change nothing; at the current version they apply (zh, en)', async () => {
      const { store } = open();
      for (const [id, content] of [['zh', '用户对花生过敏'], ['en', 'The user is allergic to peanuts']] as const) {
        await store.insertMemory(mem(id, 'u', content), vec(1), user);
        const v0 = memoryVersion((await store.getMemory('u', id))!);
        const other = await store.updateMemory('u', id, { kind: 'identity', updatedAt: at(2) }, undefined, user);
        await expect(store.updateMemory('u', id, { status: 'deleted', updatedAt: at(3) }, undefined, user, { ifVersion: [v0] })).rejects.toSatisfy(stale);
        await expect(store.purgeMemory('u', id, user, { ifVersion: [v0] })).rejects.toSatisfy(stale);
        expect(await store.getMemory('u', id)).toMatchObject({ content, kind: 'identity', status: 'active' });
        expect((await store.history('u', id)).map((h) => h.action)).toEqual(['create', 'update']);

        const deleted = await store.updateMemory('u', id, { status: 'deleted', updatedAt: at(3) }, undefined, user, { ifVersion: [memoryVersion(other)] });
        await expect(store.updateMemory('u', id, { status: 'active', updatedAt: at(4) }, undefined, user, { ifVersion: [memoryVersion(other)] })).rejects.toSatisfy(stale);
        await store.updateMemory('u', id, { status: 'active', updatedAt: at(4) }, undefined, user, { ifVersion: [memoryVersion(deleted)] });
        await store.purgeMemory('u', id, user, { ifVersion: [memoryVersion((await store.getMemory('u', id))!)] });
        expect(await store.getMemory('u', id)).toBeNull();
      }
    });

    it('decay and reinforcement since the version read (importance alone) pass a change of other fields, not one that sets importance (zh, en)', async () => {
      const { store } = open();
      const lifecycle = { actor: 'lifecycle' as const, action: 'decay' as const };
      const used = { actor: 'system' as const, action: 'reinforce' as const };
      for (const [id, content, edited] of [['zh', '用户每天早上喝咖啡', '用户每天早上喝两杯咖啡'], ['en', 'The user drinks coffee every morning', 'The user drinks two cups of coffee every morning']] as const) {
        await store.insertMemory(mem(id, 'u', content, { importance: 0.3 }), vec(1), user);
        const v0 = memoryVersion((await store.getMemory('u', id))!);
        // Overnight: a decay, then a reply that used it.
        await store.updateMemory('u', id, { importance: 0.27, decayedAt: at(5) }, undefined, lifecycle);
        await store.updateMemory('u', id, { importance: 0.37, updatedAt: at(6) }, undefined, used);
        expect(memoryVersion((await store.getMemory('u', id))!)).not.toBe(v0);

        // The editor opened before them sets importance: refused, it was based on 0.3.
        await expect(store.updateMemory('u', id, { importance: 0.5, updatedAt: at(7) }, undefined, user, { ifVersion: [v0] })).rejects.toSatisfy(stale);
        // It saves the words: they apply, and Engram's importance stays.
        const saved = await store.updateMemory('u', id, { content: edited, updatedAt: at(7) }, vec(0, 1), user, { ifVersion: [v0] });
        expect(saved).toMatchObject({ content: edited, importance: 0.37 });

        // A person's change after the drift is a conflict again, however the history reads back.
        await store.updateMemory('u', id, { importance: 0.33, decayedAt: at(8) }, undefined, lifecycle);
        await expect(store.updateMemory('u', id, { status: 'deleted', updatedAt: at(9) }, undefined, user, { ifVersion: [v0] })).rejects.toSatisfy(stale);
        await expect(store.purgeMemory('u', id, user, { ifVersion: [v0] })).rejects.toSatisfy(stale);
        // …while the version the save left, drifted since, still deletes it.
        await expect(store.updateMemory('u', id, { status: 'deleted', updatedAt: at(9) }, undefined, user, { ifVersion: [memoryVersion(saved)] })).resolves.toMatchObject({ status: 'deleted', content: edited });
      }
    });
  });
}
