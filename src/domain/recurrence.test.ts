import { describe, expect, it } from 'vitest';
import { describeRecurrence, firstOccurrence, nextOccurrence, previousOccurrence, RecurrenceRule, RepeatInput } from './recurrence.js';
import { zonedMinute } from './zoned-time.js';

const rule = (r: Partial<RecurrenceRule> & Pick<RecurrenceRule, 'every'>): RecurrenceRule => RecurrenceRule.parse({ interval: 1, timeZone: 'Asia/Shanghai', ...r });
const local = (d: Date | undefined, tz: string): string | undefined => (d ? zonedMinute(d, tz) : undefined);
const iso = (s: string): Date => new Date(s);

describe('recurrence: the next occurrence on the wall clock of the series', () => {
  it('every day keeps 08:00 in Shanghai and across a DST change in New York', () => {
    const sh = rule({ every: 'day' });
    expect(local(nextOccurrence(sh, iso('2026-11-28T00:00:00Z'), iso('2026-11-28T00:00:00Z')), 'Asia/Shanghai')).toBe('2026-11-29 08:00');
    const ny = rule({ every: 'day', timeZone: 'America/New_York' });
    // 2026-11-01 is the end of daylight time in New York: 08:00 EDT is 12:00Z, 08:00 EST 13:00Z.
    const next = nextOccurrence(ny, iso('2026-10-31T12:00:00Z'), iso('2026-10-31T12:00:00Z'))!;
    expect(next.toISOString()).toBe('2026-11-01T13:00:00.000Z');
    expect(local(next, 'America/New_York')).toBe('2026-11-01 08:00');
  });

  it('skips the occurrences missed while nothing ran, and steps at least once', () => {
    const daily = rule({ every: 'day' });
    const due = iso('2026-11-20T00:00:00Z'); // 08:00 Shanghai
    expect(local(nextOccurrence(daily, due, iso('2026-11-27T03:00:00Z')), 'Asia/Shanghai')).toBe('2026-11-28 08:00');
    expect(local(nextOccurrence(daily, due, iso('2026-11-01T00:00:00Z')), 'Asia/Shanghai')).toBe('2026-11-21 08:00');
    expect(local(nextOccurrence(rule({ every: 'day', interval: 2 }), due, due), 'Asia/Shanghai')).toBe('2026-11-22 08:00');
  });

  it('weekly on set weekdays, every other week, monthly on the 31st clamped and back, yearly on 29 February', () => {
    const monThu = rule({ every: 'week', weekdays: [1, 4] });
    const monday = iso('2026-11-30T11:00:00Z'); // Mon 19:00 Shanghai
    const thursday = nextOccurrence(monThu, monday, monday)!;
    expect(local(thursday, 'Asia/Shanghai')).toBe('2026-12-03 19:00');
    expect(local(nextOccurrence(monThu, thursday, thursday), 'Asia/Shanghai')).toBe('2026-12-07 19:00');
    expect(local(previousOccurrence(monThu, monday), 'Asia/Shanghai')).toBe('2026-11-26 19:00');
    expect(local(nextOccurrence(rule({ every: 'week', interval: 2 }), monday, monday), 'Asia/Shanghai')).toBe('2026-12-14 19:00');

    const rent = rule({ every: 'month', day: 31 });
    const jan = iso('2027-01-31T01:00:00Z');
    const feb = nextOccurrence(rent, jan, jan)!;
    expect(local(feb, 'Asia/Shanghai')).toBe('2027-02-28 09:00');
    expect(local(nextOccurrence(rent, feb, feb), 'Asia/Shanghai')).toBe('2027-03-31 09:00');

    const leap = rule({ every: 'year', day: 29 });
    const feb29 = iso('2028-02-29T01:00:00Z');
    const next = nextOccurrence(leap, feb29, feb29)!;
    expect(local(next, 'Asia/Shanghai')).toBe('2029-02-28 09:00');
    expect(local(nextOccurrence(leap, iso('2031-02-28T01:00:00Z'), iso('2031-02-28T01:00:00Z')), 'Asia/Shanghai')).toBe('2032-02-29 09:00');
  });

  it('the first occurrence: today when its time is still ahead, else the next day the rule falls on', () => {
    const at = { hour: 8, minute: 0 };
    const early = iso('2026-11-26T23:30:00Z'); // Fri 07:30 Shanghai
    const late = iso('2026-11-27T07:30:00Z'); // Fri 15:30
    expect(local(firstOccurrence(rule({ every: 'day' }), at, early), 'Asia/Shanghai')).toBe('2026-11-27 08:00');
    expect(local(firstOccurrence(rule({ every: 'day' }), at, late), 'Asia/Shanghai')).toBe('2026-11-28 08:00');
    expect(local(firstOccurrence(rule({ every: 'week', weekdays: [1, 2, 3, 4, 5] }), at, late), 'Asia/Shanghai')).toBe('2026-11-30 08:00');
    expect(local(firstOccurrence(rule({ every: 'month', day: 15 }), at, late), 'Asia/Shanghai')).toBe('2026-12-15 08:00');
    expect(local(firstOccurrence(rule({ every: 'year' }), { ...at, on: { month: 3, day: 5 } }, late), 'Asia/Shanghai')).toBe('2027-03-05 08:00');
  });
});

