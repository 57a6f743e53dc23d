import { zonedInstant, zonedTime } from '../domain/zoned-time.js';
import { chineseNumber, findTimePhrase } from './due-time.js';

/**
 * How far ahead of a todo's time its reminder should come, as the user said it: "提前半小时提醒我",
 * "提前一天", "前一天晚上提醒我", "remind me 30 minutes before", "the day before", "the night before".
 */
export interface ReminderLead {
  /** The words as written. */
  text: string;
  /** Where they start in the text. */
  index: number;
  /** Minutes ahead of the time (hours and minutes said). */
  minutes?: number;
  /** Days ahead on the wall clock ("提前一天", "the day before"): the same time of day, earlier. */
  days?: number;
  /** The time of day on that day, when the words name one ("前一天晚上": 20:00; "当天早上": 09:00). */
  at?: { hour: number; minute: number };
  /**
   * A moment of its own rather than a lead ("下周提醒我" of a passport to renew before March, "remind
   * me next Monday"): the reminder comes then, whatever the todo's time. One-off todos only.
   */
  on?: Date;
}

const ZH_NUMBER = '(\\d+|[一二两三四五六七八九十]+|半)';
const ZH_UNIT_MINUTES: Record<string, number> = { 分钟: 1, 分: 1, 小时: 60, 钟头: 60, 天: 1440, 日: 1440, 周: 10_080, 星期: 10_080, 礼拜: 10_080 };
/** In a message, the Chinese forms count only before a request to be reminded: "我提前一天到了" asks nothing. */
const ZH_REQUEST = '(?=[^，,。；;]{0,4}?(?:提醒|叫|通知|告诉|喊))';
/** "提前半小时", "提前一个半小时", "提前两天", "提前一刻钟". */
const ZH_AHEAD = `提前\\s*(?:${ZH_NUMBER}\\s*个?(半)?\\s*(分钟|小时|钟头|天|日|周|星期|礼拜)|(一)?刻钟)`;
/** "前一天晚上", "前一晚", "当天早上": a day and maybe a part of it. */
const ZH_DAY_BEFORE = '(前一天|前一晚|头一天|当天)(早上|上午|中午|下午|傍晚|晚上)?';
const IN_REQUEST = { ahead: new RegExp(ZH_AHEAD + ZH_REQUEST, 'u'), dayBefore: new RegExp(ZH_DAY_BEFORE + ZH_REQUEST, 'u') };
const ALONE = { ahead: new RegExp(ZH_AHEAD, 'u'), dayBefore: new RegExp(ZH_DAY_BEFORE, 'u') };
const ZH_PART_HOUR: Record<string, number> = { 早上: 9, 上午: 9, 中午: 12, 下午: 15, 傍晚: 18, 晚上: 20 };

