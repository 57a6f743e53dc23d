import { firstOccurrence, nextOccurrence, RecurrenceRule, wallDate, type RepeatInput } from '../domain/recurrence.js';
import type { Todo } from '../domain/todo.js';
import { zonedInstant, zonedTime } from '../domain/zoned-time.js';
import { defaultRemindAt, findTimePhrase, partOfDayHour, wakesUp, type TimePhrase } from './due-time.js';
import { findMonthDay } from './month-day.js';
import { findRecurrence } from './recurrence-phrase.js';
import { findReminderLead, remindAtWithLead, type ReminderLead } from './reminder-lead.js';
import { findSeriesEnd, startOf, untilOf } from './series-end.js';
import { hasHan } from '../text/language.js';

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
  /**
   * How far ahead the reminder comes, as said ("提前半小时", "the day before"); else the first one
   * the texts say, whose words are then no part of the time. @default an hour ahead (defaultRemindAt)
   */
  lead?: ReminderLead;
  /** A repeat given outright (its zone the user's unless it names one); else it is read from the texts. */
  repeat?: RepeatInput;
  /** A series' time of day when the words name none. @default the part of the day named, else 09:00 */
  timeOfDay?: { hour: number; minute: number };
}

/**
 * A todo's times from what was said: a repeat ("每天早上八点提醒我吃药") makes a series whose first
 * occurrence is the next time it falls on after the request, at the time of day said (09:00, or
 * the part of the day named, when none); otherwise the first time phrase is the due time. The
 * reminder comes as far ahead as the words ask ("提前半小时提醒我", "remind me the day before"), else
 * an hour ahead (see defaultRemindAt), unless given.
 */
export function scheduleTodo(o: ScheduleTodoOptions): TodoSchedule {
  const said = o.texts.filter((t): t is string => t !== undefined && t.trim() !== '');
  // "前一天晚上提醒我" says when the reminder comes, not when the todo is due: its words are no due time.
  const lead = o.lead ?? said.map((t) => findReminderLead(t)).find((l) => l !== undefined);
  const texts = lead ? said.map((t) => t.replace(lead.text, ' ')) : said;
  // A moment of its own ("下周提醒我") is one reminder: a series is reminded ahead of each time as usual.
  const remindFor = (dueAt: Date, series = false): Date => o.remindAt ?? (lead && !(series && lead.on) ? remindWithLead(dueAt, lead, o) : defaultRemindAt(dueAt, o.reference));
  /** The first time phrase among the texts, in order; a series' bare hour is the hour itself ("every morning at 8"). */
  const firstPhrase = (among: readonly string[], bareHour: 'next' | 'as-said' = 'next'): TimePhrase | undefined => among.map((text) => findTimePhrase({ text, reference: o.reference, timeZone: o.timeZone, bareHour })).find((p) => p !== undefined);
  const firstTime = (among: readonly string[], bareHour: 'next' | 'as-said' = 'next'): Date | undefined => firstPhrase(among, bareHour)?.date;
  const found = o.repeat ? { rule: o.repeat, text: '' } : texts.map(findRecurrence).find((r) => r !== undefined);
  if (!found) {
    const phrase = o.dueAt ? undefined : firstPhrase(texts, texts.some(wakesUp) ? 'as-said' : 'next');
    const dueAt = o.dueAt ?? phrase?.date;
    // "两小时后提醒我关火", "remind me in 2 hours": the time asked for is when to remind.
    if (dueAt && phrase?.fromNow && !lead && !o.remindAt) return { dueAt, remindAt: dueAt };
    return { dueAt, remindAt: dueAt ? remindFor(dueAt) : (o.remindAt ?? lead?.on) };
  }
  let repeat = RecurrenceRule.parse({ timeZone: o.timeZone, ...found.rule });
  // "到周五为止", "for the next 5 days", "下周每天": when the series ends (and starts); its words are no first time.
  // Read with the repeat's words standing as "每" alone: "每周一到周五" holds no end, "下周每天" still says its week.
  const end = o.repeat ? undefined : texts.map((t) => findSeriesEnd(t.replace(found.text, hasHan(found.text) ? '每' : ' '), o.reference, o.timeZone)).find((e) => e !== undefined);
  const timed = end ? texts.map((t) => t.replace(end.text, ' ')) : texts;
  const from = end?.from ? startOf(end.from, o.timeZone) : undefined;
  const after = from && from.getTime() > o.reference.getTime() ? from : o.reference;
  // A first time given with a repeat given (a caller's own series) is taken as it is.
  let dueAt = o.repeat && o.dueAt && o.dueAt.getTime() > o.reference.getTime() ? o.dueAt : undefined;
  // "每年2月29日", "every year on February 29": the month and day as the words say them. The date
  // reader finds no February 29 in a common year, and the series then fell on the day it was asked on.
  const monthDay = repeat.every === 'year' && !dueAt ? timed.map(findMonthDay).find((d) => d !== undefined) : undefined;
  if (monthDay && repeat.day === undefined) repeat = { ...repeat, day: monthDay.day };
  if (!dueAt) {
    // The time of day is read without the repeat's own words: "每周一和周四晚上七点" is 19:00, not Monday at the default hour.
    const phrase = firstTime(found.text === '' ? timed : timed.map((t) => t.replace(found.text, ' ')), 'as-said') ?? o.dueAt;
    const said = phrase ? zonedTime(phrase, o.timeZone) : undefined;
    let hour = said?.hour ?? timed.map(partOfDayHour).find((h) => h !== undefined) ?? o.timeOfDay?.hour ?? 9;
    // "每晚十点", "every night at 10": the evening's ten o'clock.
    if (hour < 12 && (partOfDayHour(found.text) ?? 0) >= 18) hour += 12;
    const at = { hour, minute: said?.minute ?? (said === undefined && hour === o.timeOfDay?.hour ? o.timeOfDay.minute : 0) };
    const fits = (d: Date): boolean => {
      const w = zonedTime(d, o.timeZone);
      return (!repeat.weekdays || repeat.weekdays.includes(w.weekday)) && (repeat.day === undefined || repeat.day === w.day);
    };
    // A day the words name ("每两周周日", "每年3月5日", "starting next Monday") starts the series when the rule allows it.
    const named = phrase && said && said.hour === at.hour ? phrase : undefined;
    dueAt = named && named.getTime() > after.getTime() && fits(named)
      ? named
      : firstOccurrence(repeat, { ...at, ...(monthDay ? { on: monthDay } : said && repeat.every === 'year' ? { on: { month: said.month, day: said.day } } : {}) }, after);
  }
  // Its last day, unless that is before its first: then the words meant something else.
  const until = end ? untilOf(end, dueAt, o.timeZone) : undefined;
  if (until !== undefined && until >= wallDate(zonedTime(dueAt, o.timeZone))) repeat = { ...repeat, until };
  // A monthly or yearly series keeps its first day of the month: a 31st clamped to a short month comes back.
  if ((repeat.every === 'month' || repeat.every === 'year') && repeat.day === undefined) repeat = { ...repeat, day: zonedTime(dueAt, o.timeZone).day };
  return { dueAt, remindAt: remindFor(dueAt, true), repeat };
}

