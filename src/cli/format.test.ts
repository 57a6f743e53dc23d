import { describe, expect, it } from 'vitest';
import { displayWidth, table, truncate } from './format.js';

describe('format', () => {
  it('measures Chinese as two columns', () => {
    expect(displayWidth('猫')).toBe(2);
    expect(displayWidth('用户喜欢猫，')).toBe(12);
    expect(displayWidth('Redis 缓存')).toBe(10);
  });

  it('truncates by columns', () => {
    expect(truncate('用户喜欢猫，养了一只叫小白的猫', 9)).toBe('用户喜欢…');
    expect(truncate('The user loves hiking', 10)).toBe('The user …');
    expect(truncate('short', 10)).toBe('short');
  });

  it('aligns columns across Chinese and English rows', () => {
    const out = table([{ header: 'content' }, { header: 'kind' }], [['用户不吃香菜', 'preference'], ['Alice', 'identity']]).split('\n');
    const column = out.map((l) => displayWidth(l.slice(0, l.search(/(preference|identity|kind)$/))));
    expect(new Set(column).size).toBe(1);
  });
});
