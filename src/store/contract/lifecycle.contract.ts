import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Store } from '../store.js';
import { at, mem, msg, todo, user, useStore, vec, type StoreFactory } from './fixtures.js';
import { profile, relation } from './layers.contract.js';
import { snapshotUser } from './snapshot.js';

/** Fills every table for a user, in Chinese or English. */
export async function fillUser(store: Store, userId: string, lang: 'zh' | 'en'): Promise<void> {
  const text = lang === 'zh' ? ['我养了一只猫', '下周去北京出差', '提醒我订酒店'] : ['I have a cat', 'Business trip to Beijing next week', 'Remind me to book a hotel'];
  await store.insertMemory(mem(`${userId}-m1`, userId, text[0]!), vec(1), user);
  await store.insertMemory(mem(`${userId}-m2`, userId, text[1]!, { kind: 'plan' }), vec(0, 1), user);
  await store.updateMemory(userId, `${userId}-m2`, { importance: 0.9 }, undefined, user);
  await store.appendMessages(userId, 's', [msg(`${userId}-x1`, text[0]!, 0), msg(`${userId}-x2`, text[2]!, 1)]);
  await store.insertTodo(todo(`${userId}-t1`, userId, text[2]!, { remindAt: at(5) }));
  await store.recordDelivery(userId, `${userId}-t1`, `${userId}-d1`, at(6));
  await store.insertProfile(profile(userId, 1, text[0]!));
  await store.insertRelation(relation(`${userId}-r1`, userId, `${userId}-m2`, `${userId}-m1`));
  await store.setSettings(userId, { timeZone: lang === 'zh' ? 'Asia/Shanghai' : 'Europe/London' });
  await store.recordExtractionRun({ id: `${userId}-run`, userId, sessionId: 's', fromSeq: 0, throughSeq: 1, extractor: 'heuristic', outcome: 'applied', counts: { added: 2 }, rejected: [], at: at(2) });
}

