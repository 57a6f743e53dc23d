import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryFixture } from '../contract/fixtures.js';
import type { Store } from '../store.js';
import { indexTerms } from '../../text/segment.js';
import { useTempSqliteStores } from '../../testing/temp-sqlite-stores.js';
import { UserPostings } from './keyword-postings.js';

const user = { actor: 'user' } as const;
const vec = (): Float32Array => new Float32Array([1, 0, 0, 0]);
const { tempPath, open, closeNow } = useTempSqliteStores('engram-kwc-');
/** A store that keeps postings from the first search, and one that always asks FTS5, on one file. */
async function pair(): Promise<{ cached: Store; fts: Store; path: string }> {
  const path = tempPath();
  return { cached: await open(path, { keywordSearch: { buildAfter: 1 } }), fts: await open(path, { keywordSearch: { enabled: false } }), path };
}
type Hit = { id: string; score: number; coverage?: number };
const memoryHits = async (store: Store, userId: string, query: string, k = 50): Promise<Hit[]> => store.searchKeyword({ userId, terms: indexTerms(query), k });
const messageHits = async (store: Store, userId: string, query: string, k = 50): Promise<Hit[]> => store.searchMessageKeyword({ userId, terms: indexTerms(query), k });
/** The same hits in the same order, with scores equal up to float rounding. */
function expectSame(got: Hit[], want: Hit[]): void {
  expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
  expect(got.map((h) => [h.score, h.coverage ?? 0])).toEqual(want.map((h) => [expect.closeTo(h.score, 9), expect.closeTo(h.coverage ?? 0, 9)]));
}

const zh = ['用户喜欢猫', '用户养了一只猫', '用户住在北京', '我在北京上班', '猫咪很可爱', '周末去上海旅行'];
const en = ['The user loves cats', 'The user adopted a cat', 'The user lives in Berlin', 'I work in Berlin', 'cats are lovely', 'a weekend trip to Paris'];

