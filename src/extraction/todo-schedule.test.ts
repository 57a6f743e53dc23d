import { describe, expect, it } from 'vitest';
import { describeRecurrence, nextOccurrence } from '../domain/recurrence.js';
import { zonedMinute } from '../domain/zoned-time.js';
import { findRecurrence } from './recurrence-phrase.js';
import { rescheduleTodo, scheduleTodo } from './todo-schedule.js';
import { findSeriesEnd } from './series-end.js';

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

describe('a todo moved: only what the words name changes', () => {
  /** The todo as made from its words at REFERENCE (Friday 15:30), moved by `to` an hour later. */
  const moved = (made: string, to: string, reference = new Date(REFERENCE.getTime() + 3_600_000)) => {
    const todo = schedule(made);
    const s = rescheduleTodo({ todo, texts: [to], reference, timeZone: TZ });
    return { todo, s, due: s?.dueAt ? zonedMinute(s.dueAt, TZ) : undefined, remind: s?.remindAt ? zonedMinute(s.remindAt, TZ) : undefined };
  };

  it.each([
    ['zh: a time of day keeps the day', '明天下午三点开会', '下午四点', '2026-11-28 16:00'],
    ['zh: a day keeps the time of day', '明天下午三点开会', '下周一', '2026-11-30 15:00'],
    ['zh: a day and a time', '明天下午三点开会', '下周二上午十点', '2026-12-01 10:00'],
    ['zh: "三点半" for something in the afternoon is 15:30', '明天下午两点开会', '三点半', '2026-11-28 15:30'],
    ['zh: "上午十点" says which half', '明天下午两点开会', '上午十点', '2026-11-28 10:00'],
    ['en: a time of day keeps the day', 'call the dentist tomorrow at 3pm', '4pm', '2026-11-28 16:00'],
    ['en: a day keeps the time of day', 'call the dentist tomorrow at 3pm', 'Monday', '2026-11-30 15:00'],
    ['en: a day and a time', 'call the dentist tomorrow at 3pm', 'next Tuesday at 10am', '2026-12-01 10:00'],
  ])('%s', (_, made, to, due) => {
    const m = moved(made, to);
    expect(m.due).toBe(due);
    // The reminder keeps its lead (an hour, as the todo was made).
    expect(m.s!.dueAt!.getTime() - m.s!.remindAt!.getTime()).toBe(3_600_000);
    expect(m.s!.repeat).toBeUndefined();
  });

  it('a time of day already past on the day kept: the next day at it (zh, en)', () => {
    // Made at 15:30 for 17:00 today; at 16:30 moved to "上午十点" / "10am": tomorrow 10:00.
    expect(moved('今天下午五点开会', '上午十点').due).toBe('2026-11-28 10:00');
    expect(moved('meeting today at 5pm', '10am').due).toBe('2026-11-28 10:00');
  });

  it('a series keeps its rule; the occurrence at hand moves to the new time of day (zh, en)', () => {
    const zh = moved('每天早上八点吃药', '晚上九点');
    expect(zh.due).toBe('2026-11-28 21:00');
    expect(zh.remind).toBe('2026-11-28 20:00');
    expect(zh.s!.repeat).toMatchObject({ every: 'day', interval: 1 });
    const en = moved('join the standup every weekday at 9am', '10am');
    expect(en.due).toBe('2026-11-30 10:00');
    expect(en.s!.repeat).toMatchObject({ every: 'week', weekdays: [1, 2, 3, 4, 5] });
    // A day alone moves this occurrence only: Monday's gym to Wednesday, then Thursday's as ever.
    const gym = moved('每周一和周四晚上七点去健身', '周三');
    expect(gym.due).toBe('2026-12-02 19:00');
    expect(zonedMinute(nextOccurrence(gym.s!.repeat!, gym.s!.dueAt!, gym.s!.dueAt!)!, TZ)).toBe('2026-12-03 19:00');
  });

  it('a new repeat: a series from the day of the occurrence at hand, at the old time of day unless the words give one (zh, en)', () => {
    const wed = moved('每周一和周四晚上七点去健身', '每周三');
    expect(wed.due).toBe('2026-12-02 19:00');
    expect(wed.s!.repeat).toMatchObject({ every: 'week', weekdays: [3] });
    // Daily at 08:00, next tomorrow 08:00: "每天晚上九点" starts tomorrow evening, not tonight.
    expect(moved('每天早上八点吃药', '每天晚上九点').due).toBe('2026-11-28 21:00');
    const en = moved('call mom tomorrow at 6pm', 'every Sunday');
    expect(en.due).toBe('2026-11-29 18:00');
    expect(en.s!.repeat).toMatchObject({ every: 'week', weekdays: [0] });
  });

  it('words that name no time move nothing (zh, en)', () => {
    expect(moved('明天下午三点开会', '会议室B').s).toBeUndefined();
    expect(moved('call the dentist tomorrow at 3pm', 'the living room').s).toBeUndefined();
  });

  it('a todo that had no time gets the one said, reminded an hour ahead', () => {
    const m = moved('买猫粮', '明天下午五点');
    expect(m.due).toBe('2026-11-28 17:00');
    expect(m.remind).toBe('2026-11-28 16:00');
  });
});

