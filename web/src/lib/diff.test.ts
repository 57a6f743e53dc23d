import { describe, expect, it } from 'vitest';
import { diffWords } from './diff';

const rebuild = (parts: ReturnType<typeof diffWords>, side: 'before' | 'after') =>
  parts.filter((p) => p.type === 'same' || p.type === (side === 'before' ? 'del' : 'add')).map((p) => p.text).join('');

describe('diffWords', () => {
  it('marks the changed English words and keeps both texts recoverable', () => {
    const parts = diffWords('Likes cats and lives in Berlin.', 'Likes cats and lives in Tokyo.');
    expect(parts).toContainEqual({ type: 'del', text: 'Berlin' });
    expect(parts).toContainEqual({ type: 'add', text: 'Tokyo' });
    expect(rebuild(parts, 'before')).toBe('Likes cats and lives in Berlin.');
    expect(rebuild(parts, 'after')).toBe('Likes cats and lives in Tokyo.');
  });

  it('diffs Chinese by words, not by whole sentences', () => {
    const before = '用户喜欢猫，住在北京。';
    const after = '用户喜欢猫，住在上海。';
    const parts = diffWords(before, after);
    const same = parts.filter((p) => p.type === 'same').map((p) => p.text).join('');
    expect(same).toContain('用户喜欢猫');
    expect(parts.some((p) => p.type === 'del' && p.text.includes('北京'))).toBe(true);
    expect(parts.some((p) => p.type === 'add' && p.text.includes('上海'))).toBe(true);
    expect(rebuild(parts, 'after')).toBe(after);
  });

  it('falls back to replace-all above the size limit', () => {
    expect(diffWords('a b c', 'a b d', 1)).toEqual([{ type: 'del', text: 'a b c' }, { type: 'add', text: 'a b d' }]);
  });
});
