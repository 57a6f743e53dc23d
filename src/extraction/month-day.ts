import { chineseNumber } from './due-time-zh.js';

const ZH = /(?<![\d一二三四五六七八九十])(1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])月(\d{1,2}|[一二三四五六七八九十]{1,3})[日号]/u;
const EN_MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const EN_NAME = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const EN_DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const EN_MONTH_FIRST = new RegExp(`\\b${EN_NAME}\\s+(?:the\\s+)?${EN_DAY}\\b`, 'i');
const EN_DAY_FIRST = new RegExp(`\\b(?:the\\s+)?${EN_DAY}\\s+(?:of\\s+)?${EN_NAME}\\b`, 'i');

/** A month and a day that a calendar has in some year (February 29 included). */
const valid = (month: number | undefined, day: number | undefined): { month: number; day: number } | undefined => {
  if (month === undefined || day === undefined || month < 1 || month > 12 || day < 1) return undefined;
  return day <= new Date(Date.UTC(2000, month, 0)).getUTCDate() ? { month, day } : undefined;
};

/**
 * The month and day a text names, without a year: "每年2月29日", "every year on February 29",
 * "the 29th of February". The date reader (chrono) refuses February 29 in a common year, so a
 * yearly series on it is read here: its day must not become the day it was asked on.
 */
export function findMonthDay(text: string): { month: number; day: number } | undefined {
  const zh = ZH.exec(text);
  if (zh) return valid(chineseNumber(zh[1]!), chineseNumber(zh[2]!));
  const first = EN_MONTH_FIRST.exec(text);
  if (first) return valid(EN_MONTHS.indexOf(first[1]!.slice(0, 3).toLowerCase()) + 1, Number(first[2]));
  const dayFirst = EN_DAY_FIRST.exec(text);
  if (dayFirst) return valid(EN_MONTHS.indexOf(dayFirst[2]!.slice(0, 3).toLowerCase()) + 1, Number(dayFirst[1]));
  return undefined;
}
