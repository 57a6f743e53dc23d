import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { describe, expect, it } from 'vitest';
import { dot } from '../../embedders/embedder.js';
import { VectorIndex } from './vector-index.js';

// A vector path, no text: dense pseudo-random unit vectors, the kind int8 codes cannot hold exactly.
const D = 64;
function unit(seed: number): Float32Array {
  let a = seed >>> 0;
  const v = new Float32Array(D).map(() => {
    a = (Math.imul(a ^ (a >>> 15), 2246822519) + 0x9e3779b9) >>> 0;
    return a / 2 ** 32 - 0.5;
  });
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function setUp(floatRowsPerUser = 0): VectorIndex {
  const db = new Database(':memory:');
  sqliteVec.load(db);
  VectorIndex.create(db, 'v', D);
  return new VectorIndex(db, 'v', 'l2', { minCandidates: 1, factor: 1, buildAfter: 2, floatRowsPerUser });
}

describe('VectorIndex.scoresOf and vectorsOf', () => {
  it('scores from the table before codes are built, then within 2 % from the codes, and from the table again after a write', () => {
    const index = setUp();
    const rowids = [1, 2, 3, 4, 5, 6];
    for (const r of rowids) index.upsert(r, 'u', 'active', unit(r));
    const q = unit(99);
    const exact = rowids.map((r) => dot(q, index.get(r)!));

    const before = index.scoresOf('u', rowids, q);
    expect(rowids.map((r) => before.get(r))).toEqual(exact);

    for (let i = 0; i < 2; i++) index.search('u', q, 1, ['active']);
    const fromCodes = index.scoresOf('u', rowids, q);
    expect(rowids.map((r) => fromCodes.get(r))).not.toEqual(exact);
    rowids.forEach((r, i) => expect(Math.abs(fromCodes.get(r)! - exact[i]!)).toBeLessThan(0.02));

    index.upsert(1, 'u', 'active', unit(1));
    expect(index.scoresOf('u', [1], q).get(1)).toBe(exact[0]);
  });

  it('scores exactly from cached floats while the user is small enough to keep them, from int8 codes once they outgrow it', () => {
    const index = setUp(8);
    const rowids = [1, 2, 3, 4, 5, 6];
    for (const r of rowids) index.upsert(r, 'u', 'active', unit(r));
    const q = unit(99);
    const exact = rowids.map((r) => dot(q, index.get(r)!));
    for (let i = 0; i < 2; i++) index.search('u', q, 1, ['active']);
    expect(rowids.map((r) => index.scoresOf('u', rowids, q).get(r))).toEqual(exact);
    // The two-stage search's exact stage reads the cached floats: each hit's score is the table's.
    const hits = index.search('u', q, 3, ['active']);
    expect(hits).toHaveLength(3);
    for (const h of hits) expect(h.score).toBeCloseTo(dot(q, index.get(h.rowid)!), 6);

    for (let r = 7; r <= 12; r++) index.upsert(r, 'u', 'active', unit(r));
    index.search('u', q, 1, ['active']);
    const now = index.scoresOf('u', rowids, q);
    expect(rowids.map((r) => now.get(r))).not.toEqual(exact);
    rowids.forEach((r, i) => expect(Math.abs(now.get(r)! - exact[i]!)).toBeLessThan(0.02));
  });

  it('vectorsOf gives the stored floats exactly, codes built or not (copies and exports read it)', () => {
    const index = setUp();
    for (const r of [1, 2, 3]) index.upsert(r, 'u', 'active', unit(r));
    for (let i = 0; i < 2; i++) index.search('u', unit(99), 1, ['active']);
    expect(index.vectorsOf([1, 2, 3]).get(2)).toEqual(index.get(2));
    expect([...index.vectorsOf([1, 2, 3]).values()]).toEqual([1, 2, 3].map((r) => index.get(r)));
  });

  it('gives nothing for a removed row, codes built or not', () => {
    const index = setUp();
    for (const r of [1, 2, 3]) index.upsert(r, 'u', 'active', unit(r));
    index.remove(2);
    expect(index.scoresOf('u', [2], unit(99)).size).toBe(0);
    for (let i = 0; i < 2; i++) index.search('u', unit(99), 1, ['active']);
    expect([...index.scoresOf('u', [1, 2], unit(99)).keys()]).toEqual([1]);
    expect([...index.vectorsOf([1, 2]).keys()]).toEqual([1]);
  });
});
