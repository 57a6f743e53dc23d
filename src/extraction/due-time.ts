import { recentResults } from '../util/recent-results.js';
import * as chrono from 'chrono-node';
import { hasHan } from '../text/language.js';
import { zonedInstant, zonedTime, type ZonedTime } from '../domain/zoned-time.js';
import { daysIn } from '../domain/recurrence.js';
import { chineseDuration, chineseMonth, chineseNumber, chinesePeriod } from './due-time-zh.js';

export { chineseNumber } from './due-time-zh.js';

/** A time phrase found in a text and the instant it resolves to. */
export interface TimePhrase {
  /** The phrase as written ("明天下午三点", "tomorrow at 5pm"). */
  text: string;
  /** Where the phrase starts in the text. */
  index: number;
  date: Date;
  /**
   * What the phrase itself says: a day ("明天", "下周五", "Saturday") and a time of day ("下午四点",
   * "at 10am", "晚上"). The rest of `date` is filled in (the default hour, the coming day).
   */
  named: { day: boolean; time: boolean };
  /** Minutes or hours from the moment said ("半小时后", "in 2 hours"): the time asked for is the reminder's own. */
  fromNow?: boolean;
}

export interface ParseDueTimeOptions {
  /** Text holding a time phrase; only the first phrase counts. */
  text: string;
  /** When the text was said: relative phrases ("明天", "next Friday") count from here. */
  reference: Date;
  /**
   * The user's IANA time zone; "明天下午三点" means 15:00 on the user's wall clock.
   * @default 'UTC'
   */
  timeZone?: string;
  /**
   * Local hour used when the phrase names a day but no time of day ("下周五", "tomorrow").
   * @default 9
   */
  defaultHour?: number;
  /**
   * Whether a day named without a direction lies ahead ("Friday" is the coming one, as a due time
   * is). False for what the user says they did: "last weekend" said on a Thursday was read ahead,
   * as the coming one. @default true
   */
  forwardDate?: boolean;
  /**
   * A bare hour on no named day ("at 5", "5点"): 'next', the next such time from `reference`,
   * morning or evening ("at 5" said at ten in the morning is 17:00 today); 'as-said', the hour
   * itself (a series' "every morning at 8", a move read against the todo's own time). @default 'next'
   */
  bareHour?: 'next' | 'as-said';
}

const DEFAULT_HOUR = 9;
/** A weekday said with its week ("next Friday", "last Monday", "下周五", "上个星期一"): chrono's reading stands. "this Friday", "这周五" are the coming one. */
const RELATIVE_WEEKDAY = /\b(?:next|last|past)\b|[上下]个?(?:周|星期|礼拜)/iu;
const DURATION_EN = /\b(?:minutes?|mins?|hours?|hrs?)\b/i;

/**
 * Parts of the day chrono leaves uncertain ("明天早上", "tomorrow evening"): chrono would pick 06:00
 * or 22:00, which make poor due times, so they get hours people actually mean.
 */
const PART_OF_DAY: ReadonlyArray<readonly [RegExp, number]> = [
  [/早上|早晨|清晨|明早|上午|morning/i, 9],
  [/中午|noon|midday/i, 12],
  [/下午|afternoon/i, 15],
  [/傍晚|evening/i, 18],
  [/晚上|今晚|明晚|每晚|夜里|tonight|night/i, 20],
];

/** The hour a part of the day in `text` means ("每晚" 20, "every morning" 9); undefined when it names none. */
export function partOfDayHour(text: string): number | undefined {
  return PART_OF_DAY.find(([re]) => re.test(text))?.[1];
}

/** Resolves the first time phrase in `text` to an instant; undefined when there is none. */
export function parseDueTime(options: ParseDueTimeOptions): Date | undefined {
  return findTimePhrase(options)?.date;
}

/**
 * The reminder for a due time fires one hour before it (seed 000: remind_at = due_at - 1h), but
 * never before the todo was asked for, nor at that moment: "半小时后提醒我关火" and "remind me in 20 minutes" fire at
 * the due time, not at once.
 */
