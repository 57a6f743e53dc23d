import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexTerms } from '../../text/segment.js';
import { mem, user } from '../contract/fixtures.js';
import { openSqliteStore } from '../sqlite/sqlite-store.js';
import type { SearchHit, Store } from '../store.js';
import { openPostgresStore } from './postgres-store.js';
import { testDatabaseUrl } from './test-postgres.js';

const url = testDatabaseUrl();
const D = 32;
const EMBEDDER = { id: 'rank@32', dimensions: D };
const U = 'ranked';
/** Past 256 rows a user's int8 codes are scanned in WebAssembly on both stores. */
const ROWS = 300;

function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const r = rng(42);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const unit = (): Float32Array => {
  const v = Float32Array.from({ length: D }, () => r() * 2 - 1);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const EN = ['peanuts', 'green tea', 'Berlin', 'piano', 'running', 'sushi', 'the dentist', 'TypeScript', 'a cat named Miso', 'Lisbon'];
const ZH = ['花生', '绿茶', '北京', '钢琴', '跑步', '寿司', '牙医', '机械键盘', '一只猫', '杭州'];
const text = (i: number): string =>
  i % 2 === 0 ? `The user likes ${pick(EN)} and ${pick(EN)}, note ${i}` : `用户喜欢${pick(ZH)}和${pick(ZH)}，第${i}条`;

let dir: string;
const stores: Record<'sqlite' | 'pgSql' | 'pgCache', Store> = {} as never;

/**
 * Scores rounded, best first; and each id's score, so ties at the cut may differ in which id but
 * not in score. SQLite over-fetches 2k + 10 rows of any status and filters afterwards, so for a
 * rare status it may return fewer than k; PostgreSQL filters inside the search: SQLite's hits are
 * then a prefix of PostgreSQL's.
 */
const view = (hits: SearchHit[]) => ({ scores: hits.map((h) => h.score.toFixed(5)), byId: new Map(hits.map((h) => [h.id, h.score.toFixed(5)])) });
function expectSameRanking(a: SearchHit[], b: SearchHit[]): void {
  const x = view(a);
  const y = view(b);
  expect(y.scores.slice(0, x.scores.length)).toEqual(x.scores);
  if (x.scores.length === 10) expect(y.scores).toHaveLength(10);
  for (const [id, score] of y.byId) if (x.byId.has(id)) expect(score).toBe(x.byId.get(id));
}

describe.skipIf(!url)('PostgreSQL ranks like SQLite, from SQL and from its cache (ENGRAM_TEST_DATABASE_URL)', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-rank-'));
    const schema = `r_${randomBytes(5).toString('hex')}`;
    stores.sqlite = openSqliteStore({ path: join(dir, 'rank.db') });
    stores.pgSql = openPostgresStore({ url: url!, schema, maxConnections: 2, searchCache: { enabled: false } });
    stores.pgCache = openPostgresStore({ url: url!, schema, maxConnections: 2, searchCache: { buildAfter: 1 } });
    const rows = Array.from({ length: ROWS }, (_, i) => ({ memory: mem(`m${i}`, U, text(i), { embedderId: EMBEDDER.id, status: i % 7 === 0 ? 'archived' : 'active' }), vector: unit() }));
    for (const s of [stores.sqlite, stores.pgSql]) {
      await s.bindEmbedder(EMBEDDER);
      await s.transaction(async (tx) => {
        for (const { memory, vector } of rows) await tx.insertMemory(memory, vector, user);
      });
    }
  });
  afterAll(async () => {
    await Promise.all(Object.values(stores).map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('keyword search: the same BM25 scores, in English and Chinese, for active and archived rows', async () => {
    for (const query of ['what does the user like, peanuts or green tea?', 'Berlin piano', '用户喜欢花生还是绿茶', '北京 钢琴 寿司', 'note 17']) {
      for (const statuses of [undefined, ['archived' as const]]) {
        const q = { userId: U, terms: indexTerms(query), k: 10, ...(statuses ? { statuses } : {}) };
        const expected = await stores.sqlite.searchKeyword(q);
        expect(expected.length).toBeGreaterThan(0);
        expectSameRanking(expected, await stores.pgSql.searchKeyword(q));
        expectSameRanking(expected, await stores.pgCache.searchKeyword(q));
      }
    }
  });

  it('vector search: the same nearest rows and scores', async () => {
    for (let i = 0; i < 5; i++) {
      const q = { userId: U, vector: unit(), k: 10 };
      const expected = await stores.sqlite.searchVector(q);
      expect(expected).toHaveLength(10);
      for (const s of [stores.pgSql, stores.pgCache]) {
        const got = await s.searchVector(q);
        expect(got.map((h) => h.id)).toEqual(expected.map((h) => h.id));
        got.forEach((h, j) => expect(h.score).toBeCloseTo(expected[j]!.score, 5));
      }
    }
  });
});
