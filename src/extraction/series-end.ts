import { wallDate } from '../domain/recurrence.js';
import { sinceMonday, zonedInstant, zonedTime } from '../domain/zoned-time.js';
import { chineseNumber, findTimePhrase } from './due-time.js';

/**
 * When a series said in words ends, and maybe when it starts: "到周五为止", "直到12月20日", "连续五天",
 * "接下来两周", "持续一个月", "这周每天", "下周每天" (next Monday to next Sunday), "until Friday",
 * "through Dec 20", "for the next 5 days", "for two weeks", "for a month", "every day this week",
 * "every morning next week".
 */
export interface SeriesEnd {
  /** The words as written. */
  text: string;
  /** The last day an occurrence may fall on (YYYY-MM-DD, the user's wall clock), when the words name it. */
  until?: string;
  /** How long it runs from its first occurrence, when the words say so instead ("连续五天", "for two weeks"). */
  span?: { days: number } | { months: number };
  /** The first day it may fall on ("下周每天": next Monday), YYYY-MM-DD. */
  from?: string;
}

const ZH_N = '(\\d+|[一二两三四五六七八九十]+)';
const EN_N: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, fourteen: 14, thirty: 30 };
const enCount = (s: string): number | undefined => (/^\d+$/.test(s) ? Number(s) : EN_N[s.toLowerCase()]);

/** A day as said after "到" / "until": weekdays, dates, "月底", "明天", "the end of the month". */
const ZH_DAY = '(?:(?:这|本|下)个?)?(?:周|星期|礼拜)[一二三四五六日天末]|周末|(?:\\d{1,2}|[一二三四五六七八九十]{1,3})月(?:\\d{1,2}|[一二三四五六七八九十]{1,3})[日号]|(?:\\d{1,2}|[一二三四五六七八九十]{1,3})号|(?:这个|本|下个?)?月底|明天|后天|年底';
/** "到周五为止", "直到12月20日", "一直到月底", "到下周三结束"; "改到周五" is a move, never an end. */
const ZH_UNTIL = new RegExp(`(?:(?:一直|直|截止|截至)到|(?<![改挪推调延换移提])到)(${ZH_DAY})(为止|结束|截止|之前|前)?`, 'u');
/** "连续五天", "接下来两周", "未来三天", "持续一个月". */
const ZH_SPAN = new RegExp(`(?:连续|接下来(?:的)?|未来|之后的?|持续)${ZH_N}\\s*(天|个?(?:周|星期|礼拜)|个月)`, 'u');
/** "这周每天", "下周每天", "这个月每天": the week or month the series runs in. */
const ZH_PERIOD = /(这|本|下)个?(周|星期|礼拜|月)(?=的?(?:每|天天))/u;

const EN_UNTIL = /\b(?:until|till|til|through|thru|up (?:to|until))\s+(the end of (?:the |this |next )?(?:week|month)|(?:next |this )?(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*|the \d{1,2}(?:st|nd|rd|th))\b/i;
const EN_SPAN = /\bfor (?:the next |the coming |another )?(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|fourteen|thirty) (days?|weeks?|months?)\b/i;
const EN_PERIOD = /\b(this|next) (week|month)\b/i;

interface Wall {
  year: number;
  month: number;
  day: number;
}

/** The wall date `days` after `w`. */
const plusDays = (w: Wall, days: number): Wall => {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};
const lastOfMonth = (w: Wall, ahead: number): Wall => {
  const d = new Date(Date.UTC(w.year, w.month + ahead, 0));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};

/**
 * The end (and start) of a series the words say, against when they were said; undefined when they
 * say none. Only read where a repeat was said: alone, "到周五" is no series' end.
 */
export function findSeriesEnd(text: string, reference: Date, timeZone: string): SeriesEnd | undefined {
  const today = zonedTime(reference, timeZone);
  const dayOf = (said: string): Wall | undefined => {
    const phrase = findTimePhrase({ text: said, reference, timeZone });
    return phrase ? zonedTime(phrase.date, timeZone) : undefined;
  };
  const period = (which: string, unit: string, text: string): SeriesEnd => {
    const next = /下|next/i.test(which);
    if (/月|month/i.test(unit)) {
      const end = wallDate(lastOfMonth(today, next ? 1 : 0));
      return { text, until: end, ...(next ? { from: wallDate(plusDays(lastOfMonth(today, 0), 1)) } : {}) };
    }
    const monday = plusDays(today, -sinceMonday(today) + (next ? 7 : 0));
    return { text, until: wallDate(plusDays(monday, 6)), ...(next ? { from: wallDate(monday) } : {}) };
  };

  const zhUntil = ZH_UNTIL.exec(text);
  if (zhUntil) {
    const said = zhUntil[1]!;
    const end = /月底/.test(said) ? lastOfMonth(today, /下/.test(said) ? 1 : 0) : said === '年底' ? { year: today.year, month: 12, day: 31 } : dayOf(said);
    // "到周五之前": the day before it is the last.
    if (end) return { text: zhUntil[0], until: wallDate(/前/.test(zhUntil[2] ?? '') ? plusDays(end, -1) : end) };
  }
  const zhSpan = ZH_SPAN.exec(text);
  if (zhSpan) {
    const n = chineseNumber(zhSpan[1]!);
    if (n !== undefined && Number.isInteger(n) && n > 0) return { text: zhSpan[0], span: zhSpan[2] === '个月' ? { months: n } : { days: zhSpan[2] === '天' ? n : n * 7 } };
  }
  const zhPeriod = ZH_PERIOD.exec(text);
  if (zhPeriod) return period(zhPeriod[1]!, zhPeriod[2]!, zhPeriod[0]);

  const enUntil = EN_UNTIL.exec(text);
  if (enUntil) {
    const said = enUntil[1]!.toLowerCase();
    // "the 15th" is read as a due time reads it (the next 15th).
    const end = said.startsWith('the end of')
      ? said.endsWith('month') ? lastOfMonth(today, /next/.test(said) ? 1 : 0) : plusDays(today, 6 - sinceMonday(today) + (/next/.test(said) ? 7 : 0))
      : dayOf(said);
    if (end) return { text: enUntil[0], until: wallDate(end) };
  }
  const enSpan = EN_SPAN.exec(text);
  if (enSpan) {
    const n = enCount(enSpan[1]!);
    if (n !== undefined && n > 0) return { text: enSpan[0], span: /month/i.test(enSpan[2]!) ? { months: n } : { days: /week/i.test(enSpan[2]!) ? n * 7 : n } };
  }
  const enPeriod = EN_PERIOD.exec(text);
  if (enPeriod) return period(enPeriod[1]!, enPeriod[2]!, enPeriod[0]);
  return undefined;
}

/** The series' last day: as said, or its span counted from its first occurrence. */
export function untilOf(end: SeriesEnd, first: Date, timeZone: string): string | undefined {
  if (end.until !== undefined) return end.until;
  if (!end.span) return undefined;
  const start = zonedTime(first, timeZone);
  if ('days' in end.span) return wallDate(plusDays(start, end.span.days - 1));
  // A month from the 31st of January ends on the last day of February, not in March.
  const last = lastOfMonth(start, end.span.months);
  return wallDate(plusDays({ ...last, day: Math.min(start.day, last.day) }, -1));
}

/** The first instant a series starting on `from` (YYYY-MM-DD) may fall on: that day's midnight. */
export function startOf(from: string, timeZone: string): Date {
  const [year, month, day] = from.split('-').map(Number);
  return zonedInstant({ year: year!, month: month!, day: day!, hour: 0, minute: 0 }, timeZone);
}
