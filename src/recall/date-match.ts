import { timeZoneOffsetMinutes } from '../extraction/due-time.js';
import { recentResults } from '../util/recent-results.js';
import { readTimeIntent } from './time-intent.js';

/** A span of absolute time a question names: [from, to). */
export interface DateWindow {
  from: Date;
  to: Date;
}

const DAY = 86_400_000;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.join('|')}|${MONTHS.map((m) => m.slice(0, 3)).join('|')})\\.?`;
const monthIndex = (name: string): number => MONTHS.findIndex((m) => m.startsWith(name.toLowerCase().slice(0, 3)));

interface DatePattern {
  re: RegExp;
  /** Year, month (0-based) and day of the match; day undefined = the whole month, month undefined = the whole year. */
  read: (m: RegExpExecArray) => { year?: number; month?: number; day?: number };
}

// Most specific first: a span a longer pattern took is not read again by a shorter one.
const PATTERNS: DatePattern[] = [
  { re: /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]/gu, read: (m) => ({ year: +m[1]!, month: +m[2]! - 1, day: +m[3]! }) },
  { re: new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'giu'), read: (m) => ({ year: +m[3]!, month: monthIndex(m[1]!), day: +m[2]! }) },
  { re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})\\b`, 'giu'), read: (m) => ({ year: +m[3]!, month: monthIndex(m[2]!), day: +m[1]! }) },
  { re: /\b(\d{4})-(\d{2})-(\d{2})\b/gu, read: (m) => ({ year: +m[1]!, month: +m[2]! - 1, day: +m[3]! }) },
  { re: /(\d{4})\s*年\s*(\d{1,2})\s*月/gu, read: (m) => ({ year: +m[1]!, month: +m[2]! - 1 }) },
  { re: new RegExp(`\\b${MONTH},?\\s+(\\d{4})\\b`, 'giu'), read: (m) => ({ year: +m[2]!, month: monthIndex(m[1]!) }) },
  { re: /(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]/gu, read: (m) => ({ month: +m[1]! - 1, day: +m[2]! }) },
  { re: new RegExp(`\\b(?:in|during|since|of|early|late|mid)[\\s-]+${MONTH}(?![\\w])`, 'giu'), read: (m) => ({ month: monthIndex(m[1]!) }) },
  { re: /(?<![\d年])(\d{1,2})\s*月(?:份)?(?!\s*\d)/gu, read: (m) => ({ month: +m[1]! - 1 }) },
  { re: /\b(?:in|during|since|of)\s+((?:19|20)\d{2})\b/giu, read: (m) => ({ year: +m[1]! }) },
  { re: /((?:19|20)\d{2})\s*年(?!\s*\d)/gu, read: (m) => ({ year: +m[1]! }) },
];

/**
 * The spans of time a question names, in English or Chinese: explicit dates ("October 13, 2023",
 * "2023年10月13日"), months ("in June", "May 2023", "6月"), years ("in 2023", "2023年"), and the
 * relative references `readTimeIntent` knows ("yesterday", "上周"), all in the user's time zone.
 * A month or a day without a year is the latest one not after `now`.
 */
export function readDateWindows(question: string, now: Date, timeZone = 'UTC'): readonly DateWindow[] {
  return windowsRead(`${timeZone}\u0000${Math.floor(now.getTime() / 60_000)}\u0000${question}`, () => Object.freeze(readWindows(question, now, timeZone).map((w) => Object.freeze(w))));
}
/**
 * Ranking memories and messages for one query reads its windows several times. They depend on
 * `now` only through its minute (every bound is a local midnight, a whole minute): the key.
 */
const windowsRead = recentResults<readonly DateWindow[]>(32);

function readWindows(question: string, now: Date, timeZone: string): DateWindow[] {
  const offset = timeZoneOffsetMinutes(timeZone, now) * 60_000;
  const local = new Date(now.getTime() + offset);
  const at = (y: number, mo: number, d: number): number => Date.UTC(y, mo, d) - offset;
  const windows: DateWindow[] = [];
  let rest = question.normalize('NFKC');
  for (const { re, read } of PATTERNS) {
    rest = rest.replace(re, (...args: unknown[]) => {
      const m = args.slice(0, -2) as unknown as RegExpExecArray;
      const { year, month, day } = read(m);
      if (month !== undefined && (month < 0 || month > 11)) return m[0];
      if (day !== undefined && (day < 1 || day > 31)) return m[0];
      let y = year ?? local.getUTCFullYear();
      // No year given: the latest such month or day not after today.
      if (year === undefined && at(y, month ?? 0, day ?? 1) > now.getTime()) y -= 1;
      const from = month === undefined ? at(y, 0, 1) : day === undefined ? at(y, month, 1) : at(y, month, day);
      const to = month === undefined ? at(y + 1, 0, 1) : day === undefined ? at(y, month + 1, 1) : at(y, month, day + 1);
      windows.push({ from: new Date(from), to: new Date(to) });
      return ' ';
    });
  }
  const intent = readTimeIntent(question, now, timeZone);
  if (intent.from && intent.to) windows.push({ from: intent.from, to: new Date(intent.to.getTime() + 1) });
  return windows;
}

/**
 * 1 when the moment falls in one of the windows, or up to `slackDays` after one (people tell of
 * an event some days after it happened), else 0.
 */
export function dateMatch(moment: Date, windows: readonly DateWindow[], slackDays: number): number {
  const t = moment.getTime();
  return windows.some((w) => t >= w.from.getTime() && t < w.to.getTime() + slackDays * DAY) ? 1 : 0;
}

/**
 * The date bonus of each candidate (its log-odds to add), for the query's date windows. Reads the
 * user's time zone only when the query names a time at all, so other queries pay nothing.
 */
export async function dateBonus(input: {
  query: string;
  now: Date;
  items: ReadonlyArray<{ id: string; at: Date }>;
  config: { weight: number; slackDays: number };
  timeZone: () => Promise<string>;
}): Promise<Map<string, number>> {
  const bonus = new Map<string, number>();
  if (input.config.weight === 0 || input.items.length === 0) return bonus;
  if (readDateWindows(input.query, input.now).length === 0) return bonus;
  const windows = readDateWindows(input.query, input.now, await input.timeZone());
  for (const { id, at } of input.items) {
    if (dateMatch(at, windows, input.config.slackDays) === 1) bonus.set(id, input.config.weight);
  }
  return bonus;
}
