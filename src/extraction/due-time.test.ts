import { describe, expect, it } from 'vitest';
import { zonedMinute } from '../domain/zoned-time.js';
import { defaultRemindAt, findTimePhrase, parseDueTime, timeZoneOffsetMinutes } from './due-time.js';

// Wednesday 2025-03-12, 10:00 in Shanghai.
const reference = new Date('2025-03-12T02:00:00Z');
const timeZone = 'Asia/Shanghai';
const due = (text: string, tz: string | undefined = timeZone, ref = reference): string | undefined =>
  parseDueTime({ text, reference: ref, ...(tz ? { timeZone: tz } : {}) })?.toISOString();

describe('parseDueTime in Chinese', () => {
  it('a day with no time that is today, said after nine: in an hour (to the quarter), not this morning', () => {
    // Wednesday 10:00 in Shanghai: "周三" and "今天" are today, and nine has passed.
    expect(due('别让我忘了周三还信用卡')).toBe('2025-03-12T03:00:00.000Z');
    expect(due('今天要交房租', timeZone, new Date('2025-03-12T04:20:00Z'))).toBe('2025-03-12T05:30:00.000Z');
    expect(due("I need to pay the rent today", timeZone, new Date('2025-03-12T04:20:00Z'))).toBe('2025-03-12T05:30:00.000Z');
    // Before nine it is still nine; a time said is kept; another day is untouched.
    expect(due('今天要交房租', timeZone, new Date('2025-03-11T23:30:00Z'))).toBe('2025-03-12T01:00:00.000Z');
    expect(due('今天下午三点交房租')).toBe('2025-03-12T07:00:00.000Z');
    expect(due('周五还信用卡')).toBe('2025-03-14T01:00:00.000Z');
  });

  it('resolves a day and a time of day on the user’s wall clock', () => {
    expect(due('明天下午三点')).toBe('2025-03-13T07:00:00.000Z');
    expect(due('提醒我明天下午3点开会')).toBe('2025-03-13T07:00:00.000Z');
    expect(due('下周一上午10点')).toBe('2025-03-17T02:00:00.000Z');
  });

  it('counts "明天" from the user’s own day, also early in the morning before the UTC date turns', () => {
    // 07:30 on Thursday 2025-03-13 in Shanghai is still Wednesday in UTC.
    const early = new Date('2025-03-12T23:30:00Z');
    expect(due('明天下午三点', timeZone, early)).toBe('2025-03-14T07:00:00.000Z');
    expect(due('今天晚上', timeZone, early)).toBe('2025-03-13T12:00:00.000Z');
    expect(due('后天', timeZone, early)).toBe('2025-03-15T01:00:00.000Z');
    expect(due('tomorrow at 3pm', timeZone, early)).toBe('2025-03-14T07:00:00.000Z');
  });

  it('reads a day backwards when asked, for what the user did (Chinese and English)', () => {
    const back = (text: string): string | undefined => findTimePhrase({ text, reference, timeZone, forwardDate: false })?.date.toISOString();
    expect(back('上周五去了医院')).toBe('2025-03-07T01:00:00.000Z');
    expect(back('went hiking last weekend')).toBe('2025-03-09T01:00:00.000Z');
    // Past periods chrono's Chinese parser does not know; "上周末" is not the coming "周末".
    expect(back('上周末去爬山了')).toBe('2025-03-08T01:00:00.000Z');
    expect(back('上个星期去了北京')).toBe('2025-03-03T01:00:00.000Z');
    expect(back('上上周去了北京')).toBe('2025-02-24T01:00:00.000Z');
    expect(back('上个月去了日本')).toBe('2025-02-01T01:00:00.000Z');
    expect(back('去年去了日本')).toBe('2024-01-01T01:00:00.000Z');
    expect(due('went hiking last weekend')).not.toBe('2025-03-09T01:00:00.000Z');
    // "last night" is the evening before the day it is said, at 02:00 as at 18:00 (chrono's midnight moves with the hour).
    for (const at of ['2025-03-11T18:00:00Z', '2025-03-12T02:00:00Z', '2025-03-12T10:00:00Z']) {
      expect(findTimePhrase({ text: 'I watched a movie last night', reference: new Date(at), timeZone, forwardDate: false })?.date.toISOString()).toBe('2025-03-11T12:00:00.000Z');
    }
  });

  it('gives a day without a time the default hour, 09:00 local', () => {
    expect(due('下周五')).toBe('2025-03-21T01:00:00.000Z');
    expect(due('后天')).toBe('2025-03-14T01:00:00.000Z');
    expect(due('三天后')).toBe('2025-03-15T01:00:00.000Z');
  });

  it('maps parts of the day to hours people mean', () => {
    expect(due('明天早上')).toBe('2025-03-13T01:00:00.000Z');
    expect(due('今天晚上')).toBe('2025-03-12T12:00:00.000Z');
  });

  it('counts minute and hour durations from the reference instant', () => {
    expect(due('半小时后提醒我')).toBe('2025-03-12T02:30:00.000Z');
    expect(due('两个小时后')).toBe('2025-03-12T04:00:00.000Z');
    expect(due('一个半小时以后')).toBe('2025-03-12T03:30:00.000Z');
  });

  it('"周末" said during the weekend: today, later on if nine has passed (it was Saturday nine, gone, or next week on a Sunday)', () => {
    // Saturday 2025-03-15, 10:00 and 16:00 in Shanghai; Sunday 2025-03-16 at 08:00 and at 11:00.
    expect(due('周末去爬山', timeZone, new Date('2025-03-15T02:00:00Z'))).toBe('2025-03-15T03:00:00.000Z');
    expect(due('这个周末去爬山', timeZone, new Date('2025-03-15T08:00:00Z'))).toBe('2025-03-15T09:00:00.000Z');
    expect(due('周末去爬山', timeZone, new Date('2025-03-16T00:00:00Z'))).toBe('2025-03-16T01:00:00.000Z');
    expect(due('周末去爬山', timeZone, new Date('2025-03-16T03:00:00Z'))).toBe('2025-03-16T04:00:00.000Z');
    // On a weekday: the coming Saturday at nine, as before; "月底" on its last day at noon: later that day.
    expect(due('周末去爬山')).toBe('2025-03-15T01:00:00.000Z');
    expect(due('月底交房租', timeZone, new Date('2025-03-31T04:00:00Z'))).toBe('2025-03-31T05:00:00.000Z');
    // English alike: "this weekend" on a Sunday at ten in New York is later that day (it was next Saturday); "next weekend" is next week's.
    const ny = 'America/New_York';
    expect(due('go hiking this weekend', ny, new Date('2025-03-16T14:00:00Z'))).toBe('2025-03-16T15:00:00.000Z');
    expect(due('go hiking this weekend', ny, new Date('2025-03-15T14:00:00Z'))).toBe('2025-03-15T15:00:00.000Z');
    expect(due('go hiking next weekend', ny, new Date('2025-03-16T14:00:00Z'))).toBe('2025-03-22T13:00:00.000Z');
  });

  it('resolves periods chrono does not know to their first day', () => {
    expect(due('我下周要去东京出差')).toBe('2025-03-17T01:00:00.000Z');
    expect(due('下个月')).toBe('2025-04-01T01:00:00.000Z');
    expect(due('明年')).toBe('2026-01-01T01:00:00.000Z');
    expect(due('这周末')).toBe('2025-03-15T01:00:00.000Z');
    // A day of the month in one: that day.
    expect(due('下个月15号提醒我续费会员')).toBe('2025-04-15T01:00:00.000Z');
    expect(due('这个月20号交电费')).toBe('2025-03-20T01:00:00.000Z');
  });

  it('reports the phrase as written', () => {
    expect(findTimePhrase({ text: '提醒我明天下午三点开会', reference, timeZone })).toMatchObject({ text: '明天下午三点', index: 3 });
  });

  it('a part of the day after a day with no hour is part of the phrase ("下周一晚上开会")', () => {
    expect(findTimePhrase({ text: '下周一晚上开会', reference, timeZone })).toMatchObject({ text: '下周一晚上', named: { day: true, time: true } });
    expect(due('下周一晚上开会')).toBe('2025-03-17T12:00:00.000Z');
    // chrono put "周五下午" on the day it was said (a Wednesday): it is Friday's afternoon.
    expect(due('周五下午去医院')).toBe('2025-03-14T07:00:00.000Z');
    expect(due('星期一晚上吃饭')).toBe('2025-03-17T12:00:00.000Z');
    expect(due('周三下午')).toBe('2025-03-12T07:00:00.000Z');
    expect(findTimePhrase({ text: '上周五下午去了医院', reference, timeZone, forwardDate: false })?.date.toISOString()).toBe('2025-03-07T07:00:00.000Z');
    // An hour said keeps chrono's reading.
    expect(due('下周一晚上八点')).toBe('2025-03-17T12:00:00.000Z');
  });

  it('a month with no day is that month: "三月前" is before March, not three months ago', () => {
    // Said on 2025-03-12: the coming May, next February, this month while it lasts.
    expect(findTimePhrase({ text: '我要在五月前续签护照', reference, timeZone })).toMatchObject({ text: '五月', date: new Date('2025-05-01T01:00:00Z'), named: { day: false } });
    expect(due('2月前交材料')).toBe('2026-02-01T01:00:00.000Z');
    expect(due('三月份之前')).toBe('2025-03-01T01:00:00.000Z');
    expect(due('十二月底前')).toBe('2025-12-31T01:00:00.000Z');
    expect(due('六月中旬')).toBe('2025-06-15T01:00:00.000Z');
    expect(due('明年三月')).toBe('2026-03-01T01:00:00.000Z');
    expect(due('2027年5月')).toBe('2027-05-01T01:00:00.000Z');
    expect(findTimePhrase({ text: '我去年十月去了日本', reference, timeZone, forwardDate: false })?.date.toISOString()).toBe('2024-10-01T01:00:00.000Z');
    expect(findTimePhrase({ text: '我十月去了日本', reference, timeZone, forwardDate: false })?.date.toISOString()).toBe('2024-10-01T01:00:00.000Z');
    // A length of time and a day of a month are not a month alone.
    expect(due('三个月前')).toBe('2024-12-12T01:00:00.000Z');
    expect(due('五月五号')).toBe('2025-05-05T01:00:00.000Z');
  });
});

