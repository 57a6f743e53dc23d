import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { EngramError } from '../../errors.js';
import { indexTerms } from '../../text/segment.js';
import { EMBEDDER, mem, user, vec } from '../contract/fixtures.js';
import type { Store } from '../store.js';
import { openPostgresStore } from './postgres-store.js';
import { testDatabaseUrl } from './test-postgres.js';

const url = testDatabaseUrl();
const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/**
 * Two stores on one schema, each with its own pool and its own search cache (two server
 * processes), caching a user from the first search on: what one writes, the other finds at once.
 */
async function twoProcesses(): Promise<{ a: Store; b: Store }> {
  const schema = `c_${randomBytes(5).toString('hex')}`;
  const open = () => {
    const s = openPostgresStore({ url: url!, schema, maxConnections: 3, searchCache: { buildAfter: 1 } });
    opened.push(s);
    return s;
  };
  const a = open();
  await a.bindEmbedder(EMBEDDER);
  return { a, b: open() };
}

const U = 'u1';
const keyword = async (s: Store, text: string, statuses?: Array<'active' | 'archived' | 'deleted'>) => (await s.searchKeyword({ userId: U, terms: indexTerms(text), k: 10, ...(statuses ? { statuses } : {}) })).map((h) => h.id).sort();
const nearest = async (s: Store, v: Float32Array) => (await s.searchVector({ userId: U, vector: v, k: 1 }))[0]?.id;

describe.skipIf(!url)('PostgreSQL search cache across processes (ENGRAM_TEST_DATABASE_URL)', () => {
  it('a search in one process sees every write of another at once, in English and Chinese', async () => {
    const { a, b } = await twoProcesses();
    await a.insertMemory(mem('en1', U, 'The user is allergic to peanuts'), vec(1, 0, 0, 0), user);
    await a.insertMemory(mem('zh1', U, '用户对花生过敏'), vec(0, 1, 0, 0), user);
    expect(await keyword(b, 'peanuts')).toEqual(['en1']);
    expect(await keyword(b, '花生')).toEqual(['zh1']);
    expect(await nearest(b, vec(1, 0.1))).toBe('en1');

    // Inserted: found.
    await a.insertMemory(mem('en2', U, 'Peanuts are in the sandwich'), vec(0, 0, 1, 0), user);
    await a.insertMemory(mem('zh2', U, '三明治里有花生'), vec(0, 0, 0, 1), user);
    expect(await keyword(b, 'peanuts')).toEqual(['en1', 'en2']);
    expect(await keyword(b, '花生')).toEqual(['zh1', 'zh2']);
    expect(await nearest(b, vec(0, 0, 0.1, 1))).toBe('zh2');

    // Content rewritten: the old words no longer find it, the new ones do.
    await a.updateMemory(U, 'en1', { content: 'The user loves cashews' }, undefined, user);
    await a.updateMemory(U, 'zh1', { content: '用户喜欢腰果' }, undefined, user);
    expect(await keyword(b, 'peanuts')).toEqual(['en2']);
    expect(await keyword(b, 'cashews')).toEqual(['en1']);
    expect(await keyword(b, '花生')).toEqual(['zh2']);
    expect(await keyword(b, '腰果')).toEqual(['zh1']);

    // Forgotten (status): gone from active searches, still there for the status asked for.
    await a.updateMemory(U, 'en2', { status: 'deleted' }, undefined, user);
    await a.updateMemory(U, 'zh2', { status: 'deleted' }, undefined, user);
    expect(await keyword(b, 'peanuts')).toEqual([]);
    expect(await keyword(b, '花生')).toEqual([]);
    expect(await keyword(b, 'peanuts 花生', ['deleted'])).toEqual(['en2', 'zh2']);
    expect(await nearest(b, vec(0, 0, 0.1, 1))).not.toBe('zh2');

    // A new vector moves it.
    await a.updateMemory(U, 'zh1', {}, vec(0, 0, 0, 1), user);
    expect(await nearest(b, vec(0, 0, 0.1, 1))).toBe('zh1');

    // Purged (the row deleted): gone everywhere.
    await a.purgeMemory(U, 'zh1', user);
    await a.purgeMemory(U, 'en1', user);
    expect(await keyword(b, '腰果')).toEqual([]);
    expect(await keyword(b, 'cashews')).toEqual([]);
    expect(await nearest(b, vec(0, 0, 0.1, 1))).toBeUndefined();

    // Forget the user, then write again: nothing old comes back, the new rows are found.
    await a.insertMemory(mem('en3', U, 'The user drinks green tea'), vec(1, 0, 0, 0), user);
    expect(await keyword(b, 'tea')).toEqual(['en3']);
    await a.forgetUser(U);
    expect(await keyword(b, 'tea')).toEqual([]);
    expect(await keyword(b, 'peanuts 花生', ['deleted'])).toEqual([]);
    await a.insertMemory(mem('zh3', U, '用户喝绿茶'), vec(1, 0, 0, 0), user);
    expect(await keyword(b, '绿茶')).toEqual(['zh3']);
    expect(await keyword(b, 'tea')).toEqual([]);
    expect(await nearest(b, vec(1, 0.1))).toBe('zh3');
  });

  it('a write rolled back in a savepoint leaves the rest of its transaction visible to the other process', async () => {
    const { a, b } = await twoProcesses();
    await a.insertMemory(mem('en1', U, 'The user walks the dog'), vec(1, 0), user);
    expect(await keyword(b, 'dog')).toEqual(['en1']);
    await a.transaction(async (tx) => {
      // The duplicate raises the user's counter, then fails: its savepoint undoes the raise.
      const failed = await tx.insertMemory(mem('en1', U, 'duplicate'), vec(1, 0), user).then(
        () => null,
        (error: unknown) => error,
      );
      expect(EngramError.hasCode(failed, 'CONFLICT')).toBe(true);
      await tx.insertMemory(mem('en2', U, 'The user walks the cat'), vec(0, 1), user);
      await tx.insertMemory(mem('zh2', U, '用户每天遛狗'), vec(0, 0, 1), user);
    });
    expect(await keyword(b, 'walks')).toEqual(['en1', 'en2']);
    expect(await keyword(b, '遛狗')).toEqual(['zh2']);
  });

  it('a rolled-back transaction never reaches the other process, and its own searches run on SQL', async () => {
    const { a, b } = await twoProcesses();
    await a.insertMemory(mem('zh1', U, '用户住在杭州'), vec(1, 0), user);
    expect(await keyword(b, '杭州')).toEqual(['zh1']);
    const rolledBack = await b
      .transaction(async (tx) => {
        await tx.insertMemory(mem('en1', U, 'The user lives in Hangzhou'), vec(0, 1), user);
        expect((await tx.searchKeyword({ userId: U, terms: indexTerms('Hangzhou'), k: 5 })).map((h) => h.id)).toEqual(['en1']);
        throw new EngramError('CONFLICT', 'roll back');
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(EngramError.hasCode(rolledBack, 'CONFLICT')).toBe(true);
    expect(await keyword(b, 'Hangzhou')).toEqual([]);
    expect(await keyword(a, 'Hangzhou')).toEqual([]);
    expect(await keyword(b, '杭州')).toEqual(['zh1']);
  });
});
