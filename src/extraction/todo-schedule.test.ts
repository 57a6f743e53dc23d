import { describe, expect, it } from 'vitest';
import { describeRecurrence } from '../domain/recurrence.js';
import { zonedMinute } from '../domain/zoned-time.js';
import { findRecurrence } from './recurrence-phrase.js';
import { scheduleTodo } from './todo-schedule.js';

const TZ = 'Asia/Shanghai';
/** Friday 2026-11-27, 15:30 in Shanghai. */
const REFERENCE = new Date('2026-11-27T07:30:00Z');
const schedule = (text: string) => scheduleTodo({ texts: [text], reference: REFERENCE, timeZone: TZ });

describe('todo schedule: a repeat said in words becomes a series with its first time', () => {
  // [words, first due on the Shanghai wall clock, the repeat as it reads in English]
  const cases: Array<[string, string, string]> = [
    ['每天早上八点提醒我吃药', '2026-11-28 08:00', 'every day'],
    ['每周一和周四晚上七点去健身', '2026-11-30 19:00', 'every Mon, Thu'],
    ['每个工作日早上九点开站会', '2026-11-30 09:00', 'every weekday'],
    ['每周一到周五八点叫我起床', '2026-11-30 08:00', 'every weekday'],
    ['每月15号交房租', '2026-12-15 09:00', 'every month on the 15th'],
    ['每隔一天浇花', '2026-11-28 09:00', 'every 2 days'],
    ['每两周周日打扫卫生', '2026-11-29 09:00', 'every 2 weeks'],
    ['每年3月5日给妈妈打电话', '2027-03-05 09:00', 'every year'],
    ['每晚十点提醒我关窗', '2026-11-27 22:00', 'every day'],
    ['每个周末去看爸妈', '2026-11-28 09:00', 'every weekend'],
    ['remind me every morning at 8 to take my pills', '2026-11-28 08:00', 'every day'],
    ['every Monday and Thursday at 7pm go to the gym', '2026-11-30 19:00', 'every Mon, Thu'],
    ['pay the rent on the 1st of every month', '2026-12-01 09:00', 'every month on the 1st'],
    ['water the plants every other day', '2026-11-28 09:00', 'every 2 days'],
    ['every weekday at 9am standup', '2026-11-30 09:00', 'every weekday'],
    ['call mom every Sunday evening', '2026-11-29 18:00', 'every Sun'],
    ['change the filter every 3 days', '2026-11-28 09:00', 'every 3 days'],
  ];
  for (const [text, due, repeats] of cases) {
    it(`${text} → ${due}, ${repeats}`, () => {
      const s = schedule(text);
      expect(s.repeat).toBeDefined();
      expect(zonedMinute(s.dueAt!, TZ)).toBe(due);
      expect(describeRecurrence(s.repeat!, 'en')).toBe(repeats);
      expect(s.repeat!.timeZone).toBe(TZ);
      expect(s.remindAt!.getTime()).toBe(s.dueAt!.getTime() - 3_600_000);
    });
  }

  it('a one-off stays a one-off: its time phrase is the due time (zh, en)', () => {
    for (const [text, due] of [['明天下午三点开会', '2026-11-28 15:00'], ['submit the report tomorrow at 5pm', '2026-11-28 17:00']] as const) {
      const s = schedule(text);
      expect(s.repeat).toBeUndefined();
      expect(zonedMinute(s.dueAt!, TZ)).toBe(due);
    }
    expect(schedule('买猫粮')).toEqual({ dueAt: undefined, remindAt: undefined });
  });

  it('reads no series in hours, or in words that are not a repeat (zh, en)', () => {
    for (const text of ['每小时喝一次水', '我每个人都认识', 'every hour drink water', 'everyday clothes', 'Monday is busy', 'Send the quarterly report', 'prepare the weekly sync notes', 'my daily standup slides']) {
      expect(findRecurrence(text), text).toBeUndefined();
    }
    expect(findRecurrence('take the vitamins daily')?.rule).toEqual({ every: 'day', interval: 1 });
    expect(findRecurrence('back up the photos monthly.')?.rule).toEqual({ every: 'month', interval: 1 });
  });

  it('takes a repeat and a first time given outright, the zone the caller names', () => {
    const s = scheduleTodo({ texts: ['吃药'], reference: REFERENCE, timeZone: TZ, dueAt: new Date('2026-12-01T00:00:00Z'), repeat: { every: 'week', interval: 1, timeZone: 'Europe/Berlin' } });
    expect(s.dueAt!.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(s.repeat).toEqual({ every: 'week', interval: 1, timeZone: 'Europe/Berlin' });
  });

  it('the first time is the model’s time phrase when it says one ahead, the repeat read from the todo’s words', () => {
    // As the extraction gives it: todo.dueText "早上八点" resolved, the content "每天吃药".
    const s = scheduleTodo({ texts: ['早上八点', '每天吃药'], reference: REFERENCE, timeZone: TZ, dueAt: new Date('2026-11-28T00:00:00Z') });
    expect(zonedMinute(s.dueAt!, TZ)).toBe('2026-11-28 08:00');
    expect(s.repeat?.every).toBe('day');
  });
});
