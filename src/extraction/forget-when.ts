import { zonedInstant, zonedTime } from '../domain/zoned-time.js';
import { LEAD, ZH_LEAD } from './forget-leads.js';

/**
 * When the words a user asks to be forgotten were said: a day counted back from the request's own
 * ("yesterday": 1), or a part of it ("this morning", "昨晚").
 */
export interface SaidWhen {
  daysAgo: 0 | 1 | 2;
  /** morning: midnight to noon; night: 18:00 to 06:00 the next morning. @default the whole day */
  part?: 'morning' | 'night';
  /** The last minutes before the request instead of a day ("in the last hour": 60). */
  minutes?: number;
}

const EN_TIMES: ReadonlyArray<[RegExp, SaidWhen]> = [
  [/^the day before yesterday$/iu, { daysAgo: 2 }],
  [/^yesterday morning$/iu, { daysAgo: 1, part: 'morning' }],
  [/^(?:last night|yesterday (?:evening|night))$/iu, { daysAgo: 1, part: 'night' }],
  [/^yesterday$/iu, { daysAgo: 1 }],
  [/^this morning$/iu, { daysAgo: 0, part: 'morning' }],
  [/^(?:tonight|this evening)$/iu, { daysAgo: 0, part: 'night' }],
  [/^(?:today|earlier today|earlier)$/iu, { daysAgo: 0 }],
  [/^in the (?:last|past) hour$/iu, { daysAgo: 0, minutes: 60 }],
  [/^in the (?:last|past) half (?:an )?hour$/iu, { daysAgo: 0, minutes: 30 }],
];
const ZH_TIMES: ReadonlyArray<[RegExp, SaidWhen]> = [
  [/^前天$/u, { daysAgo: 2 }],
  [/^昨天(?:早上|上午)$/u, { daysAgo: 1, part: 'morning' }],
  [/^(?:昨晚|昨天晚上|昨天夜里)$/u, { daysAgo: 1, part: 'night' }],
  [/^昨天$/u, { daysAgo: 1 }],
  [/^(?:今早|今天早上|今天上午)$/u, { daysAgo: 0, part: 'morning' }],
  [/^(?:今晚|今天晚上)$/u, { daysAgo: 0, part: 'night' }],
  [/^今天$/u, { daysAgo: 0 }],
];
const EN_TIME = String.raw`(?:the day before yesterday|yesterday (?:morning|evening|night)|yesterday|last night|this morning|this evening|tonight|earlier today|earlier|today|in the (?:last|past) (?:half (?:an )?)?hour|in the (?:last|past) \d{1,3} (?:minutes|hours))`;
/** 最近一小时, 过去半小时, 最近20分钟, 过去两个小时: the last minutes before the request (`zhMinutes`). */
const ZH_MINUTES = String.raw`(?:最近|过去|刚才|这)(?:的)?(?:半个?小时|[一二两三四五六七八九十\d]{1,3}个?(?:小时|钟头)|[一二两三四五六七八九十\d]{1,3}分钟)(?:里|内|之内|以内)?`;
const ZH_TIME = String.raw`(?:前天|昨天早上|昨天上午|昨天晚上|昨天夜里|昨晚|昨天|今天早上|今天上午|今早|今天晚上|今晚|今天|${ZH_MINUTES})`;
const ZH_NUMBER: Readonly<Record<string, number>> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };

/** The minutes of "最近一小时" (60), "过去半小时" (30), "最近20分钟" (20), "过去十五分钟" (15), or undefined. */
function zhMinutes(time: string): number | undefined {
  if (/半个?小时/u.test(time)) return 30;
  const m = /([一二两三四五六七八九十\d]{1,3})个?(小时|钟头|分钟)/u.exec(time);
  if (!m) return undefined;
  const digits = m[1]!;
  // 十五 = 15, 二十 = 20, 二十五 = 25.
  const n = /^\d+$/u.test(digits) ? Number(digits) : [...digits].reduce((sum, ch, i, all) => (ch === '十' ? (i === 0 ? 10 : sum * 10) : i > 0 && all[i - 1] === '十' ? sum + ZH_NUMBER[ch]! : ZH_NUMBER[ch]!), 0);
  return m[2] === '分钟' ? n : n * 60;
}

/** "everything I told you", "what we talked about", "our conversation from", "the messages of". */
const EN_WORDS = String.raw`(?:(?:everything|all|anything|whatever|what|the (?:stuff|things))(?:\s+that)?\s+(?:i|we)(?:'ve| have)?\s+(?:said|told you|talked about|discussed|wrote|mentioned|shared)(?:\s+(?:to you|with you))?|(?:our|the|my)\s+(?:conversations?|chats?|messages?|talks?)(?:\s+(?:from|of))?|(?:everything|all)\s+from)`;
const EN_THANKS = String.raw`(?:[\s,]+(?:please|pls|too|as well|thanks|thank you|for me))*`;
const EN_REQUESTS: readonly RegExp[] = [
  // forget everything I told you yesterday / delete our conversation from this morning
  new RegExp(String.raw`^${LEAD}(?:forget|delete|erase|wipe|remove|clear)\s+${EN_WORDS}\s+(?<time>${EN_TIME})${EN_THANKS}$`, 'iu'),
  // delete yesterday's conversation
  new RegExp(String.raw`^${LEAD}(?:forget|delete|erase|wipe|remove|clear)\s+(?<time>today|yesterday|tonight)'s\s+(?:conversations?|chats?|messages|talk)${EN_THANKS}$`, 'iu'),
  // don't remember anything I said last night
  new RegExp(String.raw`^${LEAD}(?:don'?t|do not|i (?:don'?t|do not) want you to)\s+(?:remember|keep|store|save)\s+${EN_WORDS}\s+(?<time>${EN_TIME})${EN_THANKS}$`, 'iu'),
];

