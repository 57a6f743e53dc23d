import type { RecurrenceRule } from '../domain/recurrence.js';
import { chineseNumber } from './due-time.js';

/** A repeat said in words, before it is tied to a time zone. */
export type SaidRecurrence = Omit<RecurrenceRule, 'timeZone'>;

/** A repeat found in a text: the words, and the series they describe. */
export interface RecurrencePhrase {
  text: string;
  rule: SaidRecurrence;
}

const ZH_DAY: Record<string, number> = { 日: 0, 天: 0, 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6 };
const EN_DAY: ReadonlyArray<readonly [RegExp, number]> = [
  [/^sun/i, 0], [/^mon/i, 1], [/^tue/i, 2], [/^wed/i, 3], [/^thu/i, 4], [/^fri/i, 5], [/^sat/i, 6],
];
const EN_NUMBER: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const enNumber = (s: string): number | undefined => (/^\d+$/.test(s) ? Number(s) : EN_NUMBER[s.toLowerCase()]);
const WORKDAYS = [1, 2, 3, 4, 5];
const WEEKEND = [6, 0];

/** 周一、周三和周五 / 周一到周五 → their weekdays. */
function zhWeekdays(list: string): number[] {
  const range = /([一二三四五六日天])\s*(?:到|至|-|~)\s*(?:周|星期|礼拜)?([一二三四五六日天])/.exec(list);
  if (range) {
    const from = ZH_DAY[range[1]!]!;
    const to = ZH_DAY[range[2]!]!;
    const days: number[] = [];
    for (let d = from; days.length < 7; d = (d + 1) % 7) {
      days.push(d);
      if (d === to) break;
    }
    return days;
  }
  return [...new Set([...list.matchAll(/[一二三四五六日天]/g)].map((m) => ZH_DAY[m[0]]!))];
}

/** "Mondays and Thursdays", "Mon, Wed" → their weekdays. */
function enWeekdays(list: string): number[] {
  const words = list.split(/\s*(?:,|&|\band\b)\s*/i).filter(Boolean);
  return [...new Set(words.flatMap((w) => EN_DAY.filter(([re]) => re.test(w.trim())).map(([, d]) => d)))];
}

const EN_WEEKDAY = '(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?';
const EN_WEEKDAY_LIST = `${EN_WEEKDAY}(?:\\s*(?:,|&|\\band\\b)\\s*${EN_WEEKDAY})*`;

/** A day of the month as written ("15", "十五"), when it is one. */
function monthDay(s: string | undefined): number | undefined {
  const n = s === undefined ? undefined : chineseNumber(s);
  return n !== undefined && Number.isInteger(n) && n >= 1 && n <= 31 ? n : undefined;
}

/**
 * What each pattern says; the first that matches wins (the narrower ones come first). "daily",
 * "weekly", "monthly" and the like count only where they end a clause ("take the pills daily"):
 * before a noun they describe a thing ("the quarterly report", "our weekly sync"), not a repeat.
 */
