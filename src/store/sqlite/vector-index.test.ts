import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sqliteVec from 'sqlite-vec';
import { afterEach, describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../embedders/hash-embedder.js';
import { VectorIndex } from './vector-index.js';

const D = 256;
const embedder = createHashEmbedder({ dimensions: D });

const TEXTS = {
  Chinese: [
    '用户下周要去东京出差', '用户喜欢猫，养了一只叫小白的猫', '用户的项目使用 FastAPI 和 Vue', '用户对花生过敏', '用户每天早上喝绿茶',
    '用户的女儿在上海读小学', '用户计划明年去京都看红叶', '用户在学习日语', '用户不喜欢香菜', '用户周末常去爬山',
  ],
  English: [
    'The user travels to Tokyo next week', 'The user loves cats and has a cat named Snow', 'The project uses FastAPI and Vue', 'The user is allergic to peanuts',
    'The user drinks green tea every morning', 'The user’s daughter goes to school in Shanghai', 'The user plans to see the autumn leaves in Kyoto',
    'The user is learning Japanese', 'The user dislikes coriander', 'The user hikes most weekends',
  ],
} as const;
const QUERIES = { Chinese: ['周五去东京有什么推荐？', '推荐一些宠物用品', '早餐喝什么'], English: ['Any tips for Tokyo?', 'What should I buy for my cat?', 'What to drink in the morning'] };

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function open(path = ':memory:'): Database.Database {
  const db = new Database(path);
  sqliteVec.load(db);
  return db;
}

function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'engram-vec-'));
  dirs.push(dir);
  return join(dir, 'v.db');
}

/** Every ordered pair of texts, so the user holds far more rows than the candidate count. */
async function fill(index: VectorIndex, texts: readonly string[]): Promise<number> {
  const all = texts.flatMap((a, i) => texts.flatMap((b, j) => (i === j ? [] : [`${a}；${b}`])));
  const vectors = await embedder.embed(all);
  vectors.forEach((v, i) => index.upsert(i + 1, 'u', i % 7 === 0 ? 'archived' : 'active', v));
  for (let i = 0; i < 50; i++) index.upsert(100_000 + i, 'other', 'active', vectors[i]!);
  return all.length;
}

