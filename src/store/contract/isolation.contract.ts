import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EngramError } from '../../errors.js';
import { indexTerms } from '../../text/segment.js';
import { fillUser } from './lifecycle.contract.js';
import { at, mem, msg, todo, user, useStore, vec, type StoreFactory } from './fixtures.js';
import { relation } from './layers.contract.js';
import { snapshotUser } from './snapshot.js';

const texts = ['我喜欢猫', '周末去爬山', 'I love cats', 'hiking on weekends', '猫 cats 爬山 hiking'];

/**
 * Isolation: whatever two users write (the same ids and sessions included), no read of one user
 * returns a row of the other, and no write of one (given the other's ids) changes the other.
 */
export function describeIsolationContract(name: string, factory: StoreFactory): void {
  describe(`isolation: ${name}`, () => {
    const open = useStore(factory);

    it('a second user\'s rows never appear in any read of the first (property, zh and en)', async () => {
      const { store } = open();
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(fc.record({ text: fc.constantFrom(...texts), id: fc.constantFrom('a', 'b', 'c'), x: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 5 }), async (rows) => {
          const [a, b] = [`A${run}`, `B${run}`];
          run += 1;
          await store.insertMemory(mem(`${a}-own`, a, '只属于A的记忆 only A'), vec(0, 0, 0, 1), user);
          for (const [i, r] of rows.entries()) {
            // The other user writes the same words, sessions and message ids (memory ids are unique store-wide).
            const id = `${b}-${r.id}`;
            if ((await store.getMemory(b, id)) === null) await store.insertMemory(mem(id, b, r.text), vec(r.x + 1, 1), user);
            await store.appendMessages(b, 's', [msg(`${r.id}${i}`, r.text, i)]);
            await store.insertTodo(todo(`${b}-${i}`, b, r.text, { remindAt: at(1) }));
            await store.setSettings(b, { [`k${i}`]: r.text });
            await store.insertRelation(relation(`${b}-r${i}`, b, id, `${b}-a`));
            await store.insertProfile({ userId: b, version: i, narrative: r.text, basicInfo: {}, episodeCount: 0, createdAt: at(i) });
            await store.recordExtractionRun({ id: `${b}-run${i}`, userId: b, sessionId: 's', fromSeq: 0, throughSeq: i, extractor: 'heuristic', outcome: 'applied', counts: {}, rejected: [], at: at(i) });
          }
          await store.appendMessages(a, 'mine', [msg('own-x', 'A 自己的消息', 0)]);
          const mine = await snapshotUser(store, a);
          expect(JSON.stringify(mine)).not.toContain(b);
          expect(mine.memories.map((m) => m.id)).toEqual([`${a}-own`]);
          expect(mine.messages.map((m) => m.id)).toEqual(['own-x']);
          expect(mine.relations).toEqual([]);
          expect(mine.profiles).toEqual([]);
          expect(mine.runs).toEqual([[]]);
          expect(mine.todos).toEqual([]);
          expect(mine.settings).toEqual({});
          for (const r of rows) {
            expect(await store.getMemory(a, `${b}-${r.id}`)).toBeNull();
            expect((await store.searchKeyword({ userId: a, terms: indexTerms(r.text), k: 10 })).map((h) => h.id)).not.toContain(`${b}-${r.id}`);
          }
          expect((await store.searchVector({ userId: a, vector: vec(1, 1), k: 50 })).map((h) => h.id)).toEqual([`${a}-own`]);
          expect((await store.searchMessageVector({ userId: a, vector: vec(1, 1), k: 50 })).map((h) => h.id)).toEqual(['own-x']);
          expect(await store.searchMessageKeyword({ userId: a, terms: indexTerms(texts.join(' ')), k: 50 })).toEqual([]);
          expect(await store.messageNeighbours(a, rows.map((r, i) => `${r.id}${i}`), 3)).toEqual([]);
          expect(await store.listExtractionRuns(a, 's')).toEqual([]);
          expect(await store.deliveriesOf(a, `${b}-0`)).toEqual([]);
          expect(await store.getSession(a, 's')).toBeNull();
          expect(await store.vectorsOf(a, ['a', 'b', 'c'].map((id) => `${b}-${id}`))).toEqual(new Map());
        }),
        { numRuns: 12 },
      );
    });

    it('writes of one user given the other\'s ids change nothing of the other', async () => {
      const { store } = open();
      await fillUser(store, 'v', 'zh');
      const before = await snapshotUser(store, 'v');
      const notFound = (e: unknown) => e instanceof EngramError && e.code === 'NOT_FOUND';
      await expect(store.updateMemory('u', 'v-m1', { content: 'hijacked' }, undefined, user)).rejects.toSatisfy(notFound);
      await store.purgeMemory('u', 'v-m1', user).catch((error: unknown) => expect(notFound(error)).toBe(true));
      await store.recordAccess('u', ['v-m1'], at(50));
      expect(await store.purgeMessages('u', ['v-x1', 'v-x2'])).toBe(0);
      await expect(store.updateTodo('u', 'v-t1', { completed: true })).rejects.toSatisfy(notFound);
      await store.deleteTodo('u', 'v-t1').catch((error: unknown) => expect(notFound(error)).toBe(true));
      expect(await store.deleteRelation('u', 'v-r1')).toBe(false);
      await store.deleteProfileVersions('u', [1]);
      await store.markProcessed('u', 's', 1, 'v-x2', at(3));
      await store.endSession('u', 's', at(3));
      expect(await store.acquireSessionLease('u', 's', 'w', at(0), at(5))).toBeNull();
      await store.recordDeliveryFailure('u', 'v-t1', 'nope', at(99));
      expect(JSON.stringify(await snapshotUser(store, 'u'))).not.toContain('v-');
      await store.forgetUser('u');
      expect(await snapshotUser(store, 'v')).toEqual(before);
      expect(await store.relationsOf('u', 'v-m1')).toEqual([]);
      await store.insertRelation(relation('u-r', 'u', 'v-m1', 'v-m2'));
      expect(await store.relationsOf('v', 'v-m1')).toEqual(before.relations);
    });
  });
}