/** 说过的话, 聊的那些, 的聊天记录, 的对话. */
const ZH_WORDS = String.raw`(?:(?:我们?)?(?:跟你|和你|对你|给你)?(?:说|讲|聊|提|告诉你|发)(?:过|了)?的(?:那些)?(?:话|事情?|内容|东西|那些|一切|所有|消息|信息)?|的(?:聊天记录|聊天|对话|谈话|消息)(?:内容|记录)?)`;
const ZH_REQUESTS: readonly RegExp[] = [
  // 忘掉我昨天说的话 / 删掉我们昨天的聊天记录 / 忘了我昨天说的吧 (忘了 asks only with 吧: "忘了我昨天说的话" may say the user forgot)
  new RegExp(String.raw`^${ZH_LEAD}(?<verb>忘掉|忘记掉|删掉|删除|清除|抹掉|忘了|忘记)(?:我们?)?(?<time>${ZH_TIME})${ZH_WORDS}(?<ask>吧)?(?:了|啊)*$`, 'u'),
  // 把我昨天说的都忘了吧 / 昨天聊的你就忘了吧 / 今天的对话都删掉
  new RegExp(String.raw`^${ZH_LEAD}(?<ba>把)?(?:我们?)?(?<time>${ZH_TIME})${ZH_WORDS}(?<you>你)?(?:就|也)?(?:都|全都|全部|统统)?(?:给我)?(?<verb>忘掉|忘了|忘记|删掉|删了|删除|清除)(?:掉)?(?<ask>吧)?(?:了|啊)*$`, 'u'),
  // 别记住我昨天说的话
  new RegExp(String.raw`^${ZH_LEAD}(?:别|不要)(?:再)?(?:记住|记着|记得|保存|留着)(?:我们?)?(?<time>${ZH_TIME})${ZH_WORDS}(?:了|吧)*$`, 'u'),
];

/**
 * The time a clause asks the words of to be forgotten ("forget everything I told you yesterday",
 * "忘掉我昨天说的话", "把我今天说的都忘了吧"): the time as said, and when it is. Chinese is read in
 * simplified characters. "我昨天说的都忘了" (the user forgot) and "忘了我昨天说的话" ask nothing: a
 * request says 吧, 把 or 你, or a verb that only asks (忘掉, 删掉).
 */
export function readSaidWhen(clause: string): { label: string; when: SaidWhen } | undefined {
  const han = /\p{Script=Han}/u.test(clause);
  for (const pattern of han ? ZH_REQUESTS : EN_REQUESTS) {
    const m = pattern.exec(clause);
    const time = m?.groups?.time;
    if (!m?.groups || !time) continue;
    const { verb, ask, ba, you } = m.groups;
    if (han && (verb === '忘了' || verb === '忘记') && ask === undefined && ba === undefined && you === undefined) continue;
    if (han && pattern === ZH_REQUESTS[1] && ask === undefined && ba === undefined && you === undefined) continue;
    const minutes = /^in the (?:last|past) (\d{1,3}) (minutes|hours)$/iu.exec(time);
    const zh = han ? zhMinutes(time) : undefined;
    const when =
      zh !== undefined ? { daysAgo: 0 as const, minutes: zh } : minutes ? { daysAgo: 0 as const, minutes: Number(minutes[1]) * (minutes[2]!.toLowerCase() === 'hours' ? 60 : 1) } : (han ? ZH_TIMES : EN_TIMES).find(([re]) => re.test(time))?.[1];
    if (when) return { label: time, when };
  }
  return undefined;
}

/**
 * The instants a `SaidWhen` spans, in the user's time zone, counted from `at` (the request's own
 * time) and never past it: "today" is midnight until the request.
 */
export function saidWindow(when: SaidWhen, at: Date, timeZone: string): { from: Date; to: Date } {
  if (when.minutes !== undefined) return { from: new Date(at.getTime() - when.minutes * 60_000), to: at };
  const today = zonedTime(at, timeZone);
  // "tonight" said at 1 a.m. is the night still going on, which began yesterday evening.
  const nightGoingOn = when.part === 'night' && when.daysAgo === 0 && today.hour < 6;
  const day = today.day - when.daysAgo - (nightGoingOn ? 1 : 0);
  const hours = when.part === 'morning' ? [0, 12] : when.part === 'night' ? [18, 30] : [0, 24];
  const from = onOrAfter(zonedInstant({ year: today.year, month: today.month, day, hour: hours[0]!, minute: 0 }, timeZone), day, today, timeZone);
  const endDay = day + Math.floor(hours[1]! / 24);
  const end = onOrAfter(zonedInstant({ year: today.year, month: today.month, day: endDay, hour: hours[1]! % 24, minute: 0 }, timeZone), endDay, today, timeZone);
  return { from, to: end.getTime() < at.getTime() ? end : at };
}

/**
 * Where summer time starts at midnight (Havana, Santiago), that midnight does not exist and
 * resolves to 23:00 the day before: the day then starts an hour later, at its first instant.
 */
function onOrAfter(instant: Date, day: number, today: { year: number; month: number }, timeZone: string): Date {
  const wanted = new Date(Date.UTC(today.year, today.month - 1, day)).getUTCDate();
  return zonedTime(instant, timeZone).day === wanted ? instant : new Date(instant.getTime() + 3_600_000);
}