describe('two-stage vector search on random vectors (the worst case for sign codes)', () => {
  it('keeps at least 0.99 of the exact top 10, with and without cached floats', () => {
    let seed = 5;
    const uniform = (): number => ((seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32) * 2 - 1;
    const unit = (): Float32Array => {
      const v = Float32Array.from({ length: D }, uniform);
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    const db = open();
    VectorIndex.create(db, 'v', D);
    const exact = new VectorIndex(db, 'v', 'l2', { mode: 'exact' });
    const withFloats = new VectorIndex(db, 'v', 'l2', { buildAfter: 1 });
    const withoutFloats = new VectorIndex(db, 'v', 'l2', { buildAfter: 1, floatRowsPerUser: 0 });
    for (let i = 1; i <= 3000; i++) exact.upsert(i, 'u', 'active', unit());
    for (const index of [withFloats, withoutFloats]) {
      let kept = 0;
      const queries = Array.from({ length: 20 }, unit);
      index.search('u', queries[0]!, 10, ['active']); // builds the codes
      for (const q of queries) {
        const want = new Set(exact.search('u', q, 10, ['active']).map((h) => h.rowid));
        kept += index.search('u', q, 10, ['active']).filter((h) => want.has(h.rowid)).length;
      }
      expect(kept / 200).toBeGreaterThanOrEqual(0.99);
    }
    db.close();
  });
});

describe.each(['Chinese', 'English'] as const)('two-stage vector search, %s', (language) => {
  it('uses the exact scan until a user has been searched often enough to build codes', async () => {
    const db = open();
    VectorIndex.create(db, 'v', D);
    const index = new VectorIndex(db, 'v', 'l2', { minCandidates: 1, factor: 1, buildAfter: 2 });
    (await embedder.embed(TEXTS[language])).forEach((v, i) => index.upsert(i + 1, 'u', 'active', v));
    const sizes = (): Map<string, number> => (index as unknown as { cache: { sizes(): Map<string, number> } }).cache.sizes();
    const [q] = await embedder.embed([QUERIES[language][0]!]);
    const exact = index.exact('u', q!, 3, ['active']);
    expect(index.search('u', q!, 3, ['active'])).toEqual(exact);
    expect(sizes().has('u')).toBe(false);
    const coded = index.search('u', q!, 3, ['active']);
    expect(sizes().get('u')).toBeGreaterThan(0);
    // Only 3 candidates from codes here: the best match survives, the zero-cosine ties may differ.
    expect(coded).toHaveLength(3);
    expect(coded[0]!.rowid).toBe(exact[0]!.rowid);
    expect(coded[0]!.score).toBeCloseTo(exact[0]!.score, 6);
    db.close();
  });

  it('returns what the exact scan returns, with the same scores', async () => {
    const db = open();
    VectorIndex.create(db, 'v', D);
    const twoStage = new VectorIndex(db, 'v', 'l2', { minCandidates: 30, factor: 3, buildAfter: 1 });
    const exact = new VectorIndex(db, 'v', 'l2', { mode: 'exact' });
    expect(await fill(twoStage, TEXTS[language])).toBe(90);
    let agree = 0;
    for (const q of await embedder.embed(QUERIES[language])) {
      const a = twoStage.search('u', q, 10, ['active']);
      const b = exact.search('u', q, 10, ['active']);
      expect(a).toHaveLength(10);
      // Tie-aware: a hit counts when it scores at least the exact scan's tenth best.
      agree += a.filter((h) => h.score >= b[9]!.score - 1e-6).length;
      for (const h of a) {
        const same = b.find((x) => x.rowid === h.rowid);
        if (same) expect(h.score).toBeCloseTo(same.score, 5);
        expect(h.rowid % 7).not.toBe(1); // rowid i + 1 with i % 7 === 0 is archived
      }
    }
    expect(agree / (10 * QUERIES[language].length)).toBeGreaterThanOrEqual(0.9);
    db.close();
  });

  it('scores a small user in full from the cached floats, as the exact scan does, without a vec0 scan', async () => {
    const db = open();
    VectorIndex.create(db, 'v', D);
    const index = new VectorIndex(db, 'v', 'l2', { minCandidates: 200, factor: 10, buildAfter: 1, floatRowsPerUser: 1000 });
    const exact = new VectorIndex(db, 'v', 'l2', { mode: 'exact' });
    expect(await fill(index, TEXTS[language])).toBe(90);
    const [first] = await embedder.embed([QUERIES[language][0]!]);
    index.search('u', first!, 10, ['active']); // builds the codes
    let scans = 0;
    const real = index.exact.bind(index);
    index.exact = (...args) => (scans++, real(...args));
    for (const q of await embedder.embed(QUERIES[language])) {
      for (const statuses of [['active'], ['active', 'archived'], ['archived']]) {
        const a = index.search('u', q, 12, statuses);
        const b = exact.search('u', q, 12, statuses);
        // The same scores in the same order; rowids may differ only among equal scores (the hash embedder ties).
        expect(a).toHaveLength(b.length);
        a.forEach((h, i) => expect(h.score).toBeCloseTo(b[i]!.score, 5));
        const all = exact.search('u', q, 90, statuses);
        for (const h of a) expect(h.score).toBeCloseTo(all.find((x) => x.rowid === h.rowid)!.score, 5);
        if (statuses.length === 1 && statuses[0] === 'archived') expect(a.every((h) => h.rowid % 7 === 1)).toBe(true);
        expect(a.every((h) => h.rowid < 100_000)).toBe(true); // never the other user's rows
      }
    }
    expect(scans).toBe(0);
    db.close();
  });

  it('sees writes from another connection, its own writes, and forgets rolled back ones', async () => {
    const path = tempPath();
    const a = open(path);
    a.pragma('journal_mode = WAL');
    VectorIndex.create(a, 'v', D);
    // Candidates = k, codes built at once: every search below with more rows than k uses the codes.
    const mine = new VectorIndex(a, 'v', 'l2', { minCandidates: 1, factor: 1, buildAfter: 1 });
    const [first, second, third, ...rest] = await embedder.embed(TEXTS[language]);
    rest.forEach((v, i) => mine.upsert(10 + i, 'u', 'active', v));
    mine.upsert(1, 'u', 'active', first!);
    const top = (v: Float32Array, k = 1): number[] => mine.search('u', v, k, ['active']).map((h) => h.rowid);
    expect(top(first!)).toEqual([1]);

    // Another process's commit: the codes are rebuilt.
    const b = open(path);
    new VectorIndex(b, 'v').upsert(2, 'u', 'active', second!);
    b.close();
    expect(top(second!)).toEqual([2]);

    // Own writes: a status change and a removal.
    mine.setStatus(2, 'archived');
    expect(top(second!, 3)).not.toContain(2);
    mine.remove(1);
    expect(top(first!, 3)).not.toContain(1);

    // A write seen inside a transaction that is then rolled back leaves no trace.
    a.exec('BEGIN');
    mine.upsert(3, 'u', 'active', third!);
    expect(top(third!)).toEqual([3]);
    a.exec('ROLLBACK');
    expect(top(third!, 3)).not.toContain(3);
    a.close();
  });
});
