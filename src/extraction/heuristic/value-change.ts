import { detectLanguage } from '../../text/language.js';
import type { Candidate, Slot } from './candidate.js';

/**
 * How a new value stands to the memory holding an old one: saying less of it, taking its place in
 * a combined memory, or naming the same pet. Pure functions of the words; reconcile.ts decides.
 */

/** Slots whose value can carry details after it ("Seattle with my husband and two kids", "上海浦东"). */
const DETAILED_SLOTS: ReadonlySet<Slot> = new Set<Slot>(['home', 'origin', 'employer', 'job', 'name']);

/**
 * Whether the candidate only says again, with fewer details, what the memory holds: "i live in
 * seattle" after "I live in Seattle with my husband and two kids" takes nothing away.
 */
export function saysLess(c: Candidate, held: string): boolean {
  if (!DETAILED_SLOTS.has(c.slot)) return false;
  const said = c.value.trim().toLowerCase();
  const more = held.trim().toLowerCase();
  if (said === '' || more.length <= said.length) return false;
  // "阿里巴巴产品经理" holds "产品经理" too (where, then what).
  if (c.lang === 'zh' && more.endsWith(said)) return true;
  if (!more.startsWith(said)) return false;
  // In English the value must end on a word: "Sam" is not "Samantha".
  return c.lang === 'zh' || /^[\s,;(]/u.test(more.slice(said.length));
}

/** Where a clause of a combined memory ends: "，" or ", " or " and ". */
const CLAUSE_END = /[，,。；;.]|\s+and\s/u;

/**
 * The memory holding the old value, with the new one in its place. The rest of a combined memory
 * stays ("用户叫张三，是后端工程师"), but what went with the old value in its clause goes with it:
 * "a nurse at Swedish hospital" becomes "a school nurse at Lincoln Elementary", or "a teacher",
 * never "a teacher at Swedish hospital".
 */
export function swapValue(old: string, held: string, c: Candidate): string {
  const at = old.indexOf(held);
  const from = c.content.indexOf(c.value);
  // A memory of one clause is the new statement as said.
  if (detectLanguage(old) !== c.lang || at < 0 || from < 0 || !CLAUSE_END.test(old.replace(/[。.!！\s]+$/u, ''))) return c.content;
  const rest = old.slice(at + held.length);
  const end = rest.search(CLAUSE_END);
  const tail = c.content.slice(from + c.value.length).replace(/[。.!！\s]+$/u, '');
  return `${old.slice(0, at)}${c.value}${tail}${end < 0 ? '' : rest.slice(end)}`;
}

/** Whether a memory says one thing ("用户在阿里巴巴做产品经理"), not several ("用户叫张三，是后端工程师"). */
export function oneClause(content: string): boolean {
  return !CLAUSE_END.test(content.replace(/[。.!！\s]+$/u, ''));
}

/**
 * The job memory once the job is over: what was said of it, then the job it was ("用户辞职了（之前在阿里巴巴做产品经理）",
 * "The user is retired (previously a nurse at Swedish hospital)"), so what the user did stays known but not current.
 */
export function formerJob(old: string, c: Candidate): string {
  const held = old.replace(/[。.!！\s]+$/u, '');
  if (c.lang === 'zh') return `${c.content}（之前${held.startsWith('用户') ? held.slice(2) : `：${held}`}）`;
  const was = /^the user (?:is|was|works|worked)(?: as)? (.+)$/i.exec(held);
  return `${c.content} (previously ${was ? was[1] : `: ${held}`})`;
}

/** A dog said by its breed is still the user's dog ("my dog died" of "a golden retriever named Biscuit"). */
const DOGS = /^(?:dog|puppy|golden retriever|retriever|labrador|poodle|corgi|husky|beagle|terrier|狗狗|小狗|狗|金毛|柯基|泰迪|哈士奇)$/u;

/**
 * Whether a pet memory's value ("猫:咪咪", "golden retriever:Biscuit") is the pet said to have died:
 * by its name ("我的猫咪咪" holds "咪咪", however the kind and the name were split), or by its
 * kind when no name was said ("my dog died").
 */
export function samePet(value: string, lost: NonNullable<Candidate['lost']>): boolean {
  const [kind = '', name = ''] = value.split(':');
  const said = `${lost.kind ?? ''}${lost.name ?? ''}`.toLowerCase();
  if (name !== '' && lost.name !== undefined) return said.includes(name.toLowerCase());
  if (lost.kind === undefined) return false;
  const k = kind.toLowerCase();
  return k.includes(lost.kind) || lost.kind.includes(k) || said.includes(k) || (DOGS.test(lost.kind) && DOGS.test(k));
}