export function defaultRemindAt(dueAt: Date, askedAt?: Date): Date {
  const lead = new Date(dueAt.getTime() - 60 * 60 * 1000);
  return askedAt && lead.getTime() <= askedAt.getTime() ? dueAt : lead;
}

/** An o'clock hour right at the start of the text that no clock has ("25点", "三十点"); "24点" is midnight. Not "25点券" (coupons). */
const CLOCK_HOUR_ZH = /^\s*(\d{1,3}|[零一二两三四五六七八九十]{1,4})\s*(?:点|點|时|時)(?!券|数|數|积分|積分)/u;
const impossibleHour = (text: string): boolean => {
  const m = CLOCK_HOUR_ZH.exec(text);
  const hour = m ? chineseNumber(m[1]!) : undefined;
  return hour !== undefined && hour > 24;
};

/** Like parseDueTime, but also says which words were the time phrase (for todo.dueText). */
export function findTimePhrase(options: ParseDueTimeOptions): TimePhrase | undefined {
  const { text, reference } = options;
  const timeZone = options.timeZone ?? 'UTC';
  const defaultHour = options.defaultHour ?? DEFAULT_HOUR;
  const zh = hasHan(text);
  if (zh) {
    // chrono's Chinese duration parser ignores the reference time zone ("半小时后" lands a day off).
    const duration = chineseDuration(text, reference);
    if (duration) return duration;
    // A month with no day ("三月前", "明年3月份", "十二月底"): chrono reads "三月前" as three months
    // ago and puts "三月" on today's day of the month.
    const month = chineseMonth(text, reference, timeZone, defaultHour, options.forwardDate ?? true);
    if (month) return month;
  }
  const offset = timeZoneOffsetMinutes(timeZone, reference);
  const ref = { instant: reference, timezone: offset };
  // chrono's Chinese parsers read "明天" on the UTC calendar whatever the reference's zone: at 07:30
  // in Shanghai (23:30 UTC the day before) "明天" was today. Given the wall clock as a UTC instant,
  // they count from the user's own day; the components are mapped back to the zone below.
  const wallRef = { instant: new Date(reference.getTime() + offset * 60_000), timezone: 0 };
  const parsers = zh ? [chrono.zh.hans, chrono.zh.hant, chrono.casual] : [chrono.casual];
  for (const parser of parsers) {
    const result = parser.parse(text, parser === chrono.casual ? ref : wallRef, { forwardDate: options.forwardDate ?? true })[0];
    if (!result) continue;
    const { start } = result;
    // "下周一晚上开会": chrono's Chinese parsers stop before a part of the day that follows a day with no hour.
    const part = zh && !start.isCertain('hour') ? /^(?:早上|早晨|上午|中午|下午|傍晚|晚上|夜里)/u.exec(text.slice(result.index + result.text.length)) : null;
    // "下下周一": chrono reads the "下周一" in it; the day is a week further.
    const further = zh && /下$/u.test(text.slice(0, result.index)) && /^下个?(?:周|星期|礼拜)/u.test(result.text);
    const phraseText = `${further ? '下' : ''}${part ? result.text + part[0] : result.text}`;
    // "下午25点开会": chrono stops before an hour no clock has and reads "下午" alone (15:00). The
    // words named a time that is none: no time is read from them, rather than one they did not say.
    if (zh && impossibleHour(text.slice(result.index + result.text.length + (part?.[0].length ?? 0)))) return undefined;
    // Read against the wall clock, an instant comes out ahead by the zone's offset.
    let date = parser === chrono.casual ? start.date() : new Date(start.date().getTime() - offset * 60_000);
    const duration = DURATION_EN.test(phraseText);
    const named = {
      day: duration || start.isCertain('day') || start.isCertain('weekday'),
      time: duration || start.isCertain('hour') || PART_OF_DAY.some(([re]) => re.test(phraseText)),
    };
    // chrono applies the reference's UTC offset to every date; rebuilding from the wall-clock
    // components takes the offset at the target date, so "tomorrow 9am" survives a DST change.
    // Hour and minute durations ("in 2 hours") are exact instants already.
    const meridiem = start.isCertain('meridiem') || PART_OF_DAY.some(([re]) => re.test(phraseText));
    if (!duration) {
      const certain = start.isCertain('hour');
      const hour = certain ? (start.get('hour') ?? defaultHour) : (PART_OF_DAY.find(([re]) => re.test(phraseText))?.[1] ?? defaultHour);
      const minute = certain ? (start.get('minute') ?? 0) : 0;
      // chrono puts "last night" at a midnight, today's or yesterday's by the hour it is said; the
      // evening it means is always the one before the day it is said.
      const eve = !certain && /\blast night\b/i.test(phraseText) ? wallClock(reference, timeZone) : undefined;
      const on = eve ? { year: eve.year, month: eve.month, day: eve.day - 1 } : { year: start.get('year') ?? 0, month: start.get('month') ?? 1, day: start.get('day') ?? 1 };
      // chrono's Chinese parsers put "周五下午" on the reference's own day, the weekday kept beside it: the day is moved to it.
      const weekday = start.get('weekday');
      if (parser !== chrono.casual && start.isCertain('weekday') && weekday !== null) {
        const actual = new Date(Date.UTC(on.year, on.month - 1, on.day)).getUTCDay();
        if (actual !== weekday) on.day += (options.forwardDate ?? true) ? (weekday - actual + 7) % 7 : -((actual - weekday + 7) % 7);
      }
      if (further) on.day += 7;
      date = zonedInstant({ ...on, hour, minute }, timeZone);
      // A weekday said alone ("Friday at 6pm", "周五晚上") is the coming one on the user's wall clock:
      // today's while its time is ahead ("Friday at noon" on a Friday morning), else next week's.
      // chrono takes the nearest such day, yesterday's or today's at an hour gone by, and weighs
      // its forward date on a clock off by the zone's (or the machine's) offset: "Friday at 6pm"
      // said at 20:28 on a Friday in New York was due two hours before.
      // (A day chrono's Chinese parsers are certain of came with the weekday from today: "周五晚上".)
      if ((options.forwardDate ?? true) && weekday !== null && start.isCertain('weekday') && (parser !== chrono.casual || !start.isCertain('day')) && !RELATIVE_WEEKDAY.test(phraseText)) {
        date = comingWeekday(weekday, { hour, minute }, named.time, reference, timeZone);
      }
      // "this weekend" said on a Sunday is today (still the weekend); chrono takes next Saturday.
      if ((options.forwardDate ?? true) && /\bweekend\b/i.test(phraseText) && !/\b(?:next|last|past)\b/i.test(phraseText)) {
        const today = wallClock(reference, timeZone);
        if (today.weekday === 0) date = zonedInstant({ year: today.year, month: today.month, day: today.day, hour, minute }, timeZone);
      }
      // A day with no time that is today, said after its default hour ("周五还信用卡" on a Friday at
      // ten, "今天要交房租" at noon): due in an hour, not at nine this morning, gone before it was set.
      if (!named.time && (options.forwardDate ?? true) && date.getTime() <= reference.getTime() && sameDay(date, reference, timeZone)) date = laterToday(reference);
      // "remind me at 5" said at ten in the morning is five this afternoon, not five tomorrow morning.
      if (certain && !meridiem && !named.day && hour >= 1 && hour <= 11 && (options.forwardDate ?? true) && options.bareHour !== 'as-said') date = nextOnTheClock(hour, minute, reference, timeZone);
    }
    return { text: phraseText, index: result.index - (further ? 1 : 0), date, named, ...(duration ? { fromNow: true } : {}) };
  }
  if (!zh) return (options.forwardDate ?? true) ? dayOfMonth(text, reference, timeZone, defaultHour) : undefined;
  const period = chinesePeriod(text, reference, timeZone, defaultHour);
  // "周末去爬山" said on a Saturday at ten, "月底交房租" on the last day at noon: later today, not at nine this morning.
  if (period && (options.forwardDate ?? true) && period.date.getTime() <= reference.getTime() && sameDay(period.date, reference, timeZone)) return { ...period, date: laterToday(reference) };
  return period;
}

