import type { AliasedMemory } from '../../domain/operations.js';
import { findTimePhrase } from '../due-time.js';
import type { Lang } from './candidate.js';

/**
 * Which todo memory a task said loosely names ("明天的会", "the plumber", "I took my pills"): what a
 * todo called off, moved or done acts on (reconcile.ts).
 */

/** Words that do not say which todo: particles, the reminder itself, times. */
const NOT_TASK_ZH = /提醒|的|那个|这个|一下|事情|事儿?|时间|我|你/g;
const NOT_TASK_EN = new Set(['the', 'my', 'our', 'their', 'a', 'an', 'that', 'this', 'reminder', 'reminders', 'for', 'to', 'of', 'about', 'time', 'it', 'thing']);
/** "会议" and "开会" are one meeting. */
const MEETING_ZH = /会议|开会/g;

/** How many of the task's words a todo memory holds (Chinese: its two-character runs, or the one character said). */
function taskOverlap(task: string, lang: Lang, content: string): number {
  if (lang === 'zh') {
    const said = task.replace(MEETING_ZH, '会');
    const text = content.replace(MEETING_ZH, '会');
    if (said.length === 1) return text.includes(said) ? 1 : 0;
    let n = 0;
    for (let i = 0; i + 1 < said.length; i++) if (text.includes(said.slice(i, i + 2))) n++;
    // "吃药" said of "吃胃药": every character of it, in order, with words between.
    return n > 0 ? n : inOrder(said, text) ? 1 : 0;
  }
  const words = new Set(content.toLowerCase().split(/[^\p{L}\p{N}']+/u));
  // A word and its plural or verb forms ("pill" / "pills", "call" / "calls") count alike.
  const stem = (w: string): string => w.replace(/(?:es|s|ed|ing)$/, '');
  const stems = new Set([...words].map(stem));
  return task.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter((w) => w.length >= 3 && !NOT_TASK_EN.has(w) && stems.has(stem(w))).length;
}

/** Whether every character of `said` comes in `text` in the same order. */
function inOrder(said: string, text: string): boolean {
  let at = 0;
  for (const ch of said) {
    at = text.indexOf(ch, at);
    if (at < 0) return false;
    at += ch.length;
  }
  return true;
}

/** Whether a todo's words hold the verb said of it ("交" in "交房租"; "pay" in "pay the rent", "pays"). */
function holdsVerb(content: string, verb: string, lang: Lang): boolean {
  if (lang === 'zh') return content.includes(verb);
  return new RegExp(`\\b${verb}(?:s|es|ed|ing)?\\b`, 'i').test(content);
}

/**
 * The todo memory a moved task names ("明天的会" → "…开会", "the standup" → "join the standup"):
 * the one holding most of its words, the most related first among equals. The time the task
 * is named by ("明天的", "tomorrow's") is not part of it.
 */
export function todoNamed(value: string, lang: Lang, existing: readonly AliasedMemory[], verb?: string, whole = false): AliasedMemory | undefined {
  const phrase = findTimePhrase({ text: value, reference: new Date(0), timeZone: 'UTC' });
  const rest = phrase ? value.replace(phrase.text, ' ') : value;
  const task = lang === 'zh' ? rest.replace(NOT_TASK_ZH, '').replace(/[^\p{L}\p{N}]/gu, '') : rest.replace(/'s\b/g, '');
  if (task.trim() === '') return undefined;
  let best: AliasedMemory | undefined;
  let most = 0;
  // Said loosely, every word of the task must be the todo's: "I took my kids to the zoo" is no "take the kids to the dentist".
  const needed = whole ? taskOverlap(task, lang, task) : 1;
  for (const m of existing) {
    if (m.kind !== 'todo' || (verb && !holdsVerb(m.content, verb, lang))) continue;
    const n = taskOverlap(task, lang, m.content);
    if (n < needed) continue;
    if (n > most) [best, most] = [m, n];
  }
  return best;
}
