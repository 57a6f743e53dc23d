import { sinceMonday, zonedTime, type ZonedTime } from '../../domain/zoned-time.js';
import type { TimePhrase } from '../due-time.js';
import type { Lang } from './candidate.js';

/** A phrase that names its year itself ("2027年3月5日", "March 5, 2027") means the same on any day. */
const NAMES_YEAR = /(?:^|\D)(?:19|20)\d{2}(?!\d)/u;
/**
 * Phrases that name a week, a month or a year rather than a day ("下周", "next month", "明年"), or
 * count in them ("two weeks ago", "in a few months", "三个月后"): the label is no finer than the phrase.
 */
const WEEK = /\bweeks?\b|(?:下|上|这|本)个?(?:周|星期|礼拜)(?![一二三四五六日天末])|(?:周|星期|礼拜)[前后]/iu;
const MONTH = /\bmonths?\b|(?:下|上|这|本)个?月(?![底末\d一二三四五六七八九十])|个月[前后]/iu;
/** A month by its name with no day: "三月", "明年3月份", "March", "in March". */
const NAMED_MONTH = /(?:\d{1,2}|[一二三四五六七八九十]{1,2})月份?$|^(?:in |by |before |until )?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?$/iu;
const YEAR = /\byears?\b|(?:明|去|今|前|后)年(?![底末])|年[前后]/iu;

const MONTHS_EN = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const two = (n: number): string => String(n).padStart(2, '0');

/** The Monday of the week that day falls in. */
function mondayOf(d: ZonedTime): { year: number; month: number; day: number } {
  const monday = new Date(Date.UTC(d.year, d.month - 1, d.day - sinceMonday(d)));
  return { year: monday.getUTCFullYear(), month: monday.getUTCMonth() + 1, day: monday.getUTCDate() };
}

/**
 * What the phrase names, written out: a day, the week of a Monday, a month or a year. The zone is
 * the one the phrase was found in (findTimePhrase refuses an unknown one).
 */
function dateLabel(phrase: TimePhrase, timeZone: string, lang: Lang): string {
  const d = zonedTime(phrase.date, timeZone);
  if (YEAR.test(phrase.text)) return lang === 'zh' ? `${d.year}年` : String(d.year);
  if (MONTH.test(phrase.text) || NAMED_MONTH.test(phrase.text.trim())) return lang === 'zh' ? `${d.year}年${d.month}月` : `${MONTHS_EN[d.month - 1]} ${d.year}`;
  if (WEEK.test(phrase.text)) {
    const m = mondayOf(d);
    return lang === 'zh' ? `${m.year}年${m.month}月${m.day}日那一周` : `the week of ${m.year}-${two(m.month)}-${two(m.day)}`;
  }
  return lang === 'zh' ? `${d.year}年${d.month}月${d.day}日` : `${d.year}-${two(d.month)}-${two(d.day)}`;
}

/**
 * The memory's text with the date a relative time phrase named when it was said, right after the
 * phrase: "用户明天下午三点（2026年11月27日）开会", "The user is flying to Tokyo next Friday
 * (2026-12-04)". The user's words stay; the memory stays true after the day it was said, when
 * "明天" would name another day. Unchanged when the phrase names its year itself or is not in the
 * text as written.
 */
export function withPhraseDate(content: string, phrase: TimePhrase, timeZone: string, lang: Lang): string {
  if (NAMES_YEAR.test(phrase.text)) return content;
  // chrono's match can end on the clause's comma ("last Tuesday,"): the date goes before it.
  const words = phrase.text.replace(/[\s,，;；.。、]+$/u, '');
  const at = content.indexOf(words);
  if (at === -1 || words === '') return content;
  const end = at + words.length;
  const label = dateLabel(phrase, timeZone, lang);
  return lang === 'zh' ? `${content.slice(0, end)}（${label}）${content.slice(end)}` : `${content.slice(0, end)} (${label})${content.slice(end)}`;
}
