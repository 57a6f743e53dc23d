import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../embedders/hash-embedder.js';
import { indexTerms } from '../../text/segment.js';
import { useTempSqliteStores } from '../../testing/temp-sqlite-stores.js';
import { memoryFixture } from '../contract/fixtures.js';
import type { Store } from '../store.js';
import { changeFeed } from './change-feed.js';
import { VectorIndex } from './vector-index.js';

const { tempPath, open, closeNow } = useTempSqliteStores('engram-change-feed-');
const D = 64;
const embedder = createHashEmbedder({ dimensions: D });
const user = { actor: 'user' } as const;

const CASES = {
  Chinese: {
    old: ['用户喜欢喝绿茶', '用户住在杭州', '用户在学习日语', '用户周末常去爬山'],
    added: '用户养了一只叫年糕的橘猫',
    said: '我昨天带年糕去打了疫苗',
    changed: '用户搬到了上海',
    query: { added: '年糕', said: '疫苗', changed: '上海', gone: '杭州' },
  },
  English: {
    old: ['The user likes green tea', 'The user lives in Austin', 'The user is learning Japanese', 'The user hikes most weekends'],
    added: 'The user has an orange cat named Mochi',
    said: 'I took Mochi to the vet for her shots yesterday',
    changed: 'The user moved to Denver',
    query: { added: 'Mochi', said: 'vet shots', changed: 'Denver', gone: 'Austin' },
  },
} as const;

const openRaw = (path: string): Database.Database => {
  const db = new Database(path);
  sqliteVec.load(db);
  db.pragma('journal_mode = WAL');
  return db;
};
const codesHeld = (index: VectorIndex): string[] => [...(index as unknown as { cache: { sizes(): Map<string, number> } }).cache.sizes().keys()].sort();

async function fill(store: Store, userId: string, texts: readonly string[]): Promise<void> {
  const vectors = await embedder.embed(texts);
  for (const [i, content] of texts.entries()) await store.insertMemory(memoryFixture({ id: `${userId}-m${i}`, userId, content, embedderId: embedder.id }), vectors[i]!, user);
  await store.appendMessages(userId, 's1', texts.map((content, i) => ({ id: `${userId}-msg${i}`, role: 'user' as const, content, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)), vector: vectors[i]! })));
}

/** What `reader` finds for the user: memories by keyword and by vector, messages by keyword. */
async function found(reader: Store, userId: string, query: string): Promise<{ memories: string[]; vector: string | undefined; messages: string[] }> {
  const terms = indexTerms(query);
  const [vector] = await embedder.embed([query]);
  const memories = (await reader.searchKeyword({ userId, terms, k: 10 })).map((h) => h.id);
  const nearest = (await reader.searchVector({ userId, vector: vector!, k: 1 }))[0]?.id;
  const messages = (await reader.searchMessageKeyword({ userId, terms, k: 10 })).map((h) => h.id);
  return { memories, vector: nearest, messages };
}

