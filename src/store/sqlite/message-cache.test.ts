import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Store } from '../store.js';
import { indexTerms } from '../../text/segment.js';
import { useTempSqliteStores } from '../../testing/temp-sqlite-stores.js';
import type { MessageTables } from './message-tables.js';

const { tempPath, open, closeNow } = useTempSqliteStores('engram-msc-');
const vec = (i = 0): Float32Array => {
  const v = new Float32Array([1, 0.1 * (i % 7), 0.05 * (i % 3), 0.02 * (i % 5)]);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const tablesOf = (store: Store): MessageTables => (store as unknown as { shared: { messages: MessageTables } }).shared.messages;
const alike = { accessFlushMs: 0, vectorSearch: { mode: 'exact' as const }, keywordSearch: { enabled: false } };

/** Message rows through the cache from its first lookup, and through SQL only, on one file. */
async function pair(path = tempPath()): Promise<{ cached: Store; sql: Store }> {
  return { cached: await open(path, { ...alike, messageCache: { buildAfter: 1 } }), sql: await open(path, { ...alike, messageCache: { enabled: false } }) };
}

const zh = ['我喜欢猫', '好啊', '周末去上海旅行', '我在北京上班', '猫咪很可爱', '明天下雨吗'];
const en = ['I love cats', 'Yes!', 'a weekend trip to Paris', 'I work in Berlin', 'cats are lovely', 'will it rain tomorrow'];
let serial = 0;
const turns = (texts: readonly string[], n: number, at = Date.UTC(2026, 0, 1), expires?: number) =>
  Array.from({ length: n }, (_, i) => {
    const k = serial++;
    return { id: `m${k}`, role: (k % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant', content: `${texts[k % texts.length]} ${k}`, createdAt: new Date(at + k * 1000), ...(expires === undefined ? {} : { expiresAt: new Date(expires) }), vector: vec(k), embedderId: 'test@4' };
  });

/** Every read the message search and the context build make, answered by both stores. */
async function expectSameReads(cached: Store, sql: Store, userId: string, ids: string[]): Promise<void> {
  const probe = [...ids.filter((_, i) => i % 3 === 0), 'missing', ids[0] ?? 'x'];
  for (const radius of [0, 1, 2]) {
    expect(await cached.messageNeighbours(userId, probe, radius)).toEqual(await sql.messageNeighbours(userId, probe, radius));
    expect(await cached.scoredNeighbours(userId, probe, radius, vec(3))).toEqual(await sql.scoredNeighbours(userId, probe, radius, vec(3)));
  }
  for (const sessionId of ['s1', 's2', 's3', 'none']) {
    for (const q of [{}, { order: 'desc' as const, limit: 3 }, { afterSeq: 1 }, { throughSeq: 2, order: 'desc' as const }, { limit: 0 }, { afterSeq: 0, throughSeq: 4, limit: 2 }]) {
      expect(await cached.listMessages({ userId, sessionId, ...q })).toEqual(await sql.listMessages({ userId, sessionId, ...q }));
    }
    const k = { userId, k: 5, sessionId };
    expect(await cached.searchMessageVector({ ...k, vector: vec(1) })).toEqual(await sql.searchMessageVector({ ...k, vector: vec(1) }));
    expect(await cached.searchMessageKeyword({ ...k, terms: indexTerms('猫 cats 上海 Berlin') })).toEqual(await sql.searchMessageKeyword({ ...k, terms: indexTerms('猫 cats 上海 Berlin') }));
  }
  expect(await cached.searchMessageVector({ userId, k: 8, vector: vec(2) })).toEqual(await sql.searchMessageVector({ userId, k: 8, vector: vec(2) }));
  expect(await cached.searchMessageKeyword({ userId, k: 8, terms: indexTerms('猫 cats') })).toEqual(await sql.searchMessageKeyword({ userId, k: 8, terms: indexTerms('猫 cats') }));
}

describe('message rows held in memory answer as SQL does', () => {
  it.each([
    ['zh', zh],
    ['en', en],
  ])('neighbours, windows and search ids (%s)', async (_lang, texts) => {
    const { cached, sql } = await pair();
    await cached.appendMessages('u', 's1', turns(texts, 9));
    await cached.appendMessages('u', 's2', turns(texts, 4));
    await cached.appendMessages('v', 's1', turns(texts, 3));
    const ids = (await sql.listMessages({ userId: 'u' })).map((m) => m.id);
    await expectSameReads(cached, sql, 'u', ids);
    expect(tablesOf(cached).rows.sizes().has('u')).toBe(true);
    // Appends, a purge and expiry through the cached handle: its held rows follow.
    await cached.appendMessages('u', 's1', turns(texts, 2));
    await cached.purgeMessages('u', [ids[1]!, ids[10]!]);
    await expectSameReads(cached, sql, 'u', ids);
    await cached.appendMessages('u', 's3', turns(texts, 2, Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 2)));
    const s3 = await cached.listMessages({ userId: 'u', sessionId: 's3' });
    await cached.markProcessed('u', 's3', s3.at(-1)!.seq, s3.at(-1)!.id, new Date());
    expect(await cached.deleteExpiredMessages(new Date(Date.UTC(2026, 0, 3)))).toBe(2);
    await expectSameReads(cached, sql, 'u', [...ids, ...s3.map((m) => m.id)]);
    // Forgetting the user drops their rows: nothing is answered from memory afterwards.
    await cached.forgetUser('u');
    expect(await cached.messageNeighbours('u', ids, 2)).toEqual([]);
    expect(await cached.listMessages({ userId: 'u', sessionId: 's1' })).toEqual([]);
    await expectSameReads(cached, sql, 'v', (await sql.listMessages({ userId: 'v' })).map((m) => m.id));
  });

  it('random sequences of appends, purges, rollbacks and the other connection’s writes (Chinese and English)', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), user: fc.constantFrom('u', 'v'), session: fc.constantFrom('s1', 's2'), n: fc.integer({ min: 1, max: 4 }), zh: fc.boolean(), other: fc.boolean() }),
      fc.record({ kind: fc.constant('purge' as const), user: fc.constantFrom('u', 'v'), pick: fc.array(fc.nat(40), { maxLength: 3 }), other: fc.boolean() }),
      fc.record({ kind: fc.constant('rollback' as const), user: fc.constantFrom('u', 'v'), n: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('forget' as const), user: fc.constantFrom('u', 'v') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        const { cached, sql } = await pair();
        try {
          for (const o of ops) {
            const writer = 'other' in o && o.other ? sql : cached;
            if (o.kind === 'append') await writer.appendMessages(o.user, o.session, turns(o.zh ? zh : en, o.n));
            else if (o.kind === 'purge') {
              const all = (await sql.listMessages({ userId: o.user })).map((m) => m.id);
              await writer.purgeMessages(o.user, o.pick.map((i) => all[i % Math.max(all.length, 1)] ?? 'missing'));
            } else if (o.kind === 'rollback') {
              await expect(
                cached.transaction(async (tx) => {
                  await tx.appendMessages(o.user, 's1', turns(zh, o.n));
                  // Inside the transaction the reads see the uncommitted rows (SQL answers there).
                  expect((await tx.listMessages({ userId: o.user, sessionId: 's1' })).length).toBeGreaterThan(0);
                  throw new Error('rolled back on purpose');
                }),
              ).rejects.toThrow('rolled back on purpose');
            } else await cached.forgetUser(o.user);
            for (const user of ['u', 'v']) await expectSameReads(cached, sql, user, (await sql.listMessages({ userId: user })).map((m) => m.id));
          }
        } finally {
          await closeNow(cached, sql);
        }
      }),
      { numRuns: 15 },
    );
  });

  it('two cached handles on one file see each other’s appends and purges', async () => {
    const path = tempPath();
    const a = await open(path, { ...alike, messageCache: { buildAfter: 1 } });
    const b = await open(path, { ...alike, messageCache: { buildAfter: 1 } });
    await a.appendMessages('u', 's1', turns(zh, 3));
    const first = await b.listMessages({ userId: 'u', sessionId: 's1' });
    expect(first.map((m) => m.content)).toEqual((await a.listMessages({ userId: 'u', sessionId: 's1' })).map((m) => m.content));
    await a.appendMessages('u', 's1', turns(en, 2));
    expect(await b.listMessages({ userId: 'u', sessionId: 's1' })).toHaveLength(5);
    expect((await b.messageNeighbours('u', [first[2]!.id], 1)).map((m) => m.seq)).toEqual([1, 2, 3]);
    await b.purgeMessages('u', [first[1]!.id]);
    expect((await a.messageNeighbours('u', [first[2]!.id], 1)).map((m) => m.seq)).toEqual([2, 3]);
  });

  it('drops a row whose rowid another user took meanwhile', async () => {
    const { cached, sql } = await pair();
    await cached.appendMessages('u', 's1', turns(en, 3));
    const last = (await cached.listMessages({ userId: 'u', sessionId: 's1' })).at(-1)!;
    // The highest rowid is free again once deleted: the next insert (another user's) reuses it before u is read again.
    await cached.purgeMessages('u', [last.id]);
    await cached.appendMessages('v', 's1', turns(zh, 1));
    expect(await cached.listMessages({ userId: 'u', sessionId: 's1' })).toEqual(await sql.listMessages({ userId: 'u', sessionId: 's1' }));
    expect((await cached.listMessages({ userId: 'u', sessionId: 's1' })).every((m) => m.userId === 'u')).toBe(true);
  });

  it('hands out new message objects on each read', async () => {
    const { cached } = await pair();
    await cached.appendMessages('u', 's1', turns(zh, 2));
    const [m] = await cached.listMessages({ userId: 'u', sessionId: 's1' });
    m!.content = 'changed by a caller';
    m!.createdAt.setTime(0);
    const [again] = await cached.listMessages({ userId: 'u', sessionId: 's1' });
    expect(again!.content).not.toBe('changed by a caller');
    expect(again!.createdAt.getTime()).not.toBe(0);
  });

  it('shares frozen neighbours with the message search, built once per row', async () => {
    const { cached } = await pair();
    const stored = await cached.appendMessages('u', 's1', turns(zh, 4));
    const ids = stored.map((m) => m.id);
    const first = await cached.messageNeighbours('u', [ids[1]!], 1);
    const again = await cached.scoredNeighbours('u', [ids[1]!], 1, vec(3));
    expect(first.map((m) => m.id)).toEqual(ids.slice(0, 3));
    expect(again.messages[0]).toBe(first[0]);
    expect(Object.isFrozen(first[0])).toBe(true);
    expect(() => {
      (first[0] as { content: string }).content = 'changed by a reader';
    }).toThrow(TypeError);
    // Rewritten rows are read again: a row this connection purges is not handed out stale.
    await cached.purgeMessages('u', [ids[0]!]);
    expect((await cached.messageNeighbours('u', [ids[1]!], 1)).map((m) => m.id)).toEqual(ids.slice(1, 3));
  });

  it('builds a user on the configured lookup and evicts the least recently used past its budget', async () => {
    const path = tempPath();
    const store = await open(path, { ...alike, messageCache: { buildAfter: 2, maxBytes: 1 } });
    const rows = tablesOf(store).rows;
    await store.appendMessages('u', 's1', turns(en, 3));
    await store.appendMessages('v', 's1', turns(zh, 3));
    await store.listMessages({ userId: 'u', sessionId: 's1' });
    expect(rows.sizes().size).toBe(0);
    await store.listMessages({ userId: 'u', sessionId: 's1' });
    expect([...rows.sizes().keys()]).toEqual(['u']);
    await store.listMessages({ userId: 'v', sessionId: 's1' });
    await store.listMessages({ userId: 'v', sessionId: 's1' });
    // One user over the budget is kept (the newest); the other is dropped.
    expect([...rows.sizes().keys()]).toEqual(['v']);
  });
});
