import { describeRecurrence } from '../domain/recurrence.js';
import type { TodoSchedule } from './todo-schedule.js';
import { findTimePhrase } from './due-time.js';
import { findRecurrence } from './recurrence-phrase.js';
import { zonedTime } from '../domain/zoned-time.js';

export interface RetimeOptions {
  timeZone: string;
  language: 'zh' | 'en';
  /** When the words were written: their relative phrases ("明天") count from here. */
  reference: Date;
  /** Words that name no time get the new one after them. @default true (false: they stay as they are) */
  append?: boolean;
}

/** A date the extractor wrote after a time phrase ("明天（2026年11月28日）", "tomorrow (2026-11-28)"). */
const DATE_NOTE = /^\s*[（(]\d{4}(?:年\d{1,2}月\d{1,2}日|-\d{2}-\d{2})[）)]/u;

const pad = (n: number): string => String(n).padStart(2, '0');

/** The new time as words: "2026年11月28日16:00" / "on 2026-11-28 at 16:00"; a series "每天21:00" / "every day at 21:00". */
export function timeWords(schedule: TodoSchedule, o: Pick<RetimeOptions, 'timeZone' | 'language'>): string {
  if (!schedule.dueAt) return '';
  const w = zonedTime(schedule.dueAt, o.timeZone);
  const clock = `${pad(w.hour)}:${pad(w.minute)}`;
  if (schedule.repeat) return o.language === 'zh' ? `${describeRecurrence(schedule.repeat, 'zh')}${clock}` : `${describeRecurrence(schedule.repeat, 'en')} at ${clock}`;
  return o.language === 'zh' ? `${w.year}年${w.month}月${w.day}日${clock}` : `on ${w.year}-${pad(w.month)}-${pad(w.day)} at ${clock}`;
}

/**
 * A todo's words after it was moved: the time they name ("明天下午三点（2026年11月28日）", "every
 * weekday at 9am", with the repeat's words) is replaced by the new time, written out in full; words
 * that name no time get it after them (unless `append` is false). So a memory never says one time while its reminder keeps
 * another.
 */
export function retimeWords(content: string, schedule: TodoSchedule, o: RetimeOptions): string {
  const label = timeWords(schedule, o);
  if (label === '') return content;
  const spans: Array<[number, number]> = [];
  const repeat = findRecurrence(content);
  const repeatAt = repeat ? content.indexOf(repeat.text) : -1;
  if (repeat && repeatAt >= 0) spans.push([repeatAt, repeatAt + repeat.text.length]);
  // The time of day is looked for without the repeat's words ("每周一和周四晚上七点": 晚上七点, not 周一), at the same places.
  const rest = repeat && repeatAt >= 0 ? `${content.slice(0, repeatAt)}${' '.repeat(repeat.text.length)}${content.slice(repeatAt + repeat.text.length)}` : content;
  const phrase = findTimePhrase({ text: rest, reference: o.reference, timeZone: o.timeZone });
  if (phrase) {
    const end = phrase.index + phrase.text.replace(/[\s,，;；.。、]+$/u, '').length;
    spans.push([phrase.index + (phrase.text.length - phrase.text.trimStart().length), end + (DATE_NOTE.exec(content.slice(end))?.[0].length ?? 0)]);
  }
  if (spans.length === 0) return o.append === false ? content : o.language === 'zh' ? `${content}（${label}）` : `${content} (${label})`;
  // The repeat and the time of day are usually one phrase ("每天早上八点", "every weekday at 9am"): replaced as one.
  const start = Math.min(...spans.map((s) => s[0]));
  const end = Math.max(...spans.map((s) => s[1]));
  const gap = spans.length === 2 ? content.slice(Math.min(spans[0]![1], spans[1]![1]), Math.max(spans[0]![0], spans[1]![0])) : '';
  if (spans.length === 2 && gap.trim().length > 3) {
    // Two phrases apart: the time is replaced, the repeat's words dropped.
    const [first, second] = [...spans].sort((a, b) => b[0] - a[0]);
    const withTime = `${content.slice(0, first![0])}${content.slice(first![1])}`;
    return tidy(`${withTime.slice(0, second![0])}${label}${withTime.slice(second![1])}`);
  }
  const before = content.slice(0, start);
  const after = content.slice(end);
  // English words keep their spaces around the label.
  const join = (a: string, b: string): string => (o.language === 'en' && a !== '' && !/\s$/.test(a) && !/^[\s,.;:)]/.test(b) ? `${a} ${b}` : `${a}${b}`);
  return tidy(join(join(before, label), after));
}

const tidy = (s: string): string => s.replace(/ {2,}/g, ' ').trim();
