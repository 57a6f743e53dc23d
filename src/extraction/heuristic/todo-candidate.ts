import { detectLanguage } from '../../text/language.js';
import { findTimePhrase, wakesUp } from '../due-time.js';
import { findRecurrence } from '../recurrence-phrase.js';
import { findSeriesEnd } from '../series-end.js';
import { thirdPerson, type Candidate, type Lang } from './candidate.js';
import { withPhraseDate } from './dated-phrase.js';

/**
 * The todo a request makes ("提醒我明天下午三点开会", "remind me every weekday at 9am for standup"):
 * its task in the user's words, its time as said and as a date, its repeat.
 */

/** A todo keeps the task in the user's words for the reminder and the time phrase as said. */
export function todo(base: Candidate, asked: string, timeZone: string, reference: Date): Candidate {
  // "提醒我：明天上午十点牙医": the colon introduced the task.
  const task = asked.replace(/^[\s:：，,]+/u, '');
  const lang: Lang = detectLanguage(task);
  const content = lang === 'zh' ? `用户有待办事项：${thirdPerson(task, 'zh')}` : `The user has a to-do: ${thirdPerson(task, 'en')}`;
  // A repeating one ("每天早上八点提醒我吃药") keeps its repeat with the time phrase ("每天早上八点"),
  // which is read without it (the time of day, not the weekday the repeat names), and no date in
  // its memory: the first time is not the only one.
  const repeat = findRecurrence(task);
  // When the series ends ("到周五为止", "until Friday", "for the next 5 days") goes with its repeat, not its task.
  const end = repeat ? findSeriesEnd(task.replace(repeat.text, lang === 'zh' ? '每' : ' '), reference, timeZone) : undefined;
  const said = repeat ? task.replace(repeat.text, ' ').replace(end?.text ?? repeat.text, ' ').replace(/\s{2,}/g, ' ').trim() : task;
  // A series' bare hour is the hour itself ("every morning at 8"); a one-off's is the next such time ("at 5": this afternoon).
  const phrase = findTimePhrase({ text: said, reference, timeZone, bareHour: repeat || wakesUp(task) ? 'as-said' : 'next' });
  const join = (a: string, b: string): string => (lang === 'zh' ? `${a}${b}` : `${a} ${b}`);
  const repeats = repeat ? (end ? (lang === 'zh' ? `${end.text}${repeat.text}` : `${repeat.text} ${end.text}`) : repeat.text) : '';
  if (!phrase) return { ...base, lang, content, todo: repeat ? { content: cleanTask(said) || task, dueText: repeats } : { content: task } };
  let dueText = phrase.text;
  // "在三月前续签护照": the preposition goes with its time.
  const at = /(?:在|于)$/u.test(said.slice(0, phrase.index)) ? 1 : 0;
  let rest = said.slice(0, phrase.index - at) + said.slice(phrase.index + phrase.text.length);
  // "周五前交报告": the deadline word belongs to the due time.
  const before = /^\s*(?:之前|以前|前)/u.exec(said.slice(phrase.index + phrase.text.length));
  if (before) {
    dueText += before[0].trim();
    rest = said.slice(0, phrase.index - at) + said.slice(phrase.index + phrase.text.length + before[0].length);
  }
  const what = cleanTask(rest) || task;
  if (repeat) return { ...base, lang, content, todo: { content: what, dueText: join(repeats, dueText), dueAt: phrase.date.toISOString() } };
  return { ...base, lang, content: withPhraseDate(content, phrase, timeZone, lang), todo: { content: what, dueText, dueAt: phrase.date.toISOString() } };
}

/** The task without the words its time phrase left behind ("by", a dangling comma, a leading 要). */
function cleanTask(rest: string): string {
  return rest
    .replace(/\s+(?:by|before|on|at|every)\s*$/i, '')
    // "The report is due Friday", "我的航班是明天早上八点": what is due, not the verb that said when.
    .replace(/\s+(?:is|are)(?: due| scheduled| set)?\s*$/i, '')
    .replace(/(?<=.)是\s*$/u, '')
    .replace(/\s{2,}/g, ' ')
    .replace(/^[\s，,]*(?:要|得|去)?/u, '')
    // "remind me every weekday at 9am for standup": the task is "standup".
    .replace(/^(?:to|for)\s+/i, '')
    .replace(/[\s，,]+$/u, '')
    .trim();
}
