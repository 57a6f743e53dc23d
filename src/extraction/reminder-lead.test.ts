import { describe, expect, it } from 'vitest';
import { zonedMinute } from '../domain/zoned-time.js';
import { findReminderLead, readReminderTime, remindAtWithLead } from './reminder-lead.js';

const TZ = 'Asia/Shanghai';
/** Saturday 2026-11-28 15:00 in Shanghai. */
const DUE = new Date('2026-11-28T07:00:00Z');
const remindFor = (text: string, options?: { alone?: boolean }, dueAt = DUE, timeZone = TZ): string | undefined => {
  const lead = findReminderLead(text, options);
  const at = lead ? remindAtWithLead(dueAt, lead, timeZone) : undefined;
  return at ? zonedMinute(at, timeZone) : undefined;
};

describe('reminder lead: how far ahead the user asked to be reminded', () => {
  // [words, the reminder for a todo due Saturday 15:00 Shanghai, the words found]
  const cases: Array<[string, string, string]> = [
    ['明天下午三点开会，提前半小时提醒我', '2026-11-28 14:30', '提前半小时'],
    ['提前一个半小时提醒我', '2026-11-28 13:30', '提前一个半小时'],
    ['提前10分钟叫我', '2026-11-28 14:50', '提前10分钟'],
    ['提前一刻钟提醒一下我', '2026-11-28 14:45', '提前一刻钟'],
    ['下周五交报告，提前两天提醒我', '2026-11-26 15:00', '提前两天'],
    ['提前半天提醒我', '2026-11-28 03:00', '提前半天'],
    ['前一天晚上提醒我', '2026-11-27 20:00', '前一天晚上'],
    ['交报告的前一天提醒我', '2026-11-27 15:00', '前一天'],
    ['当天早上提醒我', '2026-11-28 09:00', '当天早上'],
    ['remind me 30 minutes before', '2026-11-28 14:30', '30 minutes before'],
    ['Remind me an hour before the meeting', '2026-11-28 14:00', 'an hour before'],
    ['remind me half an hour early', '2026-11-28 14:30', 'half an hour early'],
    ['remind me a couple of hours ahead', '2026-11-28 13:00', 'a couple of hours ahead'],
    ['remind me 2 days in advance', '2026-11-26 15:00', '2 days in advance'],
    ['remind me the day before', '2026-11-27 15:00', 'the day before'],
    ['remind me the night before', '2026-11-27 20:00', 'the night before'],
    ['remind me the morning of', '2026-11-28 09:00', 'the morning of'],
  ];
  for (const [text, reminder, words] of cases) {
    it(`${text} → ${reminder}`, () => {
      expect(findReminderLead(text)?.text).toBe(words);
      expect(remindFor(text)).toBe(reminder);
    });
  }

  it('in a message, only with a request to be reminded (zh, en)', () => {
    for (const text of ['我提前一天到了', '他提前半小时下班', '前一天晚上我没睡好', 'I arrived an hour early', 'the day before the wedding we went hiking', 'We left 30 minutes early']) {
      expect(findReminderLead(text)).toBeUndefined();
    }
  });

  it('alone, the words are the lead itself: a model’s remindText, a person’s edit (zh, en)', () => {
    expect(remindFor('提前半小时', { alone: true })).toBe('2026-11-28 14:30');
    expect(remindFor('前一天晚上', { alone: true })).toBe('2026-11-27 20:00');
    expect(remindFor('30 minutes before', { alone: true })).toBe('2026-11-28 14:30');
    expect(remindFor('a day before', { alone: true })).toBe('2026-11-27 15:00');
    expect(findReminderLead('尽快', { alone: true })).toBeUndefined();
    expect(findReminderLead('asap', { alone: true })).toBeUndefined();
  });

  it('a day ahead is a day on the wall clock: the same time of day across a DST change', () => {
    // New York springs forward at 02:00 on Sunday 2026-03-08: a day before Sunday 09:00 is Saturday 09:00, 23 hours earlier.
    const sunday = new Date('2026-03-08T13:00:00Z');
    expect(remindFor('remind me the day before', undefined, sunday, 'America/New_York')).toBe('2026-03-07 09:00');
    expect(remindFor('remind me 24 hours before', undefined, sunday, 'America/New_York')).toBe('2026-03-07 08:00');
  });

  it('a reminder that would come after the time is none: the morning of a todo due at 08:00', () => {
    const early = new Date('2026-11-28T00:00:00Z');
    expect(remindFor('当天早上提醒我', undefined, early)).toBeUndefined();
    expect(remindFor('remind me the morning of', undefined, early)).toBeUndefined();
  });
});

describe('a reminder time said alone: a lead, or a moment of its own', () => {
  /** Friday 2026-11-27 10:00 in Shanghai. */
  const reference = new Date('2026-11-27T02:00:00Z');
  const read = (text: string) => readReminderTime(text, { reference, timeZone: TZ });
  it.each([
    ['下周一早上', '2026-11-30 09:00'],
    ['在下周一晚上提醒我', '2026-11-30 20:00'],
    ['明天早上八点', '2026-11-28 08:00'],
    ['next Monday', '2026-11-30 09:00'],
    ['remind me on Monday at 6pm', '2026-11-30 18:00'],
  ])('%s → %s, whatever the todo’s time', (text, at) => {
    const lead = read(text);
    expect(lead?.on && zonedMinute(lead.on, TZ)).toBe(at);
    // Before the todo's time it is the reminder; after it, none.
    expect(zonedMinute(remindAtWithLead(new Date('2026-12-31T01:00:00Z'), lead!, TZ)!, TZ)).toBe(at);
    expect(remindAtWithLead(new Date('2026-11-27T03:00:00Z'), lead!, TZ)).toBeUndefined();
  });

  it('a lead stays a lead; a past moment, words beside the time, or no time are none (zh, en)', () => {
    expect(read('提前半小时')).toMatchObject({ minutes: 30 });
    expect(read('the day before')).toMatchObject({ days: 1 });
    for (const text of ['昨天', 'last Monday', '下周一去医院', 'Monday after the meeting', '尽快', 'whenever']) expect(read(text)).toBeUndefined();
  });
});
