import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryFixture } from '../contract/fixtures.js';
import type { Store } from '../store.js';
import { indexTerms } from '../../text/segment.js';
import { useTempSqliteStores } from '../../testing/temp-sqlite-stores.js';
import { rankBm25 } from './keyword-index.js';

const user = { actor: 'user' } as const;
const vec = (): Float32Array => new Float32Array([1, 0, 0, 0]);
const { tempPath, open } = useTempSqliteStores('engram-kw-');
const add = (store: Store, id: string, content: string) => store.insertMemory(memoryFixture({ id, userId: 'u', content }), vec(), user);
const scores = async (store: Store, query: string) =>
  Object.fromEntries((await store.searchKeyword({ userId: 'u', terms: indexTerms(query), k: 10 })).map((h) => [h.id, Number(h.score.toFixed(6))]));

describe('keyword search keeps per-user document frequencies between searches, always in step', () => {
  it.each([
    ['zh', ['用户喜欢猫', '用户养了一只猫', '用户住在北京'], '猫'],
    ['en', ['The user loves cats', 'The user adopted a cat', 'The user lives in Berlin'], 'cat'],
  ])('scores as a fresh store would after this connection adds, rewrites and purges (%s)', async (_lang, texts, query) => {
    const path = tempPath();
    const store = await open(path);
    for (const [i, t] of texts.entries()) await add(store, `m${i}`, t);
    const before = await scores(store, query); // counts are now kept
    await add(store, 'm9', `${texts[0]} ${texts[1]}`);
    await store.updateMemory('u', 'm1', { content: texts[2]! }, vec(), user);
    const after = await scores(store, query);
    expect(after).not.toEqual(before);
    expect(after).toEqual(await scores(await open(path), query));
    await store.purgeMemory('u', 'm9', user);
    expect(await scores(store, query)).toEqual(await scores(await open(path), query));
  });

  it('sees another connection\'s writes to the same file (two processes)', async () => {
    const path = tempPath();
    const a = await open(path);
    const b = await open(path);
    await add(a, 'm1', 'The user loves cats');
    await add(a, 'm2', 'The user lives in Berlin');
    const first = await scores(a, 'cats Berlin');
    for (let i = 0; i < 5; i++) await add(b, `b${i}`, `cats note ${i}`);
    const second = await scores(a, 'cats Berlin');
    expect(second['m1']).toBeLessThan(first['m1']!); // "cats" is now common: a lower idf
    expect(second).toEqual(await scores(b, 'cats Berlin'));
  });

  it('a write rolled back leaves the counts as they were (用户喜欢猫)', async () => {
    const path = tempPath();
    const store = await open(path);
    await add(store, 'm1', '用户喜欢猫');
    await add(store, 'm2', '用户住在北京');
    const before = await scores(store, '猫');
    await expect(
      store.transaction(async (tx) => {
        await tx.insertMemory(memoryFixture({ id: 'm3', userId: 'u', content: '猫 猫 猫' }), vec(), user);
        expect(Object.keys(await scores(tx, '猫')).sort()).toEqual(['m1', 'm3']);
        throw new Error('crash midway');
      }),
    ).rejects.toThrow('crash midway');
    expect(await scores(store, '猫')).toEqual(before);
  });
});

describe('rankBm25', () => {
  /** BM25 as written in the textbook: split into tokens, count, sum. */
  function reference(rows: Array<{ rowid: number; terms: string }>, idf: Map<string, number>, ideal: number, avgdl: number, k1: number, b: number) {
    return rows
      .map(({ rowid, terms }) => {
        const tokens = terms.split(' ');
        let score = 0;
        for (const [t, w] of idf) {
          const f = tokens.filter((x) => x === t).length;
          if (f > 0) score += w * ((f * (k1 + 1)) / (f + k1 * (1 - b + (b * tokens.length) / avgdl)));
        }
        return { rowid, score, coverage: score / ideal };
      })
      .sort((x, y) => y.score - x.score);
  }

  it('matches textbook BM25 on Chinese and English terms, whole tokens only', () => {
    const vocabulary = ['猫', '猫咪', '北京', 'cat', 'cats', 'ca', 'berlin', 'at'];
    const word = fc.constantFrom(...vocabulary);
    fc.assert(
      fc.property(fc.array(fc.array(word, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 20 }), fc.uniqueArray(word, { minLength: 1, maxLength: 4 }), (docs, query) => {
        const rows = docs.map((d, i) => ({ rowid: i, terms: d.join(' ') }));
        const idf = new Map(query.map((t, i) => [t, 0.5 + i]));
        const got = rankBm25(rows, idf, 3, 5, { k1: 1.2, b: 0.4 }, rows.length);
        const want = reference(rows, idf, 3, 5, 1.2, 0.4);
        expect(got.map((h) => h.score)).toEqual(want.map((h) => expect.closeTo(h.score, 9)));
        expect(new Set(got.map((h) => h.rowid))).toEqual(new Set(want.map((h) => h.rowid)));
      }),
    );
  });
});
