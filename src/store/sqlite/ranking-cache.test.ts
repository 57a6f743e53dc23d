import fc from 'fast-check';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { MemoryStatus } from '../../domain/memory.js';
import { memoryFixture, user } from '../contract/fixtures.js';
import type { MemoryQuery, Store } from '../store.js';
import { indexTerms } from '../../text/segment.js';
import { useTempSqliteStores } from '../../testing/temp-sqlite-stores.js';
import { RankingCache } from './ranking-cache.js';
import { compareBinary } from './user-ranking.js';

const { tempPath, open, closeNow } = useTempSqliteStores('engram-rkc-');
const vec = (i = 0): Float32Array => {
  const v = new Float32Array([1, 0.1 * (i % 7), 0.05 * (i % 3), 0]);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const dbOf = (store: Store): Database.Database => (store as unknown as { db: Database.Database }).db;
/**
 * Ranking fields through the cache from its first lookup, and through SQL only, on one file; both
 * search by vec0's exact scan and FTS5 (the other caches score ties and floats their own way).
 */
async function pair(path = tempPath()): Promise<{ cached: Store; sql: Store; path: string }> {
  const alike = { accessFlushMs: 0, vectorSearch: { mode: 'exact' as const }, keywordSearch: { enabled: false } };
  return {
    cached: await open(path, { ...alike, rankingCache: { buildAfter: 1 } }),
    sql: await open(path, { ...alike, rankingCache: { enabled: false } }),
    path,
  };
}

const zh = ['用户喜欢猫', '用户养了一只猫', '用户住在北京', '我在北京上班', '猫咪很可爱', '周末去上海旅行'];
const en = ['The user loves cats', 'The user adopted a cat', 'The user lives in Berlin', 'I work in Berlin', 'cats are lovely', 'a weekend trip to Paris'];

/** Every lookup recall makes of its candidates, answered by both stores. */
async function expectSameLookups(cached: Store, sql: Store, userId: string, ids: string[], queries: string[]): Promise<void> {
  const all: Array<Partial<MemoryQuery>> = [
    {},
    { statuses: ['active', 'archived'] },
    { statuses: ['deleted'] },
    { kinds: ['preference'] },
    { notExpiredAt: new Date('2026-06-01T00:00:00Z') },
    { createdFrom: new Date('2026-01-01T00:03:00Z'), createdTo: new Date('2026-01-01T00:09:00Z') },
    { happenedFrom: new Date('2025-01-01T00:00:00Z') },
    { agentId: 'a1' },
    { sessionId: 's1' },
  ];
  for (const q of all) {
    const query = { userId, ids: [...ids, 'missing', ids[0] ?? 'x'], ...q };
    expect(await cached.listRankingFields(query)).toEqual(await sql.listRankingFields(query));
    expect(await cached.listMemories(query)).toEqual(await sql.listMemories(query));
  }
  const orders: Array<Partial<MemoryQuery>> = [
    { orderBy: 'importance' },
    { orderBy: 'updatedAt', order: 'asc', limit: 3 },
    { orderBy: 'happenedAt', offset: 1, limit: 2 },
    { order: 'asc', offset: 2 },
    { limit: 0 },
  ];
  for (const q of orders) {
    const query = { userId, ids, statuses: ['active', 'archived'] as MemoryStatus[], ...q };
    expect(await cached.listMemories(query)).toEqual(await sql.listMemories(query));
  }
  for (const statuses of [['active'], ['active', 'archived', 'deleted']] as MemoryStatus[][]) {
    for (const [i, q] of queries.entries()) {
      const search = { userId, vector: vec(i), k: 20, statuses };
      expect(await cached.searchVector(search)).toEqual(await sql.searchVector(search));
      const kw = { userId, terms: indexTerms(q), k: 20, statuses };
      expect(await cached.searchKeyword(kw)).toEqual(await sql.searchKeyword(kw));
    }
  }
  expect(await cached.vectorScores(userId, [...ids, 'missing'], vec(2))).toEqual(await sql.vectorScores(userId, [...ids, 'missing'], vec(2)));
  expect(await cached.vectorsOf(userId, [...ids, 'missing'])).toEqual(await sql.vectorsOf(userId, [...ids, 'missing']));
}

describe('ranking fields held in memory answer as SQL does', () => {
  it.each([
    ['zh', zh],
    ['en', en],
  ])('filters, statuses and order (%s)', async (_lang, texts) => {
    const { cached, sql } = await pair();
    for (const [i, t] of texts.entries()) {
      await cached.insertMemory(
        memoryFixture({
          id: `m${(i * 7) % texts.length}-${i}`,
          userId: 'u',
          content: t,
          kind: i % 2 === 0 ? 'preference' : 'fact',
          status: i === 3 ? 'archived' : 'active',
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, i * 2)),
          ...(i % 3 === 0 ? { happenedAt: new Date(Date.UTC(2025, 5, i + 1)) } : {}),
          ...(i === 1 ? { expiresAt: new Date('2026-03-01T00:00:00Z') } : {}),
          ...(i % 2 === 1 ? { agentId: 'a1', sessionId: 's1' } : {}),
        }),
        vec(i),
        user,
      );
    }
    await cached.insertMemory(memoryFixture({ id: 'other', userId: 'v', content: texts[0]! }), vec(0), user);
    const ids = (await sql.listMemories({ userId: 'u', statuses: ['active', 'archived'] })).map((m) => m.id).reverse();
    await expectSameLookups(cached, sql, 'u', [...ids, 'other'], texts);
    expect((await cached.listRankingFields({ userId: 'u', ids })).length).toBe(texts.length - 1);
  });

  it('orders ids as SQLite\'s BINARY collation does: Chinese, emoji and private-use characters', async () => {
    const { cached, sql } = await pair();
    const ids = ['b', 'a', 'ab', '猫', '猫猫', '\u{1F431}', '\uE000', '\uFFFD', 'Z', '北京', 'a\u{1F431}', 'a\uE000'];
    for (const [i, id] of ids.entries()) await cached.insertMemory(memoryFixture({ id, userId: 'u', content: zh[i % zh.length]! }), vec(i), user);
    const got = (await cached.listRankingFields({ userId: 'u', ids })).map((f) => f.id);
    expect(got).toEqual((await sql.listRankingFields({ userId: 'u', ids })).map((f) => f.id));
    expect([...ids].sort(compareBinary)).toEqual(got);
  });

  it('stays in step through this connection\'s writes, rollbacks, accesses, forgetting and another connection\'s commits', async () => {
    const text = fc.constantFrom(...zh, ...en);
    const id = fc.integer({ min: 0, max: 7 });
    const who = fc.constantFrom('u', 'v');
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), user: who, id, text }),
      fc.record({ kind: fc.constant('importance' as const), user: who, id, value: fc.double({ min: 0, max: 1, noNaN: true }) }),
      fc.record({ kind: fc.constant('status' as const), user: who, id, status: fc.constantFrom<MemoryStatus>('active', 'archived', 'deleted') }),
      fc.record({ kind: fc.constant('rewrite' as const), user: who, id, text }),
      fc.record({ kind: fc.constant('purge' as const), user: who, id }),
      fc.record({ kind: fc.constant('access' as const), user: who, id }),
      fc.record({ kind: fc.constant('rollback' as const), user: who, id, text }),
      fc.record({ kind: fc.constant('other' as const), user: who, id, status: fc.constantFrom<MemoryStatus>('active', 'archived') }),
      fc.record({ kind: fc.constant('forget' as const), user: who }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const { cached, sql } = await pair();
        const exists = async (s: Store, u: string, m: string) => (await s.getMemory(u, m)) !== null;
        for (const o of ops) {
          const m = `${o.user}-m${'id' in o ? o.id : 0}`;
          const n = 'id' in o ? o.id : 0;
          if (o.kind === 'add' && !(await exists(cached, o.user, m))) await cached.insertMemory(memoryFixture({ id: m, userId: o.user, content: o.text }), vec(n), user);
          if (o.kind === 'importance' && (await exists(cached, o.user, m))) await cached.updateMemory(o.user, m, { importance: o.value }, undefined, user);
          if (o.kind === 'status' && (await exists(cached, o.user, m))) await cached.updateMemory(o.user, m, { status: o.status }, undefined, user);
          if (o.kind === 'rewrite' && (await exists(cached, o.user, m))) await cached.updateMemory(o.user, m, { content: o.text }, vec(n + 1), user);
          if (o.kind === 'purge' && (await exists(cached, o.user, m))) await cached.purgeMemory(o.user, m, user);
          if (o.kind === 'access') await cached.recordAccess(o.user, [m], new Date(Date.UTC(2026, 1, 1, n)));
          if (o.kind === 'forget') await cached.forgetUser(o.user);
          if (o.kind === 'other') {
            // Another connection's commit: a new memory, and a change of status of an existing one.
            if (!(await exists(sql, o.user, `${o.user}-o${o.id}`))) await sql.insertMemory(memoryFixture({ id: `${o.user}-o${o.id}`, userId: o.user, content: zh[n % zh.length]! }), vec(n), user);
            if (await exists(sql, o.user, m)) await sql.updateMemory(o.user, m, { status: o.status, importance: 0.9 }, undefined, user);
          }
          if (o.kind === 'rollback') {
            await cached
              .transaction(async (tx) => {
                if (await exists(tx, o.user, m)) await tx.updateMemory(o.user, m, { content: o.text, importance: 0.1, status: 'archived' }, undefined, user);
                else await tx.insertMemory(memoryFixture({ id: m, userId: o.user, content: o.text }), vec(n), user);
                await tx.recordAccess(o.user, [m], new Date(Date.UTC(2026, 2, 1, n)));
                // Inside the transaction the lookups see the uncommitted write.
                const inside = await tx.listRankingFields({ userId: o.user, ids: [m], statuses: ['active', 'archived'] });
                expect(inside.map((f) => f.content)).toEqual([o.text]);
                throw new Error('rolled back');
              })
              .catch((e: unknown) => expect(String(e)).toContain('rolled back'));
          }
          for (const u of ['u', 'v']) {
            const ids = [...Array.from({ length: 8 }, (_, i) => `${u}-m${i}`), ...Array.from({ length: 8 }, (_, i) => `${u}-o${i}`)];
            await expectSameLookups(cached, sql, u, ids, ['猫', 'cats Berlin']);
          }
        }
        await closeNow(cached, sql);
      }),
      { numRuns: 20 },
    );
  });

  it('reads back many rows written in one transaction (more than one statement\'s worth), committed or rolled back', async () => {
    const { cached, sql } = await pair();
    const ids = Array.from({ length: 150 }, (_, i) => `m${i}`);
    for (const [i, id] of ids.entries()) await cached.insertMemory(memoryFixture({ id, userId: 'u', content: (i % 2 ? zh : en)[i % 6]! }), vec(i), user);
    await expectSameLookups(cached, sql, 'u', ids, ['猫']);
    const rewrite = (tx: Store, status: MemoryStatus) => Promise.all(ids.map((id, i) => tx.updateMemory('u', id, { importance: (i % 10) / 10, status: i % 3 === 0 ? status : 'active' }, undefined, user)));
    await cached.transaction(async (tx) => {
      await rewrite(tx, 'archived');
      throw new Error('rolled back');
    }).catch((e: unknown) => expect(String(e)).toContain('rolled back'));
    await expectSameLookups(cached, sql, 'u', ids, ['猫']);
    await cached.transaction(async (tx) => {
      await rewrite(tx, 'deleted');
      await tx.recordAccess('u', ids.slice(0, 70), new Date('2026-02-01T00:00:00Z'));
    });
    await expectSameLookups(cached, sql, 'u', ids, ['猫']);
    expect((await cached.listRankingFields({ userId: 'u', ids })).length).toBe(100);
  });

  it('hands out frozen fields: a caller cannot change what the next lookup sees', async () => {
    const { cached } = await pair();
    await cached.insertMemory(memoryFixture({ id: 'm0', userId: 'u', content: '用户喜欢猫 / likes cats', importance: 0.4 }), vec(0), user);
    const [first] = await cached.listRankingFields({ userId: 'u', ids: ['m0'] });
    expect(() => Object.assign(first!, { importance: 1 })).toThrow(TypeError);
    expect((await cached.listRankingFields({ userId: 'u', ids: ['m0'] }))[0]!.importance).toBe(0.4);
    // Whole memories are new objects each time.
    const [m] = await cached.listMemories({ userId: 'u', ids: ['m0'] });
    m!.importance = 1;
    expect((await cached.listMemories({ userId: 'u', ids: ['m0'] }))[0]!.importance).toBe(0.4);
  });
});

