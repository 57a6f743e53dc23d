import { z } from 'zod';
import { InvalidInputError } from '../errors.js';
import { zonedInstant, zonedTime } from './zoned-time.js';

/** The units a todo repeats in. Hours and minutes are not offered: a reminder every hour is a timer, not a memory. */
export const RECURRENCE_UNITS = ['day', 'week', 'month', 'year'] as const;
export type RecurrenceUnit = (typeof RECURRENCE_UNITS)[number];

const validZone = (timeZone: string): boolean => {
  try {
    zonedTime(new Date(0), timeZone);
    return true;
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
};

const ruleFields = {
  every: z.enum(RECURRENCE_UNITS),
  /** Every `interval` units: 2 with 'week' is every other week. @default 1 */
  interval: z.number().int().min(1).max(366).default(1),
  /** The days of the week (0 = Sunday) of a weekly series; absent: the weekday of its first time. Only with interval 1. */
  weekdays: z.array(z.number().int().min(0).max(6)).min(1).max(7).optional(),
  /** The day of the month of a monthly or yearly series (31: the month's last day; a yearly one on February 29 falls on February 28 in common years, and keeps its month); absent: the day of its first time. */
  day: z.number().int().min(1).max(31).optional(),
  /** The last day an occurrence may fall on, YYYY-MM-DD on the series' wall clock ("到周五为止", "until Friday"); absent: it goes on. Not before the first (assertEndsAfterStart). */
  until: z.iso.date().optional(),
};
const ZoneName = z.string().min(1).refine(validZone, 'an IANA time zone, e.g. Asia/Shanghai');
type RuleShape = { every: RecurrenceUnit; interval: number; weekdays?: number[] | undefined; day?: number | undefined; until?: string | undefined };
const consistent = <T extends z.ZodType<RuleShape>>(schema: T) =>
  schema
    .refine((r) => r.weekdays === undefined || (r.every === 'week' && r.interval === 1), { message: 'weekdays are for a weekly series with interval 1', path: ['weekdays'] })
    .refine((r) => r.day === undefined || r.every === 'month' || r.every === 'year', { message: 'day is for a monthly or yearly series', path: ['day'] });

/**
 * How a todo repeats ("每天早上八点提醒我吃药", "every Monday at 9"): its due time moves to the
 * next occurrence when a reminder went out or the occurrence was done. Occurrences keep the
 * wall-clock time of the zone the series was asked in, so 08:00 stays 08:00 across DST.
 */
export const RecurrenceRule = consistent(z.object({ ...ruleFields, /** The IANA zone whose wall clock the occurrences keep. */ timeZone: ZoneName }).strict());

/** A repeat as a caller gives it: the zone defaults to the user's. */
export const RepeatInput = consistent(z.object({ ...ruleFields, timeZone: ZoneName.optional() }).strict());
export type RepeatInput = z.input<typeof RepeatInput>;
export type RecurrenceRule = z.infer<typeof RecurrenceRule>;

/** A wall-clock date and time (the month and day may overflow until normalised). */
interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** Days in a month (1-based). */
export const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The wall date with its overflowing day or month carried, and its weekday. */
function normal(w: Wall): Wall & { weekday: number } {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: w.hour, minute: w.minute, weekday: d.getUTCDay() };
}

/** The month `by` months from the wall date's, on `day` or the month's last day when shorter. */
function monthsFrom(w: Wall, by: number, day: number): Wall {
  const first = normal({ ...w, month: w.month + by, day: 1 });
  return { ...first, day: Math.min(day, daysIn(first.year, first.month)) };
}

/** The occurrence one step after (direction 1) or before (−1) the one on wall date `w`. */
function step(rule: RecurrenceRule, w: Wall & { weekday: number }, direction: 1 | -1): Wall & { weekday: number } {
  const n = rule.interval * direction;
  switch (rule.every) {
    case 'day':
      return normal({ ...w, day: w.day + n });
    case 'week': {
      if (!rule.weekdays) return normal({ ...w, day: w.day + 7 * n });
      for (let d = 1; d <= 7; d++) {
        const weekday = (((w.weekday + d * direction) % 7) + 7) % 7;
        if (rule.weekdays.includes(weekday)) return normal({ ...w, day: w.day + d * direction });
      }
      return normal({ ...w, day: w.day + 7 * direction });
    }
    case 'month':
      return normal(monthsFrom(w, n, rule.day ?? w.day));
    case 'year':
      return normal(monthsFrom(w, 12 * n, rule.day ?? w.day));
  }
}

/** Steps at most this many occurrences (a daily series over 27 years): past it the series is taken to have ended. */
const MAX_STEPS = 10_000;

/**
 * The first occurrence after `current` that lies after `after`: the due time a series moves to
 * when the occurrence at `current` is over. Occurrences missed meanwhile (the scheduler was down)
 * are skipped, not reminded one by one. Undefined past the series' last day (`until`), or past
 * MAX_STEPS.
 */
export function nextOccurrence(rule: RecurrenceRule, current: Date, after: Date): Date | undefined {
  let w = zonedTime(current, rule.timeZone);
  for (let i = 0; i < MAX_STEPS; i++) {
    w = step(rule, w, 1);
    // Past its last day the series has ended.
    if (rule.until !== undefined && wallDate(w) > rule.until) return undefined;
    const at = zonedInstant(w, rule.timeZone);
    if (at.getTime() > after.getTime() && at.getTime() > current.getTime()) return at;
  }
  return undefined;
}