/** "on the 15th" (chrono reads no day of the month alone): the next 15th, this month's or the next. */
const DAY_OF_MONTH_EN = /\b(?:on )?the (\d{1,2})(?:st|nd|rd|th)\b(?! (?:of|century|floor|time|anniversary|birthday|grade|place))/i;

function dayOfMonth(text: string, reference: Date, timeZone: string, defaultHour: number): TimePhrase | undefined {
  const m = DAY_OF_MONTH_EN.exec(text);
  const day = m ? Number(m[1]) : 0;
  if (!m || day < 1 || day > 31) return undefined;
  const today = wallClock(reference, timeZone);
  for (let ahead = 0; ahead <= 2; ahead++) {
    const month = new Date(Date.UTC(today.year, today.month - 1 + ahead, 1));
    const date = zonedInstant({ year: month.getUTCFullYear(), month: month.getUTCMonth() + 1, day: Math.min(day, daysIn(month.getUTCFullYear(), month.getUTCMonth() + 1)), hour: defaultHour, minute: 0 }, timeZone);
    if (date.getTime() > reference.getTime()) return { text: m[0], index: m.index, date, named: { day: true, time: false } };
  }
  return undefined;
}

/** A wake-up ("七点叫我起床", "wake me up at 6:30"): its bare hour is the morning's, as said. */
export const wakesUp = (text: string): boolean => /起床|起来|叫醒|\bwake (?:me )?up\b|\bwake me\b/i.test(text);

