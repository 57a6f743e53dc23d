import { findRecurrence } from '../recurrence-phrase.js';
import { hasHan } from '../../text/language.js';

/**
 * A repeating task noted the way one writes a to-do list, with no "提醒我" or "remind me":
 * "每周一和周四晚上七点去健身", "每月15号交房租", "every weekday at 9am standup", "pay rent on the
 * 1st of every month". Said with no subject, it is something to be reminded of; "我每天跑步" and
 * "I run every morning" say what the user does, and stay habits.
 */

/** A time of day after the repeat: "晚上七点", "早上八点半". */
const TIME_OF_DAY_ZH = '(?:早上|早晨|上午|中午|下午|傍晚|晚上|夜里)?(?:(?:\\d{1,2}|[一二三四五六七八九十两]{1,3})(?:点|:\\d{2})(?:半|[一三]刻|\\d{1,2}分?)?)?';
/** What a noted task opens on: something done, not a state ("每天都很累") or a subject ("每天我…"). */
const TASK_ZH = /^(?:都|要|得)?(?:去|交|缴|付|还|吃|喝|打|开|上|做|跑|练|写|读|看|背|给|带|买|遛|喂|充|续|倒|扔|洗|浇|取|拿|发|寄|提交|复习|健身|锻炼|运动|学|签|刷|测|量|剪|收|约|汇报|参加|回|检查|备份|整理|打扫)/u;
/** What an English note opens on when its repeat comes after it: a verb of a task. */
const VERB_EN = /^(?:take|pay|call|go|walk|feed|water|check|send|submit|clean|buy|stretch|practice|study|review|read|write|meditate|text|email|visit|brush|floss|back up|renew|charge|drink|exercise|work out|put out|take out|empty|change|refill|order|file|update|run|do)\b/i;
/** What the rest of an English clause opening on its repeat must not open on: a subject or a state ("Every morning is a struggle"). */
const NOT_TASK_EN = /^(?:I|I'm|we|my|our|it|it's|is|are|was|were|he|she|they|you|your|this|that|there|the|a|an|feels?|seems?|gets?|has|have|had|will|would|can|could|should|must|brings?|makes?|starts?|begins?)\b/i;

/** The request to be reminded that the note amounts to ("提醒我每月15号交房租", "remind me to pay rent …"), or undefined. */
export function seriesNote(text: string): string | undefined {
  const said = text.trim();
  const repeat = findRecurrence(said);
  if (!repeat) return undefined;
  if (hasHan(said)) {
    if (!said.startsWith(repeat.text)) return undefined;
    const rest = said.slice(repeat.text.length).replace(new RegExp(`^${TIME_OF_DAY_ZH}`, 'u'), '');
    return TASK_ZH.test(rest) && !/[我你他她]/u.test(rest) ? `提醒我${said}` : undefined;
  }
  if (said.toLowerCase().startsWith(repeat.text.toLowerCase())) {
    const rest = said.slice(repeat.text.length).replace(/^,?\s*(?:(?:at|by) \d{1,2}(?::\d{2})? ?(?:am|pm)?|\d{1,2}(?::\d{2})? ?(?:am|pm))?,?\s*/i, '');
    // A verb of a task ("every morning at 8 take my pills") or the name of one ("standup", "yoga class"); not a comment ("Every day on set is awesome").
    const task = VERB_EN.test(rest) || (/^[a-z][a-z-]*(?: [a-z][a-z-]*){0,2}$/i.test(rest) && !NOT_TASK_EN.test(rest) && !/\b(?:is|are|was|were|be|been|so|very)\b/i.test(rest));
    return task ? `remind me ${said}` : undefined;
  }
  return VERB_EN.test(said) ? `remind me to ${said}` : undefined;
}