describe('two store handles on one file, both holding ranking fields', () => {
  it.each([
    ['zh', zh],
    ['en', en],
  ])('a write by one is seen by the other: status, importance, content, a new memory and a purge (%s)', async (_lang, texts) => {
    const path = tempPath();
    const a = await open(path, { rankingCache: { buildAfter: 1 }, accessFlushMs: 0 });
    const b = await open(path, { rankingCache: { buildAfter: 1 }, accessFlushMs: 0 });
    for (const [i, t] of texts.slice(0, 4).entries()) await a.insertMemory(memoryFixture({ id: `m${i}`, userId: 'u', content: t }), vec(i), user);
    const ids = ['m0', 'm1', 'm2', 'm3', 'm4'];
    const fields = async (s: Store, statuses: MemoryStatus[] = ['active']) => (await s.listRankingFields({ userId: 'u', ids, statuses })).map((f) => [f.id, f.importance, f.content]);
    // Both hold the user now.
    expect(await fields(a)).toEqual(await fields(b));
    expect((await a.searchVector({ userId: 'u', vector: vec(1), k: 10 })).map((h) => h.id).sort()).toEqual(['m0', 'm1', 'm2', 'm3']);

    await b.updateMemory('u', 'm1', { status: 'archived' }, undefined, user);
    await b.updateMemory('u', 'm2', { importance: 0.95, content: texts[5]! }, undefined, user);
    await b.insertMemory(memoryFixture({ id: 'm4', userId: 'u', content: texts[4]! }), vec(4), user);
    await b.purgeMemory('u', 'm3', user);
    const want = [['m0', 0.5, texts[0]], ['m2', 0.95, texts[5]], ['m4', 0.5, texts[4]]];
    expect(await fields(a)).toEqual(want);
    expect(await fields(b)).toEqual(want);
    expect(await fields(a, ['archived'])).toEqual([['m1', 0.5, texts[1]]]);
    expect((await a.searchVector({ userId: 'u', vector: vec(1), k: 10 })).map((h) => h.id).sort()).toEqual(['m0', 'm2', 'm4']);
    expect((await a.searchKeyword({ userId: 'u', terms: indexTerms(texts[1]!), k: 10 })).map((h) => h.id)).not.toContain('m1');

    // And back: a restores, b sees it, and an access by a shows in b.
    await a.updateMemory('u', 'm1', { status: 'active', importance: 0.2 }, undefined, user);
    await a.recordAccess('u', ['m0'], new Date('2026-02-01T00:00:00Z'));
    const seen = await b.listRankingFields({ userId: 'u', ids });
    expect(seen.map((f) => [f.id, f.importance])).toEqual([['m0', 0.5], ['m1', 0.2], ['m2', 0.95], ['m4', 0.5]]);
    expect(seen[0]).toMatchObject({ accessCount: 1, lastAccessedAt: new Date('2026-02-01T00:00:00Z') });
  });

  it('accesses held in the process show at once in this handle, and in the other after the flush', async () => {
    const path = tempPath();
    const a = await open(path, { rankingCache: { buildAfter: 1 }, accessFlushMs: 60_000 });
    const b = await open(path, { rankingCache: { buildAfter: 1 }, accessFlushMs: 0 });
    await a.insertMemory(memoryFixture({ id: 'm0', userId: 'u', content: '用户喜欢猫' }), vec(0), user);
    expect((await b.listRankingFields({ userId: 'u', ids: ['m0'] }))[0]!.accessCount).toBe(0);
    await a.recordAccess('u', ['m0'], new Date('2026-02-01T00:00:00Z'));
    expect((await a.listRankingFields({ userId: 'u', ids: ['m0'] }))[0]!.accessCount).toBe(1);
    expect((await b.listRankingFields({ userId: 'u', ids: ['m0'] }))[0]!.accessCount).toBe(0);
    await closeNow(a); // close() writes what is held
    expect((await b.listRankingFields({ userId: 'u', ids: ['m0'] }))[0]).toMatchObject({ accessCount: 1, lastAccessedAt: new Date('2026-02-01T00:00:00Z') });
  });
});

