import { describe, expect, it } from 'vitest';
import { headerText } from './header-text.js';

describe('headerText: a header as the client wrote it', () => {
  it('reads UTF-8 bytes (as Node hands them over, one character per byte) as UTF-8 (zh, en)', () => {
    for (const said of ['jürgen', '李明', 'chat-会话-1']) expect(headerText(Buffer.from(said, 'utf8').toString('latin1'))).toBe(said);
  });
  it('leaves ASCII, true Latin-1 and nothing as they are', () => {
    expect(headerText('alice')).toBe('alice');
    expect(headerText('j\u00fcrgen')).toBe('j\u00fcrgen');
    expect(headerText(undefined)).toBeUndefined();
  });
});
