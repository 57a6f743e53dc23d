import { timeZoneOffsetMinutes } from '../extraction/due-time.js';

const DAY = 86_400_000;

interface Rule {
  re: RegExp;
  /** The end of the window, in whole local days from today (0 = today's midnight), given today's weekday (0 = Monday) and day of month. */
  end: (weekday: number, local: Date) => number;
  /** Only when no day was named ("有什么安排", "what's on my plate"): "这周还有什么安排" ends with the week. */
  unnamed?: boolean;
}

/** Days from today to the first of a later month (`months` ahead). */
const toMonth = (local: Date, months: number): number =>
  Math.round((Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + months, 1) - Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate())) / DAY);

// The question looks ahead to these days: the todos due by their end belong in the block.
const RULES: Rule[] = [
  { re: /明天|明早|明晚|tomorrow/i, end: () => 2 },
  { re: /后天|day after tomorrow/i, end: () => 3 },
  // Said from Friday on, "this week" is the days coming ("what's on my plate this week?" on a Friday takes in Monday's bill).
  { re: /(?:这周|本周|这个星期|这星期|这个礼拜)(?!末)|this week(?!end)/i, end: (w) => (w >= 4 ? 8 : 7 - w) },
  { re: /(?<!下个?)周末|(?<!下个?)礼拜天|(?<!下个?)星期天|this weekend|the weekend/i, end: (w) => (w === 6 ? 1 : 7 - w) },
  { re: /下个?周末|next weekend/i, end: (w) => 14 - w },
  { re: /(?:下周|下个星期|下星期|下个礼拜)(?!末)|next week(?!end)/i, end: (w) => 14 - w },
  { re: /这个月|本月|this month/i, end: (_w, local) => toMonth(local, 1) },
  { re: /下个月|下月|next month/i, end: (_w, local) => toMonth(local, 2) },
  { re: /接下来|未来几天|最近有什么|近期|coming days|upcoming|on my plate|coming up|what's next|my schedule|我的安排|有什么安排|要做什么|待办/i, end: () => 8, unnamed: true },
];

/**
 * How far ahead a question looks for todos ("下周有什么安排", "what's on my plate this week?"): the
 * end of the latest window it names, in the user's time zone, or undefined when it names none.
 * The block lists the todos due before then, beyond its usual horizon.
 */
export function todoWindowEnd(question: string, now: Date, timeZone = 'UTC'): Date | undefined {
  const offset = timeZoneOffsetMinutes(timeZone, now) * 60_000;
  const local = new Date(now.getTime() + offset);
  const midnight = Math.floor((now.getTime() + offset) / DAY) * DAY - offset;
  const weekday = (local.getUTCDay() + 6) % 7;
  const said = RULES.filter((rule) => rule.re.test(question));
  const named = said.filter((rule) => !rule.unnamed);
  const days = (named.length > 0 ? named : said).map((rule) => rule.end(weekday, local));
  return days.length === 0 ? undefined : new Date(midnight + Math.max(...days) * DAY);
}
