import { timeZoneOffsetMinutes } from '../extraction/due-time.js';
import { recentResults } from '../util/recent-results.js';

/** What a question says about *when*: a time window, or "the most recent conversation". */
export interface TimeIntent {
  /** A window in absolute time, when the question names one ("昨天", "last week"). */
  from?: Date;
  to?: Date;
  /** The question asks about the last conversation ("上次", "last time", "刚才"). */
  latest: boolean;
  /** The question is about past conversations at all ("聊了什么", "what did we talk about"). */
  aboutConversations: boolean;
}

const DAY = 86_400_000;

interface Rule {
  re: RegExp;
  /** Window as [start, end) in whole local days relative to today (0 = today). */
  days?: (weekday: number) => [number, number];
  latest?: boolean;
}

// weekday: 0 = Monday … 6 = Sunday in the user's time zone.
const RULES: Rule[] = [
  { re: /前天|day before yesterday/i, days: () => [-2, -1] },
  { re: /昨天|昨晚|昨日|yesterday|last night/i, days: () => [-1, 0] },
  { re: /今天|今早|今晚|today|this morning|tonight|earlier today/i, days: () => [0, 1] },
  { re: /上周|上个星期|上星期|上个礼拜|last week/i, days: (w) => [-w - 7, -w] },
  { re: /这周|本周|这个星期|this week/i, days: (w) => [-w, 7 - w] },
  { re: /上个月|上月|last month/i, days: () => [-45, -15] },
  { re: /最近几天|这几天|past few days|last few days|recently/i, days: () => [-4, 1] },
  { re: /上次|上一次|刚才|刚刚|last time|last conversation|just now|previous (?:chat|conversation)/i, latest: true },
];

const ABOUT_CONVERSATIONS = /聊了什么|聊过|说了什么|说过什么|谈了什么|讨论了什么|聊的|talk(?:ed)? about|discuss(?:ed)?|did we (?:talk|chat|say)|conversation|we chatted/i;

/**
 * Reads time references in a question, Chinese or English, relative to `now` in the user's
 * time zone. Windows are whole local days; "last month" is approximate on purpose.
 */
export function readTimeIntent(question: string, now: Date, timeZone = 'UTC'): Readonly<TimeIntent> {
  return intents(`${timeZone}\u0000${Math.floor(now.getTime() / 60_000)}\u0000${question}`, () => Object.freeze(readIntent(question, now, timeZone)));
}
/**
 * One context build reads the same question several times (memories, messages, episodes). The
 * intent depends on `now` only through its minute (windows are whole local days): the key.
 */
const intents = recentResults<Readonly<TimeIntent>>(32);

function readIntent(question: string, now: Date, timeZone: string): TimeIntent {
  const intent: TimeIntent = { latest: false, aboutConversations: ABOUT_CONVERSATIONS.test(question) };
  const offset = timeZoneOffsetMinutes(timeZone, now) * 60_000;
  const localMidnight = Math.floor((now.getTime() + offset) / DAY) * DAY - offset;
  const weekday = (new Date(now.getTime() + offset).getUTCDay() + 6) % 7;
  for (const rule of RULES) {
    if (!rule.re.test(question)) continue;
    if (rule.latest) intent.latest = true;
    if (rule.days && intent.from === undefined) {
      const [a, b] = rule.days(weekday);
      intent.from = new Date(localMidnight + a * DAY);
      intent.to = new Date(localMidnight + b * DAY - 1);
    }
  }
  return intent;
}