/** The reminder a lead asks for; at the time itself when that moment is already past (as defaultRemindAt's). */
export function remindWithLead(dueAt: Date, lead: ReminderLead, o: Pick<ScheduleTodoOptions, 'reference' | 'timeZone'>): Date {
  const at = remindAtWithLead(dueAt, lead, o.timeZone);
  return at && at.getTime() >= o.reference.getTime() ? at : dueAt;
}

export interface RescheduleTodoOptions {
  /** The todo as it stands. */
  todo: Pick<Todo, 'dueAt' | 'remindAt' | 'repeat'>;
  /** Where the new time is read from, in order (the words after "改到" / "move … to", a model's time phrase, the new content); the first that names a time or a repeat counts. */
  texts: ReadonlyArray<string | undefined>;
  /** When the change was asked for. */
  reference: Date;
  timeZone: string;
}

/** A phrase that says which half of the day it means ("三点" does not; "下午三点", "3pm" do). */
const HALF_OF_DAY = /上午|早上|早晨|清晨|凌晨|中午|下午|傍晚|晚上|夜里|今晚|明晚|\b(?:a\.?m|p\.?m|noon|midnight|morning|afternoon|evening|tonight|night)\b|\d(?:am|pm)\b/i;
const HOUR_MS = 3_600_000;

/**
 * The reminder of a todo moved to `dueAt`: as far ahead of it as the old one was (an hour for a
 * todo that had no time); one that would already be past comes at the time itself, as a new todo's
 * does (defaultRemindAt).
 */
export function reminderKept(todo: Pick<Todo, 'dueAt' | 'remindAt'>, dueAt: Date, reference: Date): Date {
  const lead = todo.dueAt ? (todo.remindAt ? Math.max(0, todo.dueAt.getTime() - todo.remindAt.getTime()) : 0) : HOUR_MS;
  const at = new Date(dueAt.getTime() - lead);
  return at.getTime() >= reference.getTime() || dueAt.getTime() < reference.getTime() ? at : dueAt;
}

/**
 * A todo's times after the user moved it ("明天的会改到下午四点", "move the standup to 10am",
 * "吃药改到晚上九点", "健身改成每周三"). Only what the words name changes: a time of day keeps the
 * day (a series keeps its rule, and the occurrence at hand moves), a day keeps the time of day, a
 * repeat makes the todo a series at its old time of day unless the words give one. The reminder
 * keeps its lead ahead of the time unless the words give one ("提前半小时提醒我"). "三点" for something
 * due in the afternoon is 15:00. A running series' end ("到周五为止", "until Friday") sets its last day.
 * Undefined when the texts name no time and no repeat: nothing changes.
 */
