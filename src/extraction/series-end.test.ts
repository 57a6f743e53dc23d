import { describe, expect, it } from 'vitest';
import { findSeriesEnd, untilOf } from './series-end.js';

const TZ = 'Asia/Shanghai';
/** Friday 2026-11-27, 15:30 in Shanghai. */
const REFERENCE = new Date('2026-11-27T07:30:00Z');
const end = (text: string) => findSeriesEnd(text, REFERENCE, TZ);

describe('series end: when a repeat said in words stops, and starts', () => {
  // [words, what they say]
  const cases: Array<[string, ReturnType<typeof end>]> = [
    ['每天早上八点提醒我吃药，到周五为止', { text: '到周五为止', until: '2026-12-04' }],
    ['到下周三结束', { text: '到下周三结束', until: '2026-12-02' }],
    ['直到12月20日', { text: '直到12月20日', until: '2026-12-20' }],
    ['一直到月底', { text: '一直到月底', until: '2026-11-30' }],
    ['到周五之前', { text: '到周五之前', until: '2026-12-03' }],
    ['连续五天', { text: '连续五天', span: { days: 5 } }],
    ['接下来两周', { text: '接下来两周', span: { days: 14 } }],
    ['持续一个月', { text: '持续一个月', span: { months: 1 } }],
    ['这周每天', { text: '这周', until: '2026-11-29' }],
    ['下周每天早上八点', { text: '下周', until: '2026-12-06', from: '2026-11-30' }],
    ['下个月每天', { text: '下个月', until: '2026-12-31', from: '2026-12-01' }],
    ['every day until Friday', { text: 'until Friday', until: '2026-12-04' }],
    ['until next Wednesday', { text: 'until next Wednesday', until: '2026-12-02' }],
    ['through Dec 20', { text: 'through Dec 20', until: '2026-12-20' }],
    ['till the end of the month', { text: 'till the end of the month', until: '2026-11-30' }],
    ['until the 15th', { text: 'until the 15th', until: '2026-12-15' }],
    ['for the next 5 days', { text: 'for the next 5 days', span: { days: 5 } }],
    ['for two weeks', { text: 'for two weeks', span: { days: 14 } }],
    ['for the next 2 months', { text: 'for the next 2 months', span: { months: 2 } }],
    ['every morning next week', { text: 'next week', until: '2026-12-06', from: '2026-11-30' }],
  ];
  for (const [text, said] of cases) it(text, () => expect(end(text)).toEqual(said));

  it('a move is no end: "把健身改到周五", "move it to Friday"', () => {
    expect(end('把健身改到周五')).toBeUndefined();
    expect(end('健身推到周五')).toBeUndefined();
    expect(end('move the gym to Friday')).toBeUndefined();
  });

  it('a span counts from the first occurrence: five days from Saturday end on Wednesday; months on the calendar', () => {
    expect(untilOf({ text: '连续五天', span: { days: 5 } }, new Date('2026-11-28T00:00:00Z'), TZ)).toBe('2026-12-02');
    expect(untilOf({ text: 'until Friday', until: '2026-12-04' }, new Date('2026-11-28T00:00:00Z'), TZ)).toBe('2026-12-04');
    // Months on the calendar: a month from the 28th ends on the 27th; two from 31 January, on 30 March.
    expect(untilOf({ text: '持续一个月', span: { months: 1 } }, new Date('2026-11-28T00:00:00Z'), TZ)).toBe('2026-12-27');
    expect(untilOf({ text: 'for the next 2 months', span: { months: 2 } }, new Date('2027-01-31T00:00:00Z'), TZ)).toBe('2027-03-30');
  });
});