describe('todo schedule: a reminder lead said with the todo', () => {
  // [words, due, reminder] on the Shanghai wall clock; said Friday 2026-11-27 15:30.
  const cases: Array<[string, string, string]> = [
    ['明天下午三点开会，提前半小时提醒我', '2026-11-28 15:00', '2026-11-28 14:30'],
    ['下周五交报告，提前一天提醒我', '2026-12-04 09:00', '2026-12-03 09:00'],
    ['明天下午三点开会，前一天晚上提醒我', '2026-11-28 15:00', '2026-11-27 20:00'],
    ['每周一早上九点开例会，提前十分钟提醒我', '2026-11-30 09:00', '2026-11-30 08:50'],
    ['I have a dentist appointment Monday at 10am, remind me 30 minutes before', '2026-11-30 10:00', '2026-11-30 09:30'],
    ['The report is due Friday, remind me the day before', '2026-12-04 09:00', '2026-12-03 09:00'],
    ['remind me the night before the flight tomorrow at 8am', '2026-11-28 08:00', '2026-11-27 20:00'],
  ];
  for (const [text, due, reminder] of cases) {
    it(`${text} → due ${due}, reminded ${reminder}`, () => {
      const s = schedule(text);
      expect(zonedMinute(s.dueAt!, TZ)).toBe(due);
      expect(zonedMinute(s.remindAt!, TZ)).toBe(reminder);
    });
  }

  it('the lead’s words are no due time: "前一天晚上" and "the night before" do not make it due tonight', () => {
    expect(zonedMinute(schedule('周日下午三点去机场，前一天晚上提醒我').dueAt!, TZ)).toBe('2026-11-29 15:00');
    expect(zonedMinute(schedule('Sunday at 3pm go to the airport, remind me the night before').dueAt!, TZ)).toBe('2026-11-29 15:00');
  });

  it('a lead whose moment has passed reminds at the time itself, as the default lead does (zh, en)', () => {
    for (const text of ['今天下午五点开会，提前两个小时提醒我', 'meeting today at 5pm, remind me 2 hours before']) {
      const s = schedule(text);
      expect(zonedMinute(s.dueAt!, TZ)).toBe('2026-11-27 17:00');
      expect(s.remindAt).toEqual(s.dueAt);
    }
  });

  it('a series keeps its lead from one occurrence to the next', () => {
    const s = schedule('每周一早上九点开例会，提前十分钟提醒我');
    expect(s.dueAt!.getTime() - s.remindAt!.getTime()).toBe(10 * 60_000);
  });

  it('moving a todo with a lead said: the new time, reminded as far ahead as said (zh, en)', () => {
    const todo = { dueAt: new Date('2026-11-28T07:00:00Z'), remindAt: new Date('2026-11-28T06:00:00Z') };
    const zh = rescheduleTodo({ todo, texts: ['下午四点，提前半小时提醒我'], reference: REFERENCE, timeZone: TZ })!;
    expect([zonedMinute(zh.dueAt!, TZ), zonedMinute(zh.remindAt!, TZ)]).toEqual(['2026-11-28 16:00', '2026-11-28 15:30']);
    const en = rescheduleTodo({ todo, texts: ['4pm, remind me the day before'], reference: REFERENCE, timeZone: TZ })!;
    expect([zonedMinute(en.dueAt!, TZ), zonedMinute(en.remindAt!, TZ)]).toEqual(['2026-11-28 16:00', '2026-11-27 16:00']);
  });
});

