import { describe, expect, it } from 'vitest';
import { idleCollection, v8MinorGc, v8YoungSpace } from './idle-collector.js';

describe('idle collection', () => {
  const over = (used: number, size: number, fill?: number) => {
    let collections = 0;
    const space = { used, size };
    const check = idleCollection({ ...(fill === undefined ? {} : { fill }), youngSpace: () => space, collect: () => void (collections++, (space.used = 0)) });
    check();
    return { collections, used: space.used };
  };

  it('collects a young space at least a quarter full by default, and empties it', () => {
    expect(over(4, 16)).toEqual({ collections: 1, used: 0 });
    expect(over(3, 16)).toEqual({ collections: 0, used: 3 });
  });

  it('takes its fill from the options, and leaves an uncommitted space alone', () => {
    expect(over(7, 16, 0.5)).toEqual({ collections: 0, used: 7 });
    expect(over(8, 16, 0.5)).toEqual({ collections: 1, used: 0 });
    expect(over(0, 0)).toEqual({ collections: 0, used: 0 });
  });

  it("runs a real minor GC that empties V8's young space, without a global gc", () => {
    // Emptied first, then garbage until the young space holds at least 1 MB of it (a scavenge V8 runs meanwhile just restarts the count).
    v8MinorGc();
    let garbage = 0;
    for (let i = 0; v8YoungSpace().used < 1_000_000; i++) garbage += [`用户喜欢猫 the user likes cats ${i}`, { i }].length;
    const before = v8YoungSpace().used;
    v8MinorGc();
    expect(garbage).toBeGreaterThan(0);
    expect(v8YoungSpace().used).toBeLessThan(before / 2);
    expect('gc' in globalThis).toBe(false);
  });
});