/**
 * A weekday said with no time on that very weekday is today's until noon ("周五还信用卡" on a Friday at
 * ten: later today), next week's after it ("until Friday" said on a Friday afternoon).
 */
const SAME_WEEKDAY_UNTIL = { hour: 12, minute: 0 };

/**
 * The coming `weekday` at hour:minute on the wall clock of `timeZone`: today's while that time
 * (with no time said, noon) is ahead of `after`, else next week's.
 */
function comingWeekday(weekday: number, at: { hour: number; minute: number }, timed: boolean, after: Date, timeZone: string): Date {
  const today = wallClock(after, timeZone);
  const day = today.day + ((weekday - today.weekday + 7) % 7);
  const { year, month } = today;
  const passed = zonedInstant({ year, month, day, ...(timed ? at : SAME_WEEKDAY_UNTIL) }, timeZone).getTime() <= after.getTime();
  return zonedInstant({ year, month, day: passed ? day + 7 : day, ...at }, timeZone);
}

/** Whether two instants fall on the same calendar day in the zone. */
function sameDay(a: Date, b: Date, timeZone: string): boolean {
  const x = wallClock(a, timeZone);
  const y = wallClock(b, timeZone);
  return x.year === y.year && x.month === y.month && x.day === y.day;
}

/** An hour from `at`, rounded up to the quarter hour: when a todo for today named no time and its default hour has passed. */
function laterToday(at: Date): Date {
  const quarter = 15 * 60_000;
  return new Date(Math.ceil((at.getTime() + 3_600_000) / quarter) * quarter);
}

/** The first of hour:minute and (hour + 12):minute on the wall clock that is still ahead of `after`. */
function nextOnTheClock(hour: number, minute: number, after: Date, timeZone: string): Date {
  const today = wallClock(after, timeZone);
  for (let d = 0; d <= 1; d++) {
    for (const h of [hour, hour + 12]) {
      const at = zonedInstant({ year: today.year, month: today.month, day: today.day + d, hour: h, minute }, timeZone);
      if (at.getTime() > after.getTime()) return at;
    }
  }
  return zonedInstant({ year: today.year, month: today.month, day: today.day + 1, hour, minute }, timeZone);
}

/** Minutes the zone is ahead of UTC at that instant (Asia/Shanghai: 480), DST included. */
export function timeZoneOffsetMinutes(timeZone: string, at: Date): number {
  const minute = Math.floor(at.getTime() / 60_000) * 60_000;
  // Intl's formatToParts is the cost; a context build asks for the offset at `now` a dozen times.
  return offsets(`${timeZone}\u0000${minute}`, () => {
    const w = wallClock(at, timeZone);
    return Math.round((Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - minute) / 60_000);
  });
}
const offsets = recentResults<number>(64);

/** The wall clock of `timeZone` at `at`. */
const wallClock = (at: Date, timeZone: string): ZonedTime => zonedTime(at, timeZone);
