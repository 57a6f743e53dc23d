import { afterEach, describe, expect, it } from 'vitest';
import { EngramError } from '../../errors.js';
import { EMBEDDER, mem, user, vec } from '../contract/fixtures.js';
import type { Store } from '../store.js';
import { openTestPostgresStore, testDatabaseUrl } from './test-postgres.js';

const url = testDatabaseUrl();
let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

const failure = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => null,
    (error: unknown) => error,
  );

describe.skipIf(!url)('PostgreSQL insertMemory: one statement, all or nothing (ENGRAM_TEST_DATABASE_URL)', () => {
  it('inside a transaction, a refused insert writes nothing and the transaction goes on', async () => {
    const s = (store = openTestPostgresStore());
    await s.bindEmbedder(EMBEDDER);
    await s.insertMemory(mem('en1', 'u', 'The user plays chess'), vec(1, 0), user);
    await s.transaction(async (tx) => {
      const mismatch = await failure(tx.insertMemory(mem('zh1', 'u', '用户下围棋', { embedderId: 'other@4' }), vec(0, 1), user));
      expect(EngramError.hasCode(mismatch, 'EMBEDDER_MISMATCH')).toBe(true);
      const wrongSize = await failure(tx.insertMemory(mem('zh2', 'u', '用户下象棋'), new Float32Array([1, 0, 0]), user));
      expect(EngramError.hasCode(wrongSize, 'EMBEDDER_MISMATCH')).toBe(true);
      const duplicate = await failure(tx.insertMemory(mem('en1', 'u', 'The user plays go'), vec(0, 1), user));
      expect(EngramError.hasCode(duplicate, 'CONFLICT')).toBe(true);
      await tx.insertMemory(mem('zh3', 'u', '用户喜欢下棋'), vec(0, 0, 1), user);
    });
    expect(await s.getMemory('u', 'zh1')).toBeNull();
    expect(await s.getMemory('u', 'zh2')).toBeNull();
    expect((await s.getMemory('u', 'en1'))?.content).toBe('The user plays chess');
    expect((await s.getMemory('u', 'zh3'))?.content).toBe('用户喜欢下棋');
    const events = (await s.historyOfUser('u')).map((e) => `${e.memoryId}:${e.action}`);
    expect(events).toEqual(['en1:create', 'zh3:create']);
    expect((await s.searchVector({ userId: 'u', vector: vec(0, 1), k: 5 })).map((h) => h.id).sort()).toEqual(['en1', 'zh3']);
  });

  it('refuses a vector before any embedder is bound, and stores a memory without one', async () => {
    const s = (store = openTestPostgresStore());
    const unbound = await failure(s.insertMemory(mem('en1', 'u', 'The user plays chess'), vec(1, 0), user));
    expect(EngramError.hasCode(unbound, 'STORE_FAILED')).toBe(true);
    expect(await s.getMemory('u', 'en1')).toBeNull();
    await s.insertMemory(mem('zh1', 'u', '用户下围棋'), null, user);
    expect((await s.getMemory('u', 'zh1'))?.embedderId).toBeUndefined();
  });
});