export function rescheduleTodo(o: RescheduleTodoOptions): TodoSchedule | undefined {
  const texts = o.texts.filter((t): t is string => t !== undefined && t.trim() !== '');
  const { repeat, dueAt } = o.todo;
  // "到周五为止", "until Friday" said of a running series: it ends then, and whatever else the words say moves it.
  const end = repeat && dueAt && !texts.some((t) => findRecurrence(t) !== undefined) ? texts.map((t) => findSeriesEnd(t, o.reference, o.timeZone)).find((e) => e !== undefined) : undefined;
  if (!end) return moveTodo(o, texts);
  const rest = texts.map((t) => t.replace(end.text, ' ')).filter((t) => t.replace(/[\s，,。.!！吧]+/gu, '') !== '');
  const moved = rest.length > 0 ? moveTodo(o, rest) : undefined;
  const kept = moved ?? { dueAt, remindAt: o.todo.remindAt, repeat };
  const until = kept.dueAt ? untilOf(end, kept.dueAt, o.timeZone) : undefined;
  // An end before the occurrence at hand is no end of this series: only the move, if any.
  if (until === undefined || !kept.dueAt || !kept.repeat || until < wallDate(zonedTime(kept.dueAt, o.timeZone))) return moved;
  return { ...kept, repeat: { ...kept.repeat, until } };
}

/** rescheduleTodo once a series' end is read: the new time the words name. */
function moveTodo(o: RescheduleTodoOptions, said: readonly string[]): TodoSchedule | undefined {
  // "改到下午四点，提前半小时提醒我": the reminder's lead is said with the time, and is no part of it.
  const lead = said.map((t) => findReminderLead(t)).find((l) => l !== undefined);
  const texts = lead ? said.map((t) => t.replace(lead.text, ' ')) : said;
  const old = o.todo.dueAt ? zonedTime(o.todo.dueAt, o.timeZone) : undefined;
  const remindFor = (dueAt: Date): Date => (lead ? remindWithLead(dueAt, lead, o) : reminderKept(o.todo, dueAt, o.reference));
  if (texts.some((t) => findRecurrence(t) !== undefined)) {
    // A series changed ("吃药改成每天晚上九点") starts on the day of the occurrence at hand, not before it.
    const dayAtHand = old && o.todo.repeat ? zonedInstant({ ...old, hour: 0, minute: 0 }, o.timeZone) : undefined;
    const reference = dayAtHand && dayAtHand.getTime() > o.reference.getTime() ? dayAtHand : o.reference;
    const series = scheduleTodo({ texts, reference, timeZone: o.timeZone, ...(old ? { timeOfDay: { hour: old.hour, minute: old.minute } } : {}) });
    return series.dueAt ? { ...series, remindAt: remindFor(series.dueAt) } : undefined;
  }
  // A bare hour is read against the todo's own time below ("改到十点" for a 9am meeting is 10am), when it has one.
  const phrase = texts.map((text) => findTimePhrase({ text, reference: o.reference, timeZone: o.timeZone, bareHour: old ? 'as-said' : 'next' })).find((p) => p !== undefined);
  if (!phrase) return undefined;
  let dueAt = phrase.date;
  if (old && !(phrase.named.day && phrase.named.time)) {
    const said = zonedTime(phrase.date, o.timeZone);
    let hour = said.hour;
    // "改到三点" for a meeting at two in the afternoon: three in the afternoon.
    if (phrase.named.time && !HALF_OF_DAY.test(phrase.text) && hour >= 1 && hour < 12 && old.hour >= 12) hour += 12;
    const wall = phrase.named.day ? { year: said.year, month: said.month, day: said.day, hour: old.hour, minute: old.minute } : { year: old.year, month: old.month, day: old.day, hour, minute: said.minute };
    dueAt = zonedInstant(wall, o.timeZone);
    // The day kept has passed at the new time: a series' next occurrence at it, a one-off's next such time.
    if (dueAt.getTime() <= o.reference.getTime()) dueAt = (o.todo.repeat ? nextOccurrence(o.todo.repeat, dueAt, o.reference) : undefined) ?? (phrase.named.day ? dueAt : nextDay(wall, o.timeZone));
  }
  return { dueAt, remindAt: remindFor(dueAt), ...(o.todo.repeat ? { repeat: o.todo.repeat } : {}) };
}

const nextDay = (w: { year: number; month: number; day: number; hour: number; minute: number }, timeZone: string): Date => {
  const next = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  return zonedInstant({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: w.hour, minute: w.minute }, timeZone);
};
