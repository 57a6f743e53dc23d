import { describe, expect, it } from 'vitest';
import { EngramError } from '../errors.js';
import { etagOf, parseIfMatch } from './entity-tags.js';

describe('If-Match', () => {
  it('reads strong tags, one or a list; * and no header set no condition', () => {
    expect(parseIfMatch(etagOf('k3J0aWJ2bG9nZ2VkLWluAb'))).toEqual(['k3J0aWJ2bG9nZ2VkLWluAb']);
    expect(parseIfMatch(' "a" , "b-_c"')).toEqual(['a', 'b-_c']);
    expect(parseIfMatch('*')).toBeUndefined();
    expect(parseIfMatch(undefined)).toBeUndefined();
  });

  it('a weak tag matches no version (If-Match compares strongly)', () => {
    expect(parseIfMatch('W/"abc"')).toEqual(['W/abc']);
  });

  it.each(['abc', '""', '"a" "b"', '', '"a",'])('%j is refused as INVALID_INPUT naming If-Match', (header) => {
    expect(() => parseIfMatch(header)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', details: { field: 'If-Match' } }) as EngramError);
  });
});