describe('RankingCache', () => {
  async function filled(): Promise<Database.Database> {
    const store = await open(tempPath(), { rankingCache: { enabled: false } });
    for (const [u, texts] of [['zh', zh], ['en', en]] as const) {
      for (const [i, t] of texts.entries()) await store.insertMemory(memoryFixture({ id: `${u}${i}`, userId: u, content: t }), vec(i), user);
    }
    return dbOf(store);
  }

  it('drops the least recently used user past its budget, and reads it again when asked', async () => {
    const db = await filled();
    const roomy = new RankingCache(db, { buildAfter: 1 });
    const zhBytes = roomy.user('zh')!.bytes;
    const enBytes = roomy.user('en')!.bytes;
    expect(zhBytes).toBeGreaterThan(0);
    expect([...roomy.sizes().keys()]).toEqual(['zh', 'en']);

    // Room for one user of the two.
    const tight = new RankingCache(db, { buildAfter: 1, maxBytes: Math.max(zhBytes, enBytes) + 1 });
    tight.user('zh');
    tight.user('en');
    expect([...tight.sizes().keys()]).toEqual(['en']);
    expect([...tight.user('zh')!.byId.keys()].sort()).toEqual(['zh0', 'zh1', 'zh2', 'zh3', 'zh4', 'zh5']);
    expect([...tight.sizes().keys()]).toEqual(['zh']);
    // Using a user makes it the most recent: the other one goes.
    const both = new RankingCache(db, { buildAfter: 1, maxBytes: zhBytes + enBytes });
    both.user('zh');
    both.user('en');
    both.user('zh');
    expect([...both.sizes().keys()]).toEqual(['en', 'zh']);
  });

  it('reads a user only on its buildAfter-th lookup since the last invalidation, never inside a transaction', async () => {
    const db = await filled();
    const cache = new RankingCache(db, { buildAfter: 3 });
    expect(cache.user('zh')).toBeUndefined();
    expect(cache.user('zh')).toBeUndefined();
    expect(cache.user('zh')?.byId.size).toBe(6);
    db.exec('BEGIN');
    expect(cache.user('zh')).toBeUndefined();
    db.exec('ROLLBACK');
    expect(cache.user('zh')?.byId.size).toBe(6);
    expect(new RankingCache(db, { enabled: false, buildAfter: 1 }).user('zh')).toBeUndefined();
  });

  it('a changed row is read again once touched; a row of another user at a reused rowid is not taken', async () => {
    const db = await filled();
    const cache = new RankingCache(db, { buildAfter: 1 });
    const before = cache.user('en')!.byId.get('en1')!;
    db.prepare("UPDATE memories SET importance = 0.9, status = 'archived' WHERE id = 'en1'").run();
    // Untouched, the held row stands (this connection's writes go through the tables, which touch it).
    expect(cache.user('en')!.byId.get('en1')!.importance).toBe(before.importance);
    cache.touched('en', before.rid);
    expect(cache.user('en')!.byId.get('en1')).toMatchObject({ importance: 0.9, status: 'archived' });
    const moved = cache.user('en')!.byId.get('en2')!.rid;
    db.prepare("UPDATE memories SET user_id = 'zh' WHERE id = 'en2'").run();
    cache.touched('en', moved);
    expect(cache.user('en')!.byId.has('en2')).toBe(false);
  });
});
