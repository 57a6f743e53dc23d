import { describe, expect, it } from 'vitest';
import { KeyedLock } from './keyed-lock.js';

describe('KeyedLock', () => {
  it('runs calls under one key in order, forgets the key after the last', async () => {
    const lock = new KeyedLock();
    const seen: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = lock.run('用户', async () => { seen.push('a start'); await gate; seen.push('a end'); });
    const second = lock.run('用户', async () => { seen.push('b'); });
    const other = lock.run('alice', async () => { seen.push('other'); });
    await other;
    expect(seen).toEqual(['a start', 'other']);
    open();
    await Promise.all([first, second]);
    expect(seen).toEqual(['a start', 'other', 'a end', 'b']);
    expect(lock.size).toBe(0);
  });

  it('a failing call releases the key', async () => {
    const lock = new KeyedLock();
    await expect(lock.run('u', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await lock.run('u', () => Promise.resolve(1))).toBe(1);
  });
});
