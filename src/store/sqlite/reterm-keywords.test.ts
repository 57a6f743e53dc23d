import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { memoryFixture } from '../contract/fixtures.js';
import type { Store } from '../store.js';
import { indexTerms } from '../../text/segment.js';
import { useTempSqliteStores } from '../../testing/temp-sqlite-stores.js';
import { RETERM_STEP } from './schema.js';

const user = { actor: 'user' } as const;
const vec = (): Float32Array => new Float32Array([1, 0, 0, 0]);
const { tempPath, open } = useTempSqliteStores('engram-reterm-');

const CONTENTS = [
  'I went to Paris last spring and saw the Louvre',
  'I have gone hiking twice this month',
  '我上周去了北京，看了长城',
  'The user lives in Berlin',
];

/** Keyword scores of memories and messages for a query, rounded. */
async function scores(store: Store, query: string): Promise<Record<string, number>> {
  const terms = indexTerms(query);
  const memories = await store.searchKeyword({ userId: 'u', terms, k: 10 });
  const messages = await store.searchMessageKeyword({ userId: 'u', terms, k: 10 });
  return Object.fromEntries([...memories, ...messages].map((h) => [h.id, Number(h.score.toFixed(6))]));
}

async function fill(store: Store): Promise<void> {
  for (const [i, content] of CONTENTS.entries()) await store.insertMemory(memoryFixture({ id: `mem${i}`, userId: 'u', content }), vec(), user);
  await store.appendMessages('u', 's', CONTENTS.map((content, i) => ({ id: `msg${i}`, role: 'user' as const, content, createdAt: new Date(i * 1000), vector: null })));
}

describe('the migration that makes keyword terms again (irregular verbs as their base form)', () => {
  it('rewrites rows indexed the old way, with their BM25 statistics, as a fresh store indexes them (zh and en)', async () => {
    const path = tempPath();
    await fill(await open(path));
    // What an older Engram wrote: "went", "saw" and "gone" as they are, and a schema from before
    // the step (the steps after it run again too).
    const db = new Database(path);
    for (const fts of ['memory_fts', 'message_fts']) {
      const rows = db.prepare(`SELECT rowid AS rid, terms FROM ${fts}`).all() as Array<{ rid: number; terms: string }>;
      for (const r of rows) {
        const old = r.terms.replace(/\bgo\b/g, (_m, offset: number) => (r.terms.includes('pari') && offset < 4 ? 'went' : 'gone')).replace(/\bsee\b/g, 'saw');
        db.prepare(`UPDATE ${fts} SET terms = ? WHERE rowid = ?`).run(old, r.rid);
      }
      // And a length the statistics count differently, so the step must correct them too.
      db.prepare(`UPDATE keyword_stats SET term_total = term_total + 3 WHERE index_name = ?`).run(fts);
    }
    db.pragma(`user_version = ${RETERM_STEP}`);
    expect((db.prepare(`SELECT terms FROM memory_fts WHERE terms LIKE '%went%'`).all() as unknown[]).length).toBe(1);
    db.close();

    const migrated = await open(path);
    const fresh = await open(tempPath());
    await fill(fresh);
    for (const query of ['Did I go to Paris?', 'Where have I gone hiking?', 'What did I see at the Louvre?', '我上周去了哪里？', '北京 长城']) {
      const got = await scores(migrated, query);
      expect(got).toEqual(await scores(fresh, query));
    }
    expect(Object.keys(await scores(migrated, 'Did I go to Paris?'))).toEqual(expect.arrayContaining(['mem0', 'msg0', 'mem1', 'msg1']));
    expect(Object.keys(await scores(migrated, '北京'))).toEqual(expect.arrayContaining(['mem2', 'msg2']));
  });
});
