import { describe, expect, it } from 'vitest';
import { progressBar } from './progress.js';

describe('progress bar (issue 12.11)', () => {
  it('draws on a terminal, once per percent, and ends the line', () => {
    let out = '';
    const bar = progressBar('lifecycle', { isTTY: true, write: (t: string) => (out += t) }, 10);
    for (let i = 1; i <= 200; i++) bar.update(i, 200);
    bar.done();
    expect(out.split('\r').filter(Boolean)).toHaveLength(101); // 0 % … 100 %
    expect(out.endsWith('lifecycle [##########] 100% (200/200)\n')).toBe(true);
  });

  it('writes nothing when the stream is not a terminal (pipes, files, --json)', () => {
    let out = '';
    const bar = progressBar('重建索引', { isTTY: false, write: (t: string) => (out += t) });
    bar.update(1, 2);
    bar.done();
    expect(out).toBe('');
  });
});