describe('parseDueTime in English', () => {
  it('resolves a day and a time', () => {
    expect(due('remind me to call mom tomorrow at 5pm')).toBe('2025-03-13T09:00:00.000Z');
    expect(due('next Friday at 3pm')).toBe('2025-03-21T07:00:00.000Z');
  });

  it('gives a day without a time 09:00 local', () => {
    expect(due('next Friday')).toBe('2025-03-21T01:00:00.000Z');
    expect(due('tomorrow')).toBe('2025-03-13T01:00:00.000Z');
    expect(due('tomorrow morning')).toBe('2025-03-13T01:00:00.000Z');
  });

  it('counts durations from the reference instant', () => {
    expect(due('in 2 hours')).toBe('2025-03-12T04:00:00.000Z');
  });

  it('defaults to UTC', () => {
    expect(parseDueTime({ text: 'tomorrow at 5pm', reference })?.toISOString()).toBe('2025-03-13T17:00:00.000Z');
  });

  it('takes the offset at the due date across a DST change', () => {
    // Saturday 2025-03-08 10:00 EST; clocks spring forward on Sunday.
    expect(due('tomorrow at 9am', 'America/New_York', new Date('2025-03-08T15:00:00Z'))).toBe('2025-03-09T13:00:00.000Z');
  });

  it('returns undefined without a time phrase', () => {
    expect(due('I love cats')).toBeUndefined();
    expect(due('我喜欢猫')).toBeUndefined();
  });
});

