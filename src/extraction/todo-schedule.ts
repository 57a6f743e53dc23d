import { firstOccurrence, RecurrenceRule, type RepeatInput } from '../domain/recurrence.js';
import { zonedTime } from '../domain/zoned-time.js';
import { defaultRemindAt, findTimePhrase, partOfDayHour } from './due-time.js';
import { findRecurrence } from './recurrence-phrase.js';

/** When a todo is due, when it is reminded, and how it repeats. */
export interface TodoSchedule {
  dueAt?: Date;
  remindAt?: Date;
  repeat?: RecurrenceRule;
}

export interface ScheduleTodoOptions {
  /** Where the time is read from, in order (the model's time phrase, then the todo's words); the first that names one counts. */
  texts: ReadonlyArray<string | undefined>;
  /** When the todo was asked for. */
  reference: Date;
  /** The user's time zone. */
  timeZone: string;
  /** A due time given outright (a caller's dueAt, a model's ISO time): the one-off's time, or a series' first. */
  dueAt?: Date;
  remindAt?: Date;
  /** A repeat given outright (its zone the user's unless it names one); else it is read from the texts. */
  repeat?: RepeatInput;
}

/**
 * A todo's times from what was said: a repeat ("每天早上八点提醒我吃药") makes a series whose first
 * occurrence is the next time it falls on after the request, at the time of day said (09:00, or
 * the part of the day named, when none); otherwise the first time phrase is the due time. The
 * reminder comes an hour ahead (see defaultRemindAt) unless given.
 */
export function scheduleTodo(o: ScheduleTodoOptions): TodoSchedule {
  const texts = o.texts.filter((t): t is string => t !== undefined && t.trim() !== '');
  /** The first time phrase among the texts, in order. */
  const firstTime = (among: readonly string[]): Date | undefined => among.map((text) => findTimePhrase({ text, reference: o.reference, timeZone: o.timeZone })?.date).find((d) => d !== undefined);
  const found = o.repeat ? { rule: o.repeat, text: '' } : texts.map(findRecurrence).find((r) => r !== undefined);
  if (!found) {
    const dueAt = o.dueAt ?? firstTime(texts);
    return { dueAt, remindAt: o.remindAt ?? (dueAt ? defaultRemindAt(dueAt, o.reference) : undefined) };
  }
  let repeat = RecurrenceRule.parse({ timeZone: o.timeZone, ...found.rule });
  // A first time given with a repeat given (a caller's own series) is taken as it is.
  let dueAt = o.repeat && o.dueAt && o.dueAt.getTime() > o.reference.getTime() ? o.dueAt : undefined;
  if (!dueAt) {
    // The time of day is read without the repeat's own words: "每周一和周四晚上七点" is 19:00, not Monday at the default hour.
    const phrase = firstTime(found.text === '' ? texts : texts.map((t) => t.replace(found.text, ' '))) ?? o.dueAt;
    const said = phrase ? zonedTime(phrase, o.timeZone) : undefined;
    let hour = said?.hour ?? texts.map(partOfDayHour).find((h) => h !== undefined) ?? 9;
    // "每晚十点", "every night at 10": the evening's ten o'clock.
    if (hour < 12 && (partOfDayHour(found.text) ?? 0) >= 18) hour += 12;
    const at = { hour, minute: said?.minute ?? 0 };
    const fits = (d: Date): boolean => {
      const w = zonedTime(d, o.timeZone);
      return (!repeat.weekdays || repeat.weekdays.includes(w.weekday)) && (repeat.day === undefined || repeat.day === w.day);
    };
    // A day the words name ("每两周周日", "每年3月5日", "starting next Monday") starts the series when the rule allows it.
    const named = phrase && said && said.hour === at.hour ? phrase : undefined;
    dueAt = named && named.getTime() > o.reference.getTime() && fits(named)
      ? named
      : firstOccurrence(repeat, { ...at, ...(said && repeat.every === 'year' ? { on: { month: said.month, day: said.day } } : {}) }, o.reference);
  }
  // A monthly or yearly series keeps its first day of the month: a 31st clamped to a short month comes back.
  if ((repeat.every === 'month' || repeat.every === 'year') && repeat.day === undefined) repeat = { ...repeat, day: zonedTime(dueAt, o.timeZone).day };
  return { dueAt, remindAt: o.remindAt ?? defaultRemindAt(dueAt, o.reference), repeat };
}
