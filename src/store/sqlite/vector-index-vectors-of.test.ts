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

function setUp(): VectorIndex {
  const db = new Database(':memory:');
  sqliteVec.load(db);
  VectorIndex.create(db, 'v', D);
  return new VectorIndex(db, 'v', 'l2', { minCandidates: 1, factor: 1, buildAfter: 2 });
}

describe('VectorIndex.vectorsOf', () => {
  it('reads the table before codes are built, then scores within 2 % from the codes, and reads again after a write', () => {
    const index = setUp();
    const rowids = [1, 2, 3, 4, 5, 6];
    for (const r of rowids) index.upsert(r, 'u', 'active', unit(r));
    const q = unit(99);
    const exact = rowids.map((r) => dot(q, index.get(r)!));

    const before = index.vectorsOf('u', rowids);
    expect(rowids.map((r) => dot(q, before.get(r)!))).toEqual(exact);

    for (let i = 0; i < 2; i++) index.search('u', q, 1, ['active']);
    const fromCodes = index.vectorsOf('u', rowids);
    // Dequantised, not the stored floats: close to them, not equal.
    expect(fromCodes.get(1)).not.toEqual(index.get(1));
    rowids.forEach((r, i) => expect(Math.abs(dot(q, fromCodes.get(r)!) - exact[i]!)).toBeLessThan(0.02));

    index.upsert(1, 'u', 'active', unit(1));
    expect(index.vectorsOf('u', [1]).get(1)).toEqual(index.get(1));
  });

  it('returns nothing for a removed row, codes built or not', () => {
    const index = setUp();
    for (const r of [1, 2, 3]) index.upsert(r, 'u', 'active', unit(r));
    index.remove(2);
    expect(index.vectorsOf('u', [2]).size).toBe(0);
    for (let i = 0; i < 2; i++) index.search('u', unit(99), 1, ['active']);
    expect([...index.vectorsOf('u', [1, 2]).keys()]).toEqual([1]);
  });
});