describe('helpers', () => {
  it('defaultRemindAt is one hour before, never before the todo was asked for', () => {
    expect(defaultRemindAt(new Date('2025-03-13T07:00:00Z')).toISOString()).toBe('2025-03-13T06:00:00.000Z');
    expect(defaultRemindAt(new Date('2025-03-13T07:00:00Z'), new Date('2025-03-12T07:00:00Z')).toISOString()).toBe('2025-03-13T06:00:00.000Z');
    // "半小时后提醒我关火", asked at 06:30: at the due time, not at once.
    expect(defaultRemindAt(new Date('2025-03-13T07:00:00Z'), new Date('2025-03-13T06:30:00Z')).toISOString()).toBe('2025-03-13T07:00:00.000Z');
  });

  it('timeZoneOffsetMinutes reads the IANA zone', () => {
    expect(timeZoneOffsetMinutes('Asia/Shanghai', reference)).toBe(480);
    expect(timeZoneOffsetMinutes('UTC', reference)).toBe(0);
    expect(timeZoneOffsetMinutes('America/New_York', new Date('2025-07-01T00:00:00Z'))).toBe(-240);
  });
});

describe('a bare hour on no named day: the next such time, morning or evening', () => {
  // Said at 10:00 in Shanghai.
  it.each([
    ['remind me at 5 to leave for the airport', '2025-03-12T09:00:00.000Z'], // 17:00 today, not 05:00 tomorrow
    ['5点提醒我出发去机场', '2025-03-12T09:00:00.000Z'],
    ['at 11 call Bob', '2025-03-12T03:00:00.000Z'], // 11:00 today is still ahead
    ['at 9 call Bob', '2025-03-12T13:00:00.000Z'], // 09:00 has passed: 21:00
    ['at 5am go running', '2025-03-12T21:00:00.000Z'], // the half of the day said: tomorrow 05:00
    ['早上五点去跑步', '2025-03-12T21:00:00.000Z'],
    ['tomorrow at 5', '2025-03-12T21:00:00.000Z'], // a day named: as chrono reads it
  ])('%s → %s', (text, at) => expect(due(text)).toBe(at));

  it('as said when the caller asks: a series’ hour, a move read against the todo’s time', () => {
    expect(findTimePhrase({ text: 'at 5', reference, timeZone, bareHour: 'as-said' })?.date.toISOString()).toBe('2025-03-12T21:00:00.000Z');
  });

  it('"on the 15th" is the next 15th; the 31st in a short month is its last day', () => {
    expect(due('remind me on the 15th to pay the card')).toBe('2025-03-15T01:00:00.000Z');
    expect(due('on the 5th')).toBe('2025-04-05T01:00:00.000Z');
    expect(due('on the 31st', timeZone, new Date('2025-04-02T02:00:00Z'))).toBe('2025-04-30T01:00:00.000Z');
    expect(due('I finished 5th in the race')).toBeUndefined();
  });
});