describe('recurrence: how it reads, and what is refused', () => {
  it('describes a series in Chinese and English', () => {
    const cases: Array<[Partial<RecurrenceRule> & Pick<RecurrenceRule, 'every'>, string, string]> = [
      [{ every: 'day' }, '每天', 'every day'],
      [{ every: 'day', interval: 2 }, '每2天', 'every 2 days'],
      [{ every: 'week', weekdays: [1, 2, 3, 4, 5] }, '每个工作日', 'every weekday'],
      [{ every: 'week', weekdays: [0, 6] }, '每个周末', 'every weekend'],
      [{ every: 'week', weekdays: [4, 1] }, '每周一、四', 'every Mon, Thu'],
      [{ every: 'week', weekdays: [0] }, '每周日', 'every Sun'],
      [{ every: 'week', interval: 2 }, '每2周', 'every 2 weeks'],
      [{ every: 'month', day: 15 }, '每月15日', 'every month on the 15th'],
      [{ every: 'month', day: 31 }, '每月最后一天', 'every month on its last day'],
      [{ every: 'year' }, '每年', 'every year'],
    ];
    for (const [r, zh, en] of cases) {
      expect(describeRecurrence(rule(r), 'zh')).toBe(zh);
      expect(describeRecurrence(rule(r), 'en')).toBe(en);
    }
  });

  it('refuses weekdays on a series that is not weekly, a day on a daily one, an unknown zone and an hourly unit', () => {
    expect(RecurrenceRule.safeParse({ every: 'week', interval: 2, weekdays: [1], timeZone: 'UTC' }).success).toBe(false);
    expect(RecurrenceRule.safeParse({ every: 'day', weekdays: [1], timeZone: 'UTC' }).success).toBe(false);
    expect(RecurrenceRule.safeParse({ every: 'day', day: 3, timeZone: 'UTC' }).success).toBe(false);
    expect(RecurrenceRule.safeParse({ every: 'day', timeZone: 'Mars/Olympus' }).success).toBe(false);
    expect(RecurrenceRule.safeParse({ every: 'hour', timeZone: 'UTC' }).success).toBe(false);
    expect(RecurrenceRule.safeParse({ every: 'day', timeZone: 'UTC', extra: 1 }).success).toBe(false);
    expect(RepeatInput.parse({ every: 'week', weekdays: [1] })).toEqual({ every: 'week', interval: 1, weekdays: [1] });
  });
});

describe('recurrence: a series with a last day', () => {
  it('has no occurrence past its last day on its own wall clock; it reads with its end (zh, en)', () => {
    const untilFriday = rule({ every: 'day', until: '2026-12-04' });
    const thursday = iso('2026-12-03T00:00:00Z'); // 08:00 Shanghai
    expect(local(nextOccurrence(untilFriday, thursday, thursday), 'Asia/Shanghai')).toBe('2026-12-04 08:00');
    expect(nextOccurrence(untilFriday, iso('2026-12-04T00:00:00Z'), iso('2026-12-04T00:00:00Z'))).toBeUndefined();
    // The last day is the series' own: 23:30 in Shanghai on the 4th is still the 4th there.
    const late = rule({ every: 'day', until: '2026-12-04' });
    expect(local(nextOccurrence(late, iso('2026-12-03T15:30:00Z'), iso('2026-12-03T15:30:00Z')), 'Asia/Shanghai')).toBe('2026-12-04 23:30');
    expect(describeRecurrence(untilFriday, 'zh')).toBe('每天，到12月4日');
    expect(describeRecurrence(untilFriday, 'en')).toBe('every day until Dec 4');
    expect(describeRecurrence(rule({ every: 'week', weekdays: [1], until: '2027-01-31' }), 'en')).toBe('every Mon until Jan 31');
  });

  it('takes a last day only as a calendar date', () => {
    for (const until of ['2026-13-01', 'Friday', '2026-12-4', '2026-02-30']) {
      expect(RepeatInput.safeParse({ every: 'day', until }).success).toBe(false);
    }
    expect(RepeatInput.safeParse({ every: 'day', until: '2026-12-04' }).success).toBe(true);
  });
});
