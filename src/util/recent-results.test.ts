import { describe, expect, it } from 'vitest';
import { recentResults } from './recent-results.js';

describe('recentResults', () => {
  it('computes a key once while it is held, and drops the oldest key past its size', () => {
    const calls: string[] = [];
    const memo = recentResults<number>(2);
    const length = (s: string) => memo(s, () => (calls.push(s), s.length));
    expect([length('我喜欢猫'), length('I like cats'), length('我喜欢猫')]).toEqual([4, 11, 4]);
    expect(calls).toEqual(['我喜欢猫', 'I like cats']);
    length('third'); // drops 我喜欢猫, the oldest
    length('I like cats');
    length('我喜欢猫');
    expect(calls).toEqual(['我喜欢猫', 'I like cats', 'third', '我喜欢猫']);
  });

  it('holds an undefined result too, and a throw is not held', () => {
    const memo = recentResults<number | undefined>(4);
    let n = 0;
    memo('a', () => (n++, undefined));
    memo('a', () => (n++, undefined));
    expect(n).toBe(1);
    expect(() => memo('b', () => { throw new Error('no'); })).toThrow('no');
    expect(memo('b', () => 7)).toBe(7);
  });
});