const EN_NUMBER: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, fifteen: 15, twenty: 20, thirty: 30, forty: 40, 'forty-five': 45, 'a couple of': 2, 'a few': 3 };
const EN_UNIT_MINUTES: Record<string, number> = { minute: 1, min: 1, hour: 60, hr: 60, day: 1440, week: 10_080 };
/** "30 minutes before", "an hour ahead", "half an hour early", "2 days in advance". */
const EN_AHEAD = /\b(?:(half an? hour)|(\d+(?:\.\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|thirty|forty-five|forty|a couple of|a few)\s*(minutes?|mins?|hours?|hrs?|days?|weeks?))\s+(?:before(?:hand)?|ahead(?: of time)?|in advance|early|earlier|prior)\b/i;
/** "the day before", "the night before", "the evening before", "the morning of", "that morning". */
const EN_DAY_BEFORE = /\b(?:the (day|night|evening|afternoon|morning) before|the (morning|afternoon|evening) of|that (morning|afternoon|evening)|on the day)\b/i;
const EN_PART_HOUR: Record<string, number> = { morning: 9, afternoon: 15, evening: 18, night: 20 };
/** The English forms count only in a request to be reminded: "I arrived an hour early" asks nothing. */
const EN_REMIND = /\b(?:remind|ping|notify|nudge|alert|tell|wake)\b/i;

/**
 * The first reminder lead said in `text`; undefined when it says none. In a message it must go with
 * a request to be reminded; `alone`: the text is the lead itself (a model's `todo.remindText`, a
 * person's edit: "提前半小时", "30 minutes before").
 */
export function findReminderLead(text: string, options: { alone?: boolean } = {}): ReminderLead | undefined {
  const zh = options.alone ? ALONE : IN_REQUEST;
  const ahead = zh.ahead.exec(text);
  if (ahead) {
    if (ahead[4] !== undefined || (ahead[1] === undefined && ahead[3] === undefined)) return { text: ahead[0], index: ahead.index, minutes: 15 };
    const n = chineseNumber(ahead[1]!);
    const unit = ahead[3]!;
    if (n !== undefined) {
      const minutes = (n + (ahead[2] ? 0.5 : 0)) * ZH_UNIT_MINUTES[unit]!;
      return (unit === '天' || unit === '日') && Number.isInteger(n) && !ahead[2] ? { text: ahead[0], index: ahead.index, days: n } : { text: ahead[0], index: ahead.index, minutes };
    }
  }
  const day = zh.dayBefore.exec(text);
  if (day) {
    const days = day[1] === '当天' ? 0 : 1;
    const hour = day[2] ? ZH_PART_HOUR[day[2]] : day[1] === '前一晚' ? 20 : undefined;
    return { text: day[0], index: day.index, days, ...(hour !== undefined ? { at: { hour, minute: 0 } } : {}) };
  }
  if (!options.alone && !EN_REMIND.test(text)) return undefined;
  const en = EN_AHEAD.exec(text);
  if (en) {
    if (en[1]) return { text: en[0], index: en.index, minutes: 30 };
    const said = en[2]!.toLowerCase();
    const unit = en[3]!.toLowerCase().replace(/s$/, '');
    const n = /^\d/.test(said) ? Number(said) : EN_NUMBER[said];
    const per = EN_UNIT_MINUTES[unit];
    if (n !== undefined && per !== undefined) return unit === 'day' && Number.isInteger(n) ? { text: en[0], index: en.index, days: n } : { text: en[0], index: en.index, minutes: n * per };
  }
  const before = EN_DAY_BEFORE.exec(text);
  if (before) {
    if (before[1]) {
      const part = before[1].toLowerCase();
      return { text: before[0], index: before.index, days: 1, ...(part === 'day' ? {} : { at: { hour: EN_PART_HOUR[part]!, minute: 0 } }) };
    }
    const part = (before[2] ?? before[3])?.toLowerCase();
    return { text: before[0], index: before.index, days: 0, ...(part ? { at: { hour: EN_PART_HOUR[part]!, minute: 0 } } : { at: { hour: 9, minute: 0 } }) };
  }
  return undefined;
}

/** What may stand around a reminder's own time when it is said alone: "下周一早上提醒我", "remind me on Monday". */
const AROUND_TIME = /^(?:请|麻烦)?(?:在|于|到)?\s*(?:(?:提醒|叫|通知)我?(?:一下)?)?$|^(?:(?:please )?(?:remind|ping) me)?\s*(?:on|at|in|by)?$/iu;

/**
 * When to remind, said alone (a model's `todo.remindText`, a person's edit, a request's own words):
 * a lead ("提前半小时", "the day before"), else a moment ahead of `reference` ("下周一早上", "明天早上八点",
 * "next Monday at 9am") as `on`. Undefined when it says neither.
 */
export function readReminderTime(text: string, o: { reference: Date; timeZone: string }): ReminderLead | undefined {
  const lead = findReminderLead(text, { alone: true });
  if (lead) return lead;
  const phrase = findTimePhrase({ text, reference: o.reference, timeZone: o.timeZone });
  // chrono reads "last Monday" forward when asked to: a moment gone is no reminder's.
  if (!phrase || phrase.date.getTime() <= o.reference.getTime() || /\b(?:last|ago|yesterday)\b|昨|前天|上个?(?:周|星期|礼拜|月)/iu.test(phrase.text)) return undefined;
  const rest = `${text.slice(0, phrase.index)} ${text.slice(phrase.index + phrase.text.length)}`.replace(/[\s，,。.!！吧]+/gu, ' ').trim();
  return AROUND_TIME.test(rest) ? { text: phrase.text, index: phrase.index, on: phrase.date } : undefined;
}

/**
 * When the reminder comes for a todo due at `dueAt` with this lead: minutes before it, or days
 * before it on the user's wall clock (at the time of day named, else at the todo's own), or at its
 * own moment (`on`). Undefined
 * when that moment is not ahead of the todo's time (a "morning of" reminder for a todo due at 08:00).
 */
export function remindAtWithLead(dueAt: Date, lead: Pick<ReminderLead, 'minutes' | 'days' | 'at' | 'on'>, timeZone: string): Date | undefined {
  let at: Date;
  if (lead.on) at = lead.on;
  else if (lead.days !== undefined) {
    const w = zonedTime(dueAt, timeZone);
    const day = new Date(Date.UTC(w.year, w.month - 1, w.day - lead.days));
    at = zonedInstant({ year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour: lead.at?.hour ?? w.hour, minute: lead.at?.minute ?? w.minute }, timeZone);
    if (lead.minutes) at = new Date(at.getTime() - lead.minutes * 60_000);
  } else at = new Date(dueAt.getTime() - (lead.minutes ?? 0) * 60_000);
  return at.getTime() <= dueAt.getTime() ? at : undefined;
}
