import { describe, expect, it } from 'vitest';
import { evictOverBudget } from './evict-over-budget.js';

const entries = (sizes: Record<string, number>): Map<string, { bytes: number }> =>
  new Map(Object.entries(sizes).map(([key, bytes]) => [key, { bytes }]));

describe('evictOverBudget', () => {
  it('drops the least recently used entries until the bytes fit, naming each (用户 and user keys alike)', () => {
    const cache = entries({ 用户甲: 40, alice: 40, 用户乙: 40 });
    const dropped: string[] = [];
    evictOverBudget(cache, 80, (key) => dropped.push(key));
    expect(dropped).toEqual(['用户甲']);
    expect([...cache.keys()]).toEqual(['alice', '用户乙']);
  });

  it('drops entries beyond the count limit even when their bytes fit', () => {
    const cache = entries({ a: 1, b: 1, 用户: 1, d: 1 });
    const dropped: string[] = [];
    evictOverBudget(cache, 1_000, (key) => dropped.push(key), 2);
    expect(dropped).toEqual(['a', 'b']);
    expect([...cache.keys()]).toEqual(['用户', 'd']);
  });

  it('always keeps the newest entry, however large', () => {
    const cache = entries({ old: 10, newest: 500 });
    evictOverBudget(cache, 100, () => undefined, 0);
    expect([...cache.keys()]).toEqual(['newest']);
  });
});