describe('caches kept in step with other connections, row by row (change journal)', () => {
  for (const [language, c] of Object.entries(CASES)) {
    it(`a reader's cached searches see another connection's appends, edits and removals (${language})`, async () => {
      const path = tempPath();
      const reader = await open(path);
      const writer = await open(path);
      await reader.bindEmbedder({ id: embedder.id, dimensions: D }, { replace: true });
      await fill(reader, 'u', c.old);
      await fill(reader, 'w', c.old);
      // Searched often enough that every cache of the reader holds both users.
      for (let i = 0; i < 4; i++) for (const id of ['u', 'w']) await found(reader, id, c.query.gone);

      const [added, said, changed] = await embedder.embed([c.added, c.said, c.changed]);
      await writer.insertMemory(memoryFixture({ id: 'u-new', userId: 'u', content: c.added, embedderId: embedder.id }), added!, user);
      await writer.appendMessages('u', 's2', [{ id: 'u-said', role: 'user', content: c.said, createdAt: new Date(Date.UTC(2026, 0, 2)), vector: said! }]);
      await writer.updateMemory('u', 'u-m1', { content: c.changed }, changed!, user);
      await writer.purgeMemory('u', 'u-m0', user);

      expect(await found(reader, 'u', c.query.added)).toMatchObject({ memories: ['u-new'], vector: 'u-new' });
      expect((await found(reader, 'u', c.query.said)).messages).toEqual(['u-said']);
      expect(await found(reader, 'u', c.query.changed)).toMatchObject({ memories: ['u-m1'], vector: 'u-m1' });
      expect((await found(reader, 'u', c.query.gone)).memories).toEqual([]);
      expect((await reader.getMemory('u', 'u-m0'))).toBeNull();
      // The other user's rows are untouched, and so are their results.
      expect((await found(reader, 'w', c.query.gone)).memories).toEqual(['w-m1']);
    });
  }

  it("keeps the other users' vector codes when another connection writes one user's row, and reads that row again", async () => {
    const path = tempPath();
    const a = openRaw(path);
    const b = openRaw(path);
    VectorIndex.create(a, 'v', D);
    const mine = new VectorIndex(a, 'v', 'l2', { minCandidates: 1, factor: 1, buildAfter: 1 });
    const vectors = await embedder.embed([...CASES.Chinese.old, ...CASES.English.old, CASES.Chinese.added, CASES.English.added]);
    vectors.slice(0, 8).forEach((v, i) => mine.upsert(i + 1, i < 4 ? 'zh' : 'en', 'active', v));
    mine.search('zh', vectors[0]!, 1, ['active']);
    mine.search('en', vectors[4]!, 1, ['active']);
    expect(codesHeld(mine)).toEqual(['en', 'zh']);

    new VectorIndex(b, 'v').upsert(20, 'zh', 'active', vectors[8]!);
    new VectorIndex(b, 'v').upsert(21, 'en', 'active', vectors[9]!);
    new VectorIndex(b, 'v').setStatus(1, 'archived');
    expect(mine.search('zh', vectors[8]!, 1, ['active']).map((h) => h.rowid)).toEqual([20]);
    expect(mine.search('zh', vectors[0]!, 5, ['active']).map((h) => h.rowid)).not.toContain(1);
    expect(mine.search('en', vectors[9]!, 1, ['active']).map((h) => h.rowid)).toEqual([21]);
    // Held all along: a commit elsewhere used to drop every user's codes.
    expect(codesHeld(mine)).toEqual(['en', 'zh']);
    a.close();
    b.close();
  });

  it('drops every cache when it fell behind a pruned journal, or a table was rewritten whole, and still answers right', async () => {
    const path = tempPath();
    const a = openRaw(path);
    const b = openRaw(path);
    VectorIndex.create(a, 'v', D);
    // Built on the second search since the last invalidation: a first search after a drop shows it.
    const mine = new VectorIndex(a, 'v', 'l2', { minCandidates: 1, factor: 1, buildAfter: 2 });
    const vectors = await embedder.embed([...CASES.English.old, CASES.English.added]);
    vectors.slice(0, 4).forEach((v, i) => mine.upsert(i + 1, 'en', 'active', v));
    for (let i = 0; i < 2; i++) mine.search('en', vectors[0]!, 1, ['active']);
    expect(codesHeld(mine)).toEqual(['en']);

    // Another connection writes more than the journal keeps (pruned as it goes), the last of it a row of ours.
    b.transaction(() => {
      for (let i = 0; i < 25_000; i++) changeFeed(b).record('elsewhere', 'x', i);
    })();
    new VectorIndex(b, 'v').upsert(9, 'en', 'active', vectors[4]!);
    expect((b.prepare('SELECT count(*) FROM cache_changes').pluck().get() as number)).toBeLessThan(25_000);
    expect(mine.search('en', vectors[4]!, 1, ['active']).map((h) => h.rowid)).toEqual([9]);
    expect(codesHeld(mine)).toEqual([]);

    mine.search('en', vectors[0]!, 1, ['active']);
    expect(codesHeld(mine)).toEqual(['en']);
    mine.search('en', vectors[0]!, 1, ['active']);
    changeFeed(b).recordReset();
    expect(mine.search('en', vectors[1]!, 1, ['active']).map((h) => h.rowid)).toEqual([2]);
    expect(codesHeld(mine)).toEqual([]);
    a.close();
    b.close();
  });

  it("a reader's held ranking rows show the access counts another connection wrote (zh and en)", async () => {
    const path = tempPath();
    const reader = await open(path);
    const writer = await open(path, { accessFlushMs: 1e9 });
    await reader.bindEmbedder({ id: embedder.id, dimensions: D }, { replace: true });
    await fill(reader, 'zh', CASES.Chinese.old);
    await fill(reader, 'en', CASES.English.old);
    // By ids, as recall reads them: from the held rows from the third read on.
    const count = async (userId: string, id: string): Promise<number | undefined> => (await reader.listRankingFields({ userId, ids: [id] }))[0]?.accessCount;
    const held = (): string[] => [...(reader as unknown as { memories: { ranking: { sizes(): Map<string, number> } } }).memories.ranking.sizes().keys()].sort();
    for (let i = 0; i < 3; i++) for (const u of ['zh', 'en']) await count(u, `${u}-m1`);
    expect(held()).toEqual(['en', 'zh']);
    await writer.recordAccess('zh', ['zh-m1', 'zh-m2'], new Date());
    await writer.recordAccess('en', ['en-m1'], new Date());
    await closeNow(writer);
    expect(await count('zh', 'zh-m1')).toBe(1);
    expect(await count('zh', 'zh-m2')).toBe(1);
    expect(await count('zh', 'zh-m0')).toBe(0);
    expect(await count('en', 'en-m1')).toBe(1);
    expect(held()).toEqual(['en', 'zh']);
  });

  it('a rolled-back write leaves no entry, and a forgotten user none at all', async () => {
    const path = tempPath();
    const reader = await open(path);
    const writer = await open(path);
    await reader.bindEmbedder({ id: embedder.id, dimensions: D }, { replace: true });
    await fill(reader, 'gone', CASES.Chinese.old);
    await fill(reader, 'kept', CASES.English.old);
    for (let i = 0; i < 4; i++) await found(reader, 'gone', '杭州');
    expect((await found(reader, 'gone', '杭州')).memories).toEqual(['gone-m1']);

    const raw = new Database(path);
    const entries = (): number => raw.prepare('SELECT count(*) FROM cache_changes').pluck().get() as number;
    const before = entries();
    await writer.transaction(async (tx) => {
      await tx.appendMessages('kept', 's9', [{ id: 'x', role: 'user', content: 'rolled back', createdAt: new Date(), vector: null }]);
      throw new Error('abort');
    }).catch(() => undefined);
    expect(entries()).toBe(before);

    await writer.forgetUser('gone');
    expect(raw.prepare("SELECT count(*) FROM cache_changes WHERE user_id = 'gone'").pluck().get()).toBe(0);
    expect(await found(reader, 'gone', '杭州')).toEqual({ memories: [], vector: undefined, messages: [] });
    expect((await found(reader, 'kept', 'Austin')).memories).toEqual(['kept-m1']);
    raw.close();
  });
});