describe('keyword postings in memory score exactly as the FTS5 path does', () => {
  it.each([
    ['zh', zh, ['猫', '北京 猫', '上海旅行', '狗']],
    ['en', en, ['cat', 'Berlin cats', 'trip to Paris', 'dog']],
  ])('memories and messages, the same hits and scores (%s)', async (_lang, texts, queries) => {
    const { cached, fts } = await pair();
    for (const [i, t] of texts.entries()) await cached.insertMemory(memoryFixture({ id: `m${i}`, userId: 'u', content: t }), vec(), user);
    await cached.appendMessages('u', 's1', texts.map((content, i) => ({ id: `x${i}`, role: 'user' as const, content, createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)), vector: null })));
    for (const q of queries) {
      expectSame(await memoryHits(cached, 'u', q), await memoryHits(fts, 'u', q));
      expectSame(await messageHits(cached, 'u', q), await messageHits(fts, 'u', q));
    }
    expect((await memoryHits(cached, 'u', queries[0]!)).length).toBeGreaterThan(1);
  });

  it('stays in step through this connection\'s writes, rollbacks, forgetting and another connection\'s commits', async () => {
    // Random operations by two users in Chinese and English; after each, the cached store answers
    // as the FTS5 store on the same file does.
    const word = fc.constantFrom('猫', '北京', '上海', '旅行', 'cat', 'cats', 'berlin', 'trip', 'paris', 'coffee');
    const text = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), user: fc.constantFrom('u', 'v'), id: fc.integer({ min: 0, max: 7 }), text }),
      fc.record({ kind: fc.constant('rewrite' as const), user: fc.constantFrom('u', 'v'), id: fc.integer({ min: 0, max: 7 }), text }),
      fc.record({ kind: fc.constant('purge' as const), user: fc.constantFrom('u', 'v'), id: fc.integer({ min: 0, max: 7 }) }),
      fc.record({ kind: fc.constant('rollback' as const), user: fc.constantFrom('u', 'v'), id: fc.integer({ min: 0, max: 7 }), text }),
      fc.record({ kind: fc.constant('other' as const), user: fc.constantFrom('u', 'v'), id: fc.integer({ min: 0, max: 7 }), text }),
      fc.record({ kind: fc.constant('forget' as const), user: fc.constantFrom('u', 'v') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), fc.array(text, { minLength: 1, maxLength: 3 }), async (ops, queries) => {
        const { cached, fts } = await pair();
        const exists = async (s: Store, u: string, id: string) => (await s.getMemory(u, id)) !== null;
        for (const o of ops) {
          const id = `${o.user}-m${'id' in o ? o.id : 0}`;
          if (o.kind === 'add' && !(await exists(cached, o.user, id))) await cached.insertMemory(memoryFixture({ id, userId: o.user, content: o.text }), vec(), user);
          if (o.kind === 'rewrite' && (await exists(cached, o.user, id))) await cached.updateMemory(o.user, id, { content: o.text }, vec(), user);
          if (o.kind === 'purge' && (await exists(cached, o.user, id))) await cached.purgeMemory(o.user, id, user);
          if (o.kind === 'forget') await cached.forgetUser(o.user);
          if (o.kind === 'other' && !(await exists(fts, o.user, `${o.user}-o${o.id}`))) await fts.insertMemory(memoryFixture({ id: `${o.user}-o${o.id}`, userId: o.user, content: o.text }), vec(), user);
          if (o.kind === 'rollback') {
            await cached
              .transaction(async (tx) => {
                if (await exists(tx, o.user, id)) await tx.updateMemory(o.user, id, { content: o.text }, vec(), user);
                else await tx.insertMemory(memoryFixture({ id, userId: o.user, content: o.text }), vec(), user);
                // Inside the transaction the search sees the uncommitted write.
                const inside = await memoryHits(tx, o.user, o.text);
                expect(inside.map((h) => h.id)).toContain(id);
                throw new Error('rolled back');
              })
              .catch((e: unknown) => expect(String(e)).toContain('rolled back'));
          }
          for (const u of ['u', 'v']) for (const q of queries) expectSame(await memoryHits(cached, u, q), await memoryHits(fts, u, q));
        }
        await closeNow(cached, fts);
      }),
      { numRuns: 25 },
    );
  });

  it('ranks every match, where FTS5 rescoring stops at its candidate limit (beyond 400 matches)', async () => {
    const { cached, fts } = await pair();
    // 500 turns hold "咖啡"/"coffee" once; the five that hold it three times rank first under BM25.
    const rows = Array.from({ length: 500 }, (_, i) => ({
      id: `x${i}`,
      role: 'user' as const,
      content: i % 100 === 42 ? '咖啡 coffee 咖啡 coffee 咖啡 coffee' : `咖啡 coffee 第${i}天 day ${i} 早上 morning`,
      createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)),
      vector: null,
    }));
    await cached.appendMessages('u', 's1', rows);
    const best = (await messageHits(cached, 'u', '咖啡 coffee', 5)).map((h) => h.id).sort();
    expect(best).toEqual(['x142', 'x242', 'x342', 'x42', 'x442']);
    expect((await messageHits(fts, 'u', '咖啡 coffee', 5)).length).toBe(5);
  });
});

describe('UserPostings', () => {
  it('a rewritten row counts once, under its new terms; a removed row not at all', () => {
    const p = new UserPostings();
    p.set(1, '猫 猫 北京');
    p.set(2, 'cat berlin');
    p.set(1, 'berlin');
    p.remove(2);
    expect(p.size).toBe(1);
    expect(p.dead).toBe(2);
    expect(p.search(['猫'], 1, 1, { k1: 1.2, b: 0.4 }, 10)).toEqual([]);
    expect(p.search(['berlin'], 1, 1, { k1: 1.2, b: 0.4 }, 10).map((h) => h.rowid)).toEqual([1]);
  });

  it('breaks ties by the lower rowid and returns at most the limit, best first', () => {
    const p = new UserPostings();
    for (const rowid of [9, 3, 7, 5]) p.set(rowid, 'trip 旅行');
    p.set(4, 'trip 旅行 trip');
    const hits = p.search(['trip'], 5, 2.2, { k1: 1.2, b: 0.4 }, 3);
    expect(hits.map((h) => h.rowid)).toEqual([4, 3, 5]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });
});
