import { describe, expect, it } from 'vitest';
import { dateMatch, readDateWindows } from './date-match.js';

const now = new Date('2024-01-01T00:00:00Z');
const span = (q: string, tz?: string): Array<[string, string]> => readDateWindows(q, now, tz).map((w) => [w.from.toISOString(), w.to.toISOString()]);

describe('readDateWindows', () => {
  it('reads English dates, months and years', () => {
    expect(span('What painting did Melanie show on October 13, 2023?')).toEqual([['2023-10-13T00:00:00.000Z', '2023-10-14T00:00:00.000Z']]);
    expect(span('What did Gina find on 1 February, 2023?')).toEqual([['2023-02-01T00:00:00.000Z', '2023-02-02T00:00:00.000Z']]);
    expect(span('What setback did Melanie face in October 2023?')).toEqual([['2023-10-01T00:00:00.000Z', '2023-11-01T00:00:00.000Z']]);
    // No year: the latest June not after now.
    expect(span('When did Melanie go camping in June?')).toEqual([['2023-06-01T00:00:00.000Z', '2023-07-01T00:00:00.000Z']]);
    expect(span('How many times has she gone to the beach in 2023?')).toEqual([['2023-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z']]);
  });

  it('reads Chinese dates, months and years', () => {
    expect(span('2023年10月13日她给我看了哪幅画？')).toEqual([['2023-10-13T00:00:00.000Z', '2023-10-14T00:00:00.000Z']]);
    expect(span('2023年10月发生了什么')).toEqual([['2023-10-01T00:00:00.000Z', '2023-11-01T00:00:00.000Z']]);
    expect(span('她6月去哪里露营了？')).toEqual([['2023-06-01T00:00:00.000Z', '2023-07-01T00:00:00.000Z']]);
    expect(span('2023年她去了几次海边？')).toEqual([['2023-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z']]);
  });

  it('reads relative references in the user\'s time zone, and nothing from a question without time', () => {
    expect(span('昨天聊了什么？', 'Asia/Shanghai')).toEqual([['2023-12-30T16:00:00.000Z', '2023-12-31T16:00:00.000Z']]);
    expect(span('What did we talk about yesterday?')).toEqual([['2023-12-31T00:00:00.000Z', '2024-01-01T00:00:00.000Z']]);
    expect(span('What does Melanie like to paint?')).toEqual([]);
    expect(span('她喜欢画什么？')).toEqual([]);
    // "May" the verb is not a month.
    expect(span('May I ask what she painted?')).toEqual([]);
  });
});

describe('dateMatch', () => {
  const windows = readDateWindows('在2023年6月', now);
  it('matches inside the window and within the slack after it, not before', () => {
    expect(dateMatch(new Date('2023-06-15T12:00:00Z'), windows, 14)).toBe(1);
    expect(dateMatch(new Date('2023-07-10T12:00:00Z'), windows, 14)).toBe(1);
    expect(dateMatch(new Date('2023-07-20T12:00:00Z'), windows, 14)).toBe(0);
    expect(dateMatch(new Date('2023-05-31T12:00:00Z'), windows, 14)).toBe(0);
    expect(dateMatch(new Date('2023-06-15T12:00:00Z'), [], 14)).toBe(0);
  });
});