/** LifecyclePort: users, forgetting with its fence, backup, transactions (atomic, nested), close. */
export function describeLifecycleContract(name: string, factory: StoreFactory): void {
  describe(`lifecycle port: ${name}`, () => {
    const open = useStore(factory);

    it('lists users, and forgetUser erases every row of one user only and raises the fence', async () => {
      const { store } = open();
      await fillUser(store, 'u', 'zh');
      await fillUser(store, 'v', 'en');
      expect((await store.userIds()).sort()).toEqual(['u', 'v']);
      const before = await snapshotUser(store, 'v');
      const generation = await store.forgetGeneration('u');
      const counts = await store.forgetUser('u');
      expect(counts).toMatchObject({ memories: 2, messages: 2, todos: 1, profiles: 1 });
      expect(await store.forgetGeneration('u')).toBeGreaterThan(generation);
      expect({ ...(await snapshotUser(store, 'u')), forgetGeneration: 0 }).toEqual(await snapshotUser(store, 'nobody'));
      expect(await snapshotUser(store, 'v')).toEqual(before);
      expect(await store.userIds()).toEqual(['v']);
    });

    it('lists users who have only settings, a todo, a profile or the history of a purged memory; never the global "*"', async () => {
      const { store } = open();
      await store.setSettings('*', { silentMinutes: 5 });
      await store.setSettings('王芳', { timeZone: 'Asia/Shanghai' });
      await store.insertTodo(todo('t1', 'bob', 'Call the dentist'));
      await store.insertProfile(profile('张伟', 1, '喜欢爬山'));
      await store.insertMemory(mem('m', 'carol', 'My passport number is 123'), vec(1), user);
      await store.purgeMemory('carol', 'm', user);
      expect((await store.userIds()).sort()).toEqual(['bob', 'carol', '张伟', '王芳'].sort());
      await store.forgetUser('王芳');
      await store.forgetUser('bob');
      expect((await store.userIds()).sort()).toEqual(['carol', '张伟'].sort());
    });

    it('purgeMemory raises the forget fence too', async () => {
      const { store } = open();
      await store.insertMemory(mem('m', 'u', '我的身份证号'), vec(1), user);
      const g = await store.forgetGeneration('u');
      await store.purgeMemory('u', 'm', user);
      expect(await store.forgetGeneration('u')).toBeGreaterThan(g);
      expect(await store.forgetGeneration('v')).toBe(0);
    });

    it('a transaction that throws leaves nothing, whatever it wrote first (property)', async () => {
      const { store } = open();
      await fillUser(store, 'u', 'zh');
      const before = await snapshotUser(store, 'u');
      const step = fc.constantFrom('memory', 'update', 'purge', 'message', 'todo', 'delivery', 'profile', 'relation', 'settings', 'forget');
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), fc.string({ minLength: 1, maxLength: 12 }), async (steps, text) => {
          // A step may fail on its own (a purged memory updated next): any throw must roll back.
          await expect(
            store.transaction(async (tx) => {
              for (const [i, s] of steps.entries()) await writeStep(tx, s, i, text);
              throw new Error('crash midway 中途崩溃');
            }),
          ).rejects.toBeInstanceOf(Error);
          expect(await snapshotUser(store, 'u')).toEqual(before);
        }),
        { numRuns: 15 },
      );
    });

    it('commits a transaction whole, with the history written in it, and nests', async () => {
      const { store } = open();
      const result = await store.transaction(async (tx) => {
        await tx.insertMemory(mem('m', 'u', 'Learning 日语'), vec(1), user);
        await tx.updateMemory('u', 'm', { importance: 0.7 }, undefined, user);
        return tx.transaction(async (inner) => {
          await inner.insertTodo(todo('t', 'u', '背五十音'));
          return 'done';
        });
      });
      expect(result).toBe('done');
      expect((await store.history('u', 'm')).map((h) => h.action)).toEqual(['create', 'update']);
      expect((await store.listTodos({ userId: 'u' })).map((t) => t.id)).toEqual(['t']);
    });

    it('backs up to a file while open (or refuses with a typed error where the adapter has no file)', async () => {
      const { store, traits } = open();
      await fillUser(store, 'u', 'en');
      if (traits?.backup === false) {
        await expect(store.backup(join(tmpdir(), 'never.db'))).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
        return;
      }
      const path = join(mkdtempSync(join(tmpdir(), 'engram-backup-')), 'copy.db');
      const copy = await store.backup(path);
      expect(copy.path).toBe(path);
      expect(copy.pages).toBeGreaterThan(0);
    });
    it('job leases: one owner at a time, taken over once expired, released only by the holder (zh and en names)', async () => {
      const { store } = open();
      for (const job of ['lifecycle:2026-03-02', 'profile:王芳']) {
        expect(await store.acquireJobLease(job, 'worker-A', at(0), at(5))).toBe(true);
        expect(await store.acquireJobLease(job, 'worker-B', at(1), at(6))).toBe(false);
        // The holder renews its own lease; the other still cannot take it before the new expiry.
        expect(await store.acquireJobLease(job, 'worker-A', at(4), at(10))).toBe(true);
        expect(await store.acquireJobLease(job, 'worker-B', at(8), at(12))).toBe(false);
        // Released by a non-owner: nothing happens.
        await store.releaseJobLease(job, 'worker-B');
        expect(await store.acquireJobLease(job, 'worker-C', at(9), at(12))).toBe(false);
        // Expired: the next asker takes it over, and the old holder is out.
        expect(await store.acquireJobLease(job, 'worker-B', at(11), at(20))).toBe(true);
        expect(await store.acquireJobLease(job, 'worker-A', at(12), at(22))).toBe(false);
        // Released by its holder: free at once.
        await store.releaseJobLease(job, 'worker-B');
        expect(await store.acquireJobLease(job, 'worker-A', at(13), at(22))).toBe(true);
      }
      // Jobs are independent of each other.
      expect(await store.acquireJobLease('profile:bob', 'worker-B', at(14), at(22))).toBe(true);
    });

    it('job leases: of many concurrent askers exactly one wins', async () => {
      const { store } = open();
      const won = await Promise.all(['A', 'B', 'C', 'D'].map((w) => store.acquireJobLease('lifecycle:2026-03-02', `worker-${w}`, at(0), at(60))));
      expect(won.filter(Boolean)).toHaveLength(1);
    });

  });
}

async function writeStep(tx: Store, step: string, i: number, text: string): Promise<void> {
  const id = `tx-${i}`;
  if (step === 'memory') await tx.insertMemory(mem(id, 'u', `${text} 新的`), vec(1), user);
  if (step === 'update') await tx.updateMemory('u', 'u-m1', { content: `${text} changed` }, vec(0, 0, 1), user);
  if (step === 'purge') await tx.purgeMemory('u', 'u-m2', user);
  if (step === 'message') await tx.appendMessages('u', 's', [msg(id, text, 10 + i)]);
  if (step === 'todo') await tx.insertTodo(todo(id, 'u', text));
  if (step === 'delivery') await tx.recordDelivery('u', 'u-t1', id, at(9));
  if (step === 'profile') await tx.insertProfile(profile('u', 10 + i, text));
  if (step === 'relation') await tx.insertRelation(relation(id, 'u', 'u-m1', 'u-m2'));
  if (step === 'settings') await tx.setSettings('u', { timeZone: text });
  if (step === 'forget') await tx.forgetUser('u');
}
