import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { indexTerms } from '../../text/segment.js';
import { memoryFixture } from '../contract/fixtures.js';
import type { Store } from '../store.js';
import { PG_RETERM_VERSION } from './pg-schema.js';
import { openPostgresStore, postgresHandleOf } from './postgres-store.js';
import { testDatabaseUrl } from './test-postgres.js';

const url = testDatabaseUrl();
const opened: Store[] = [];
const open = (schema: string): Store => {
  const s = openPostgresStore({ url: url!, schema, maxConnections: 2 });
  opened.push(s);
  return s;
};
const fresh = () => `rt_${randomBytes(5).toString('hex')}`;
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const user = { actor: 'user' } as const;
const CONTENTS = ['I went to Paris last spring and saw the Louvre', 'I have gone hiking twice this month', '我上周去了北京，看了长城', 'The user lives in Berlin'];

async function fill(store: Store): Promise<void> {
  await store.bindEmbedder({ id: 'test@4', dimensions: 4 });
  for (const [i, content] of CONTENTS.entries()) await store.insertMemory(memoryFixture({ id: `mem${i}`, userId: 'u', content }), new Float32Array([1, 0, 0, 0]), user);
  await store.appendMessages('u', 's', CONTENTS.map((content, i) => ({ id: `msg${i}`, role: 'user' as const, content, createdAt: new Date(i * 1000), vector: null })));
}

async function scores(store: Store, query: string): Promise<Record<string, number>> {
  const terms = indexTerms(query);
  const hits = [...(await store.searchKeyword({ userId: 'u', terms, k: 10 })), ...(await store.searchMessageKeyword({ userId: 'u', terms, k: 10 }))];
  return Object.fromEntries(hits.map((h) => [h.id, Number(h.score.toFixed(6))]));
}

describe.skipIf(!url)('PostgreSQL: the migration that makes keyword terms again (ENGRAM_TEST_DATABASE_URL)', () => {
  it('rewrites rows indexed the old way ("went", "saw"), so they are found and scored as a fresh schema has them (zh and en)', async () => {
    const schema = fresh();
    const first = open(schema);
    await fill(first);
    const { pool } = postgresHandleOf(first)!;
    // What an older Engram wrote, and its schema from before the step (the steps after it run again too).
    for (const table of ['memories', 'messages']) {
      await pool.query(`UPDATE "${schema}".${table} SET terms = replace(replace(terms, 'go pari', 'went pari'), 'see', 'saw') WHERE terms LIKE '%go pari%'`);
      await pool.query(`UPDATE "${schema}".${table} SET kw = array_to_tsvector(string_to_array(terms, ' '))`);
    }
    await pool.query(`DELETE FROM "${schema}".engram_migrations WHERE version >= $1`, [PG_RETERM_VERSION]);
    const stale = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".memories WHERE terms LIKE '%went%'`);
    expect(Number(stale.rows[0]!.n)).toBe(1);

    const migrated = open(schema);
    const control = open(fresh());
    await fill(control);
    for (const query of ['Did I go to Paris?', 'What did I see at the Louvre?', 'Where have I gone hiking?', '我上周去了哪里？', '北京 长城']) {
      expect(await scores(migrated, query)).toEqual(await scores(control, query));
    }
    expect(Object.keys(await scores(migrated, 'Did I go to Paris?'))).toEqual(expect.arrayContaining(['mem0', 'msg0']));
    expect(Object.keys(await scores(migrated, '北京'))).toEqual(expect.arrayContaining(['mem2', 'msg2']));
  });
});