const PATTERNS: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => SaidRecurrence | undefined]> = [
  // Chinese
  [/每隔\s*([一二两三四五六七八九十\d]+)\s*天/, (m) => count(chineseNumber(m[1]!), (n) => ({ every: 'day', interval: n + 1 }))],
  [/隔天|每隔一天/, () => ({ every: 'day', interval: 2 })],
  [/每\s*([两二三四五六七八九十\d]+)\s*天/, (m) => count(chineseNumber(m[1]!), (n) => ({ every: 'day', interval: n }))],
  [/每个?工作日|工作日每天/, () => ({ every: 'week', interval: 1, weekdays: WORKDAYS })],
  [/每个?(?:周|星期|礼拜)末/, () => ({ every: 'week', interval: 1, weekdays: WEEKEND })],
  [/每个?(?:周|星期|礼拜)([一二三四五六日天](?:\s*(?:、|和|,|，|及|与|跟|到|至|-|~)\s*(?:周|星期|礼拜)?[一二三四五六日天])*)/, (m) => ({ every: 'week', interval: 1, weekdays: zhWeekdays(m[1]!) })],
  [/每(?:隔)?\s*([两二三四\d]+)\s*个?(?:周|星期|礼拜)/, (m) => count(chineseNumber(m[1]!), (n) => ({ every: 'week', interval: n }))],
  [/每个?(?:周|星期|礼拜)/, () => ({ every: 'week', interval: 1 })],
  [/每个?月\s*(?:的)?\s*([一二三四五六七八九十\d]+)\s*[号日]/, (m) => ({ every: 'month', interval: 1, ...day(monthDay(m[1])) })],
  [/每个?月初/, () => ({ every: 'month', interval: 1, day: 1 })],
  [/每个?月(?:底|末|最后一天)/, () => ({ every: 'month', interval: 1, day: 31 })],
  [/每(?:隔)?\s*([两二三四五六\d]+)\s*个月/, (m) => count(chineseNumber(m[1]!), (n) => ({ every: 'month', interval: n }))],
  [/每个?月/, () => ({ every: 'month', interval: 1 })],
  [/每年/, () => ({ every: 'year', interval: 1 })],
  [/每(?:天|日|晚|早|个?早上|个?晚上|个?中午|个?下午)|天天/, () => ({ every: 'day', interval: 1 })],
  // English
  [/\bevery\s+other\s+day\b/i, () => ({ every: 'day', interval: 2 })],
  [/\bevery\s+(\d+|two|three|four|five|six|seven|eight|nine|ten)\s+days\b/i, (m) => count(enNumber(m[1]!), (n) => ({ every: 'day', interval: n }))],
  [/\b(?:every\s+weekday|on\s+weekdays|every\s+work\s*day|each\s+weekday)\b/i, () => ({ every: 'week', interval: 1, weekdays: WORKDAYS })],
  [/\b(?:every\s+weekend|on\s+weekends|each\s+weekend)\b/i, () => ({ every: 'week', interval: 1, weekdays: WEEKEND })],
  [new RegExp(`\\b(?:every|each)\\s+(${EN_WEEKDAY_LIST})\\b`, 'i'), (m) => weekly(enWeekdays(m[1]!))],
  [new RegExp(`\\bon\\s+((?:mon|tues|wednes|thurs|fri|satur|sun)days(?:\\s*(?:,|&|\\band\\b)\\s*(?:mon|tues|wednes|thurs|fri|satur|sun)days)*)\\b`, 'i'), (m) => weekly(enWeekdays(m[1]!))],
  [/\bevery\s+other\s+week\b|\b(?:biweekly|fortnightly)(?=\s*(?:[.!,;]|$))/i, () => ({ every: 'week', interval: 2 })],
  [/\bevery\s+(\d+|two|three|four)\s+weeks\b/i, (m) => count(enNumber(m[1]!), (n) => ({ every: 'week', interval: n }))],
  [/\b(?:every|each)\s+week\b|\bweekly(?=\s*(?:[.!,;]|$))/i, () => ({ every: 'week', interval: 1 })],
  [/\b(?:on\s+)?the\s+(\d{1,2})(?:st|nd|rd|th)\s+(?:of\s+)?(?:every|each)\s+month\b/i, (m) => ({ every: 'month', interval: 1, ...day(monthDay(m[1])) })],
  [/\b(?:every|each)\s+month\s+on\s+the\s+(\d{1,2})(?:st|nd|rd|th)?\b/i, (m) => ({ every: 'month', interval: 1, ...day(monthDay(m[1])) })],
  [/\b(?:on\s+)?the\s+last\s+day\s+of\s+(?:every|each|the)\s+month\b/i, () => ({ every: 'month', interval: 1, day: 31 })],
  [/\bevery\s+(\d+|two|three|four|six)\s+months\b|\bquarterly(?=\s*(?:[.!,;]|$))/i, (m) => count(m[1] ? enNumber(m[1]) : 3, (n) => ({ every: 'month', interval: n }))],
  [/\b(?:every|each)\s+month\b|\bmonthly(?=\s*(?:[.!,;]|$))/i, () => ({ every: 'month', interval: 1 })],
  [/\b(?:every|each)\s+year\b|\b(?:annually|yearly)(?=\s*(?:[.!,;]|$))/i, () => ({ every: 'year', interval: 1 })],
  [/\b(?:every|each)\s+(?:day|morning|evening|night|afternoon)\b|\b(?:daily|nightly)(?=\s*(?:[.!,;]|$))/i, () => ({ every: 'day', interval: 1 })],
];

function count(n: number | undefined, rule: (n: number) => SaidRecurrence): SaidRecurrence | undefined {
  return n !== undefined && Number.isInteger(n) && n >= 1 && n <= 366 ? rule(n) : undefined;
}

function day(d: number | undefined): { day?: number } {
  return d === undefined ? {} : { day: d };
}

function weekly(days: number[]): SaidRecurrence | undefined {
  return days.length > 0 ? { every: 'week', interval: 1, weekdays: days } : undefined;
}

/**
 * The repeat a todo's words ask for ("每天早上八点", "每周一和周四", "每月15号", "every other day",
 * "every Monday", "on the 1st of every month"); undefined for a one-off. Hours and minutes are
 * not series here ("每小时" is not read).
 */
export function findRecurrence(text: string): RecurrencePhrase | undefined {
  for (const [re, read] of PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    const rule = read(m);
    if (rule) return { text: m[0], rule };
  }
  return undefined;
}