describe('todo schedule: a series with an end said', () => {
  // [words, first due, how it reads in Chinese and English] on the Shanghai wall clock; said Friday 2026-11-27 15:30.
  const cases: Array<[string, string, string, string]> = [
    ['每天早上八点提醒我吃药，到周五为止', '2026-11-28 08:00', '每天，到12月4日', 'every day until Dec 4'],
    ['下周每天早上八点提醒我吃药', '2026-11-30 08:00', '每天，到12月6日', 'every day until Dec 6'],
    ['这周每天晚上提醒我背单词', '2026-11-27 20:00', '每天，到11月29日', 'every day until Nov 29'],
    ['连续五天每天晚上九点提醒我敷面膜', '2026-11-27 21:00', '每天，到12月1日', 'every day until Dec 1'],
    ['每周一早上九点开例会，到12月20日', '2026-11-30 09:00', '每周一，到12月20日', 'every Mon until Dec 20'],
    ['Remind me every day at 8am until Friday to take my pills', '2026-11-28 08:00', '每天，到12月4日', 'every day until Dec 4'],
    ['every morning next week remind me to stretch', '2026-11-30 09:00', '每天，到12月6日', 'every day until Dec 6'],
    ['remind me every evening for the next 5 days to do physio', '2026-11-27 18:00', '每天，到12月1日', 'every day until Dec 1'],
    ['every Monday at 9am standup for two weeks', '2026-11-30 09:00', '每周一，到12月13日', 'every Mon until Dec 13'],
    ['每天早上八点提醒我吃药，持续一个月', '2026-11-28 08:00', '每天，到12月27日', 'every day until Dec 27'],
    ['Remind me every morning for a month to stretch', '2026-11-28 09:00', '每天，到12月27日', 'every day until Dec 27'],
  ];
  for (const [text, due, zh, en] of cases) {
    it(`${text} → ${due}, ${en}`, () => {
      const s = schedule(text);
      expect(zonedMinute(s.dueAt!, TZ)).toBe(due);
      expect([describeRecurrence(s.repeat!, 'zh'), describeRecurrence(s.repeat!, 'en')]).toEqual([zh, en]);
    });
  }

  it('a weekday range is no end: "每周一到周五八点" runs on', () => {
    expect(schedule('每周一到周五八点叫我起床').repeat).not.toHaveProperty('until');
  });

  it('an end before the first occurrence is not taken for one', () => {
    // Said on Friday: Saturday is before Monday's first meeting.
    expect(findSeriesEnd('到周六为止', REFERENCE, TZ)?.until).toBe('2026-11-28');
    const s = schedule('每周一早上九点开会，到周六为止');
    expect(zonedMinute(s.dueAt!, TZ)).toBe('2026-11-30 09:00');
    expect(s.repeat?.until).toBeUndefined();
  });
});

describe('todo schedule: a bare hour', () => {
  it('is the next such time for a task, the morning’s for a wake-up (said Friday 15:30)', () => {
    expect(zonedMinute(schedule('remind me at 5 to leave for the airport').dueAt!, TZ)).toBe('2026-11-27 17:00');
    expect(zonedMinute(schedule('六点叫我起床').dueAt!, TZ)).toBe('2026-11-28 06:00');
    expect(zonedMinute(schedule('wake me up at 6:30').dueAt!, TZ)).toBe('2026-11-28 06:30');
  });
});

describe('todo schedule: a time counted from the moment said is the reminder’s own', () => {
  it.each([
    ['两小时后提醒我关火', '2026-11-27 17:30'],
    ['Remind me in 2 hours to turn off the stove', '2026-11-27 17:30'],
    ['半小时后提醒我给妈妈打电话', '2026-11-27 16:00'],
  ])('%s → due and reminded at %s', (text, at) => {
    const s = schedule(text);
    expect([zonedMinute(s.dueAt!, TZ), zonedMinute(s.remindAt!, TZ)]).toEqual([at, at]);
  });

  it('a day and an hour said keep the hour-ahead reminder; a lead said still counts (zh, en)', () => {
    const s = schedule('明天下午三点提醒我开会');
    expect([zonedMinute(s.dueAt!, TZ), zonedMinute(s.remindAt!, TZ)]).toEqual(['2026-11-28 15:00', '2026-11-28 14:00']);
    const lead = scheduleTodo({ texts: ['remind me in 3 hours to call the bank, 30 minutes before'], reference: REFERENCE, timeZone: TZ });
    expect([zonedMinute(lead.dueAt!, TZ), zonedMinute(lead.remindAt!, TZ)]).toEqual(['2026-11-27 18:30', '2026-11-27 18:00']);
  });
});
