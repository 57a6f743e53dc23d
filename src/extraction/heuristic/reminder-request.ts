import { findTimePhrase, type TimePhrase } from '../due-time.js';
import { findReminderLead, type ReminderLead } from '../reminder-lead.js';

/**
 * A request for a reminder whose task is said apart from it: "明天下午三点开会，提前半小时提醒我",
 * "下周五交报告，提前一天提醒我", "I have a dentist appointment Monday at 10am, remind me 30 minutes
 * before", "The report is due Friday, remind me the day before". The heuristic extractor reads the
 * task as the todo's and the lead as its reminder's.
 */
export interface ReminderRequest {
  /** The clause with the lead's words taken out (what the todo rows read). */
  text: string;
  lead?: ReminderLead;
  /** The request says nothing of what to do: the task is the clause before it. */
  bare: boolean;
  /** The task said before the request in the same clause ("下周五交报告提醒我"), in the order the todo rows read it. */
  task?: string;
}

/** Particles a request or a lead may end on. */
const END = '[吧啊哦呀呢喔嘛~～!！。.]*';
/** "提醒我", "到时候提醒我一下", "记得提醒我哦", "能提醒我吗": the request with nothing of what to do. */
const BARE_ZH = new RegExp(`^(?:那|就)?(?:请|麻烦)?你?(?:能不能|能|可以|可不可以)?(?:到时候?|到点|记得|要|再)?(?:帮我)?(?:(?:提醒|叫|通知|告诉)(?:一下)?我(?:一下|一声)?|别让我忘(?:了|记)?|(?:别|不要)(?:让我)?忘了(?:提醒我)?|(?:设|设置|定|加|建)(?:一?个|一下)?提醒)(?:吗|好吗|可以吗)?${END}$`, 'u');
/** "remind me", "please remind me", "can you remind me then?". */
const BARE_EN = /^(?:and |so |then )?(?:please |pls |can you |could you |would you )?(?:(?:remind|ping|notify|nudge|tell) me(?: about it| of it| then| too)?|don't let me forget(?: it)?|set (?:a|an|me a|up a) reminder)(?: please)?[?.!]*$/i;
/** A lead on its own after the todo it is for: "提醒我周五交报告，提前一天". */
const LEAD_ONLY_ZH = new RegExp(`^(?:要|请|记得)?提前\\s*(?:\\d+|[一二两三四五六七八九十半]+)\\s*个?半?\\s*(?:分钟|小时|钟头|天|日|周|星期|礼拜)${END}$|^(?:要|请|记得)?提前(?:一)?刻钟${END}$`, 'u');
const LEAD_ONLY_EN = /^(?:and )?(?:(?:half an? hour|\d+|an?|one|two|three|five|ten|fifteen|twenty|thirty) (?:minutes?|mins?|hours?|days?) (?:before|ahead|in advance|early)|the (?:day|night|evening) before)(?: please)?[.!]*$/i;
/** The task first, the request at the end of the same clause: "下周五交报告提醒我", "The report is due Friday, remind me". */
const TRAILING_ZH = new RegExp(`^(.+?)[，,]?(?:请|麻烦)?你?(?:到时候?|记得|要)?(?:提醒|叫|通知)(?:一下)?我(?:一下|一声)?${END}$`, 'u');
const TRAILING_EN = /^(.+?),?\s+(?:so |and |then )?(?:please |pls |can you |could you )?(?:remind|ping|notify|nudge) me(?: about it| of it| then)?(?: please)?[?.!]*$/i;
/** What may stand before a trailing Chinese request: a task, never its own subject ("医生提醒我", "妈妈昨天提醒我"). */
const NOT_A_TASK_ZH = /(?:医生|老师|妈妈|爸爸|老板|朋友|同事|他|她|它|别人|有人|你)(?:昨天|今天|刚才|之前|总是|经常|也|又|都)?$/u;

/** What the clause asks of a reminder, when it asks one; undefined when it is no such request. */
export function readReminderRequest(text: string): ReminderRequest | undefined {
  const said = text.trim();
  if (LEAD_ONLY_ZH.test(said) || LEAD_ONLY_EN.test(said)) {
    const lead = findReminderLead(said, { alone: true });
    return lead ? { text: '', lead, bare: true } : undefined;
  }
  const lead = findReminderLead(said);
  const rest = lead ? `${said.slice(0, lead.index)} ${said.slice(lead.index + lead.text.length)}`.replace(/\s{2,}/g, ' ').replace(/\s+([，,.!?。！？])/gu, '$1').replace(/[，,\s]+$/u, '').trim() : said;
  if (BARE_ZH.test(rest) || BARE_EN.test(rest)) return { text: rest, ...(lead ? { lead } : {}), bare: true };
  const trailing = TRAILING_ZH.exec(rest) ?? TRAILING_EN.exec(rest);
  // A task before the request, when the request is plainly the user's: with a lead, "到时候" or "记得", or after a comma ("…, remind me").
  const plain = lead !== undefined || /到时|记得/u.test(rest) || /,\s*(?:so |and |then )?(?:please |pls )?(?:remind|ping|notify|nudge) me/i.test(rest);
  if (trailing && plain && !NOT_A_TASK_ZH.test(trailing[1]!) && !/提醒|remind/i.test(trailing[1]!)) {
    return { text: rest, ...(lead ? { lead } : {}), bare: false, task: trailing[1]!.replace(/[，,\s]+$/u, '') };
  }
  return lead ? { text: rest, lead, bare: false } : undefined;
}

/**
 * A request that says only when: "下周提醒我", "一小时后叫我", "remind me next week", "Can you remind me
 * in an hour?". Its time phrase, ahead of `reference`; undefined for anything else.
 */
export function readTimedRequest(text: string, reference: Date, timeZone: string): TimePhrase | undefined {
  const said = text.trim();
  const phrase = findTimePhrase({ text: said, reference, timeZone });
  if (!phrase || phrase.date.getTime() <= reference.getTime()) return undefined;
  const rest = `${said.slice(0, phrase.index)} ${said.slice(phrase.index + phrase.text.length)}`
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([，,.!?。！？])/gu, '$1')
    .replace(/^(?:在|于|到)|(?<=me)\s+(?:on|at|in|by)(?=[?.!]*$)/giu, '')
    .trim();
  return BARE_ZH.test(rest) || BARE_EN.test(rest) ? phrase : undefined;
}

/**
 * A statement read as the task it makes: "我明天下午三点开会" → "明天下午三点开会", "I have a dentist
 * appointment Monday at 10am" → "a dentist appointment Monday at 10am", "I need to submit the
 * report by Friday" → "submit the report by Friday".
 */
export function taskOfStatement(text: string): string {
  return text
    .trim()
    .replace(/[。.!！]+$/u, '')
    // "我的航班是明天早上八点": the flight is what is due.
    .replace(/^我的(.{1,12}?)是/u, '$1')
    .replace(/^我(?!的|们)(?:还|也|又)?/u, '')
    .replace(/^[Mm]y (?=.{1,40}? (?:is|are) )/u, 'the ')
    .replace(/^The /u, 'the ')
    .replace(/^I(?:'ve| have)(?: got)? (?=an? |the |my )/i, '')
    .replace(/^I(?:'m| am) (?:going to|gonna|supposed to|meant to|due to) /i, '')
    .replace(/^I (?:need to|have to|must|should|will|want to) |^I'll /i, '')
    .trim();
}
