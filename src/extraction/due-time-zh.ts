import { daysIn } from '../domain/recurrence.js';
import { sinceMonday, zonedInstant, zonedTime, type ZonedTime } from '../domain/zoned-time.js';
import type { TimePhrase } from './due-time.js';

/**
 * The Chinese time phrases chrono's Chinese parsers miss or misread, for `findTimePhrase`
 * (due-time.ts): durations ("半小时后"), a month with no day ("三月底"), periods ("周末", "下个月",
 * "上周末"), and Chinese numerals.
 */

type WallClock = Omit<ZonedTime, 'weekday'>;

const CN_DIGITS: Record<string, number> = { 零: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** "3", "十", "十五", "二十", "两" → number. */
export function chineseNumber(s: string): number | undefined {
  if (/^\d+$/.test(s)) return Number(s);
  if (s === '半') return 0.5;
  const tens = s.indexOf('十');
  if (tens < 0) return s.length === 1 ? CN_DIGITS[s] : undefined;
  const high = tens === 0 ? 1 : CN_DIGITS[s.slice(0, tens)];
  const low = tens === s.length - 1 ? 0 : CN_DIGITS[s.slice(tens + 1)];
  return high === undefined || low === undefined ? undefined : high * 10 + low;
}

const DURATION_ZH = /(\d+|[零一二两三四五六七八九十]+|半)\s*个?(半)?\s*(分钟|小时|钟头)(?:之后|以后|后)/;

export function chineseDuration(text: string, reference: Date): TimePhrase | undefined {
  const m = DURATION_ZH.exec(text);
  if (!m) return undefined;
  const n = chineseNumber(m[1] ?? '');
  if (n === undefined) return undefined;
  const minutes = (n + (m[2] ? 0.5 : 0)) * (m[3] === '分钟' ? 1 : 60);
  return { text: m[0], index: m.index, date: new Date(reference.getTime() + minutes * 60_000), named: { day: true, time: true }, fromNow: true };
}

/**
 * A month named without its day: "三月", "3月份", "明年三月", "去年三月", "2027年3月", "十二月底", "五月初", "六月中旬".
 * Not "三个月" (a length of time), "三月五号" (a day, chrono's), "五月天".
 */
const MONTH_ZH = /(今年|明年|后年|去年|前年|(\d{4})年)?(1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])月(?:份)?(底|末|初|中旬|中|上旬|下旬)?(?![\d一二三四五六七八九十两]+\s*[日号])(?!天)/;

export function chineseMonth(text: string, reference: Date, timeZone: string, defaultHour: number, forward: boolean): TimePhrase | undefined {
  const m = MONTH_ZH.exec(text);
  const month = m ? chineseNumber(m[3]!) : undefined;
  if (!m || month === undefined || month < 1 || month > 12) return undefined;
  const today = zonedTime(reference, timeZone);
  const shift: Record<string, number> = { 前年: -2, 去年: -1, 今年: 0, 明年: 1, 后年: 2 };
  const named = m[2] ? Number(m[2]) : m[1] ? today.year + shift[m[1]]! : undefined;
  // No year said: the coming such month (this one while it lasts); for what was done, the last one.
  const year = named ?? (forward ? (month >= today.month ? today.year : today.year + 1) : month <= today.month ? today.year : today.year - 1);
  const part = m[4];
  const day = part === '底' || part === '末' ? daysIn(year, month) : part === '中' || part === '中旬' ? 15 : part === '下旬' ? 21 : 1;
  const date = zonedInstant({ year, month, day, hour: defaultHour, minute: 0 }, timeZone);
  return { text: m[0], index: m.index, date, named: { day: part !== undefined, time: false } };
}

/**
 * Periods chrono's Chinese parser does not know; each resolves to the first day of the period
 * (a weekend to its Saturday). The past ones come first: "上周末" holds "周末", the coming one.
 */
const PERIODS_ZH: ReadonlyArray<readonly [RegExp, (w: ZonedTime, m: RegExpExecArray) => WallClock]> = [
  [/上上个?(?:周|星期|礼拜)(?![一二三四五六日天末])/, (w) => ({ ...w, day: w.day - sinceMonday(w) - 14 })],
  [/(?<!上)上个?(?:周|星期|礼拜)末/, (w) => ({ ...w, day: w.day - sinceMonday(w) - 2 })],
  [/(?<!上)上个?(?:周|星期|礼拜)(?![一二三四五六日天])/, (w) => ({ ...w, day: w.day - sinceMonday(w) - 7 })],
  [/上个?月(?![底初])/, (w) => ({ ...w, month: w.month - 1, day: 1 })],
  [/去年/, (w) => ({ ...w, year: w.year - 1, month: 1, day: 1 })],
  [/前年/, (w) => ({ ...w, year: w.year - 2, month: 1, day: 1 })],
  [/下个?(?:周|星期|礼拜)/, (w) => ({ ...w, day: w.day + (((8 - w.weekday) % 7) || 7) })],
  // The coming Saturday; said on a Sunday, today (it is still the weekend).
  [/(?:这个?|本)?周末/, (w) => ({ ...w, day: w.day + (w.weekday === 0 ? 0 : (6 - w.weekday + 7) % 7) })],
  // "下个月15号", "这个月20号": that day of the month.
  [/(下个?|这个?|本)月(\d{1,2}|[一二三四五六七八九十]{1,3})[日号]/, (w, m) => ({ ...w, month: w.month + (m[1]!.startsWith('下') ? 1 : 0), day: chineseNumber(m[2]!) ?? 1 })],
  [/下个?月/, (w) => ({ ...w, month: w.month + 1, day: 1 })],
  [/月底/, (w) => ({ ...w, month: w.month + 1, day: 0 })],
  [/明年/, (w) => ({ ...w, year: w.year + 1, month: 1, day: 1 })],
  [/年底/, (w) => ({ ...w, month: 12, day: 31 })],
];

export function chinesePeriod(text: string, reference: Date, timeZone: string, defaultHour: number): TimePhrase | undefined {
  for (const [re, shift] of PERIODS_ZH) {
    const m = re.exec(text);
    if (!m) continue;
    const target = shift(zonedTime(reference, timeZone), m);
    // Date.UTC normalises overflowing days and months (day 0 = last day of the previous month).
    const normal = new Date(Date.UTC(target.year, target.month - 1, target.day));
    const date = zonedInstant(
      { year: normal.getUTCFullYear(), month: normal.getUTCMonth() + 1, day: normal.getUTCDate(), hour: defaultHour, minute: 0 },
      timeZone,
    );
    return { text: m[0], index: m.index, date, named: { day: true, time: false } };
  }
  return undefined;
}