/** YYYY-MM-DD of a wall date (its order is the dates' order). */
export const wallDate = (w: { year: number; month: number; day: number }): string => `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;

/**
 * Refuses a series whose last day (`until`) is before the day of its first occurrence, on the
 * series' wall clock: a todo due tomorrow in a series that ended in 2020. `field` names what the
 * caller gave that made it so (the repeat, or a move of its time). Its first day as last is fine.
 */
export function assertEndsAfterStart(rule: RecurrenceRule, first: Date, field = 'repeat.until'): void {
  const starts = wallDate(zonedTime(first, rule.timeZone));
  if (rule.until === undefined || rule.until >= starts) return;
  const time = field === 'repeat.until' ? "the series' first time" : 'the new time';
  throw new InvalidInputError(`repeat.until (${rule.until}) is before ${time} (${starts}): a series cannot end before it starts`, {
    details: { field, until: rule.until, firstDay: starts },
  });
}

/** The occurrence before the one at `current`. */
export function previousOccurrence(rule: RecurrenceRule, current: Date): Date {
  return zonedInstant(step(rule, zonedTime(current, rule.timeZone), -1), rule.timeZone);
}

/**
 * The series' first occurrence after `after`, at `hour:minute` on its wall clock: today's or the
 * next day the rule falls on (its weekdays; its day of the month; `on`'s month and day for a
 * yearly one). The interval counts from there.
 */
export function firstOccurrence(rule: RecurrenceRule, at: { hour: number; minute: number; on?: { month: number; day: number } }, after: Date): Date {
  const today = zonedTime(after, rule.timeZone);
  const start: Wall = { year: today.year, month: today.month, day: today.day, hour: at.hour, minute: at.minute };
  const later = (w: Wall): boolean => zonedInstant(w, rule.timeZone).getTime() > after.getTime();
  for (let d = 0; d <= 366 * 4; d++) {
    const w = normal({ ...start, day: start.day + d });
    if (rule.every === 'week' && rule.weekdays && !rule.weekdays.includes(w.weekday)) continue;
    if (rule.every === 'month' && w.day !== Math.min(rule.day ?? today.day, daysIn(w.year, w.month))) continue;
    if (rule.every === 'year') {
      const on = at.on ?? { month: today.month, day: rule.day ?? today.day };
      if (w.month !== on.month || w.day !== Math.min(rule.day ?? on.day, daysIn(w.year, w.month))) continue;
    }
    if (later(w)) return zonedInstant(w, rule.timeZone);
  }
  // Unreachable for a valid rule (every rule falls on some day within four years).
  return zonedInstant(normal({ ...start, day: start.day + 1 }), rule.timeZone);
}

const ZH_WEEKDAYS = ['日', '一', '二', '三', '四', '五', '六'];
const EN_WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const WORKDAYS = [1, 2, 3, 4, 5];
const sameDays = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && b.every((x) => a.includes(x));
const ordinal = (n: number): string => `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

/** How the series reads to the user: "每天", "每周一、三", "every 2 weeks", "every month on the 15th", "每天，到12月4日", "every day until Dec 4". */
export function describeRecurrence(rule: RecurrenceRule, language: 'zh' | 'en'): string {
  const repeats = describeRule(rule, language);
  if (rule.until === undefined) return repeats;
  const [, month, day] = rule.until.split('-').map(Number);
  return language === 'zh' ? `${repeats}，到${month}月${day}日` : `${repeats} until ${EN_MONTHS[month! - 1]} ${day}`;
}

const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The repeat alone, without its end. */
function describeRule(rule: RecurrenceRule, language: 'zh' | 'en'): string {
  const n = rule.interval;
  const days = rule.weekdays ? [...rule.weekdays].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7)) : undefined;
  if (language === 'zh') {
    switch (rule.every) {
      case 'day':
        return n === 1 ? '每天' : `每${n}天`;
      case 'week':
        if (days && sameDays(days, WORKDAYS)) return '每个工作日';
        if (days && sameDays(days, [6, 0])) return '每个周末';
        if (days) return `每周${days.map((d) => ZH_WEEKDAYS[d]).join('、')}`;
        return n === 1 ? '每周' : `每${n}周`;
      case 'month':
        return `${n === 1 ? '每月' : `每${n}个月`}${rule.day ? (rule.day === 31 ? '最后一天' : `${rule.day}日`) : ''}`;
      case 'year':
        return n === 1 ? '每年' : `每${n}年`;
    }
  }
  switch (rule.every) {
    case 'day':
      return n === 1 ? 'every day' : `every ${n} days`;
    case 'week':
      if (days && sameDays(days, WORKDAYS)) return 'every weekday';
      if (days && sameDays(days, [6, 0])) return 'every weekend';
      if (days) return `every ${days.map((d) => EN_WEEKDAYS[d]).join(', ')}`;
      return n === 1 ? 'every week' : `every ${n} weeks`;
    case 'month':
      return `${n === 1 ? 'every month' : `every ${n} months`}${rule.day ? (rule.day === 31 ? ' on its last day' : ` on the ${ordinal(rule.day)}`) : ''}`;
    case 'year':
      return n === 1 ? 'every year' : `every ${n} years`;
  }
}