describe('a weekday said on that weekday', () => {
  // Friday 2026-11-27, 10:00 in Shanghai.
  const friday = new Date('2026-11-27T02:00:00Z');
  it.each([
    ['Friday at noon', '2026-11-27T04:00:00.000Z'], // today's noon is still ahead
    ['this Friday at 3pm', '2026-11-27T07:00:00.000Z'],
    ['周五下午三点', '2026-11-27T07:00:00.000Z'],
    ['Friday at 9am', '2026-12-04T01:00:00.000Z'], // today's 09:00 has passed
    ['next Friday', '2026-12-04T01:00:00.000Z'],
  ])('%s → %s', (text, at) => expect(due(text, timeZone, friday)).toBe(at));
});

describe('a weekday on the user’s own calendar, where the UTC date is another day', () => {
  const saturdayUtc = '2026-11-28T01:28:00Z'; // Friday 20:28 in New York, 17:28 in Los Angeles; Saturday 09:28 in Shanghai, 02:28 in Berlin
  const thursdayUtc = '2026-11-26T17:00:00Z'; // Friday 01:00 in Shanghai; Thursday 18:00 in Berlin, 12:00 in New York
  const cases: Array<[string, string, string, string]> = [
    // A weekday already past this week, or today's at an hour already past: next week's.
    ['America/New_York', saturdayUtc, 'call mom on Friday at 6pm', '2026-12-04 18:00'],
    ['America/New_York', saturdayUtc, 'remind me to call mom on Friday at 6pm', '2026-12-04 18:00'],
    ['America/New_York', saturdayUtc, '周五下午六点给妈妈打电话', '2026-12-04 18:00'],
    ['America/New_York', saturdayUtc, '周五晚上', '2026-12-04 20:00'],
    ['America/New_York', saturdayUtc, 'Friday', '2026-12-04 09:00'],
    ['America/New_York', saturdayUtc, 'Thursday at 6pm', '2026-12-03 18:00'],
    ['America/New_York', saturdayUtc, 'Saturday at 9am', '2026-11-28 09:00'],
    ['America/New_York', saturdayUtc, '周六上午九点', '2026-11-28 09:00'],
    ['America/Los_Angeles', saturdayUtc, 'Friday at 4pm', '2026-12-04 16:00'],
    ['America/Los_Angeles', saturdayUtc, '周五下午四点', '2026-12-04 16:00'],
    // Today's while its time is ahead.
    ['America/Los_Angeles', saturdayUtc, 'Friday at 7pm', '2026-11-27 19:00'],
    ['America/Los_Angeles', saturdayUtc, '周五晚上七点', '2026-11-27 19:00'],
    ['America/Los_Angeles', saturdayUtc, 'this Friday at 7pm', '2026-11-27 19:00'],
    ['America/Los_Angeles', saturdayUtc, 'next Friday at 4pm', '2026-12-04 16:00'],
    ['Asia/Shanghai', saturdayUtc, 'Friday at 6pm', '2026-12-04 18:00'],
    ['Asia/Shanghai', saturdayUtc, '周五下午六点', '2026-12-04 18:00'],
    ['Asia/Shanghai', saturdayUtc, 'Saturday at 10am', '2026-11-28 10:00'],
    ['Asia/Shanghai', saturdayUtc, '周六上午九点', '2026-12-05 09:00'],
    ['Asia/Shanghai', thursdayUtc, 'Friday at 6pm', '2026-11-27 18:00'],
    ['Asia/Shanghai', thursdayUtc, '周五下午六点', '2026-11-27 18:00'],
    ['Asia/Shanghai', thursdayUtc, 'Thursday at 6pm', '2026-12-03 18:00'],
    ['Asia/Shanghai', thursdayUtc, '周四下午六点', '2026-12-03 18:00'],
    ['Europe/Berlin', saturdayUtc, 'Friday at 6pm', '2026-12-04 18:00'],
    ['Europe/Berlin', saturdayUtc, '周五下午六点', '2026-12-04 18:00'],
    ['Europe/Berlin', saturdayUtc, 'Saturday at 10am', '2026-11-28 10:00'],
    // 18:00 said at 18:00 is no longer ahead.
    ['Europe/Berlin', thursdayUtc, 'Thursday at 6pm', '2026-12-03 18:00'],
    ['Europe/Berlin', thursdayUtc, '周四下午六点', '2026-12-03 18:00'],
    ['Europe/Berlin', thursdayUtc, '周四晚上七点', '2026-11-26 19:00'],
    ['America/New_York', thursdayUtc, 'Thursday at 6pm', '2026-11-26 18:00'],
    ['UTC', saturdayUtc, 'Friday at 6pm', '2026-12-04 18:00'],
    ['UTC', saturdayUtc, '周五下午六点', '2026-12-04 18:00'],
    ['UTC', thursdayUtc, 'Thursday at 6pm', '2026-11-26 18:00'],
  ];
  const wall = (d: Date | undefined, tz: string): string | undefined => d && zonedMinute(d, tz);

  it.each(cases)('%s, said at %s: %s → %s', (tz, said, text, at) => {
    expect(wall(parseDueTime({ text, reference: new Date(said), timeZone: tz }), tz)).toBe(at);
  });

  // chrono reads a weekday on the machine's own calendar in places: the server's zone changes nothing.
  it.each(['Asia/Shanghai', 'America/Los_Angeles'])('the same on a machine in %s', (machine) => {
    const before = process.env.TZ;
    process.env.TZ = machine;
    try {
      const read = cases.map(([tz, said, text]) => wall(parseDueTime({ text, reference: new Date(said), timeZone: tz }), tz));
      expect(read).toEqual(cases.map(([, , , at]) => at));
    } finally {
      process.env.TZ = before;
    }
  });
});

describe('an hour no clock has', () => {
  it.each(['下午25点开会', '明天下午25点开会', '晚上三十点吃饭', 'meeting at 25:00', 'meeting at 25pm'])('"%s" gives no time (not a time read from the part of the day alone)', (text) => {
    expect(due(text)).toBeUndefined();
  });

  it.each([
    ['下午3点开会', '2025-03-12T07:00:00.000Z'],
    ['下午15点开会', '2025-03-12T07:00:00.000Z'],
    ['明天下午25点券到期', '2025-03-13T07:00:00.000Z'],
  ])('"%s" keeps its time (%s)', (text, expected) => {
    expect(due(text)).toBe(expected);
  });
});
