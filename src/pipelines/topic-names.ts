import { REL_ZH } from '../extraction/heuristic/candidate.js';
import { mentionsAsMeant } from '../extraction/forget-aliases.js';
import { ZH_NAME } from '../extraction/forget-request.js';
import { continuesInto, longerNames, wordAt } from '../text/longer-names.js';
import { mentionsAt } from '../text/mentions.js';
import type { FootprintOptions } from './forget.js';

/**
 * The names the forgotten memories give the topic: "用户的前女友叫小美" names 前女友 小美, "The user's ex is
 * named Sarah" and "The user's ex, Sarah, …" name "ex" Sarah. Forgetting "my ex" is forgetting Sarah:
 * "小美喜欢吃日料" would otherwise keep coming back as an excerpt.
 */
export function namesOfTopic(topic: string, contents: readonly string[]): string[] {
  const t = topic.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  // Only a name given as a name: "叫", "named", "called", or set off by commas ("The user's ex, Sarah,
  // …"). "是" and "is" give what someone is as often ("用户的前女友是护士", "The user's ex is
  // Canadian", "The user's birthday is March 3"), and forgetting that word everywhere erased others.
  const patterns = [
    new RegExp(`${t}(?:的名字)?(?:叫做?|名叫)([\\p{Script=Han}]{2,4}?|\\p{Lu}\\p{Ll}+)(?=[，。,、；;\\s]|$|[是在和也今去喜])`, 'u'),
    new RegExp(`\\b${t}\\b(?:,\\s+|\\s+(?:is\\s+)?(?:named|called)\\s+)(\\p{Lu}\\p{Ll}+)`, 'u'),
  ];
  const names = new Set<string>();
  for (const content of contents) {
    for (const re of patterns) {
      const name = re.exec(content)?.[1];
      if (name && name !== topic && !/^(?:The|User|They|He|She|用户)$/u.test(name)) names.add(name);
    }
  }
  return [...names];
}

/** Who else a name may belong to, said right before it: "daughter Sarah", "my friend Sarah", "妹妹叫小美", "同事小美". */
const EN_SOMEONE = '(?:ex-?)?(?:girlfriend|boyfriend|wife|husband|partner|fianc[ée]e?|friend|coworker|co-worker|colleague|boss|manager|brother|sister|mom|mum|mother|dad|father|son|daughter|cousin|aunt|uncle|niece|nephew|grandma|grandpa|grandmother|grandfather|neighbou?r|roommate|classmate|teacher|doctor|dog|cat|puppy|kitten|song|band|book|movie|brand)';
const ZH_SOMEONE = `(?:${REL_ZH.slice(1, -1)}|朋友|同事|同学|老板|领导|室友|邻居|老师|医生|狗|猫|宠物)`;
const EN_ELSE_BEFORE = new RegExp(`\\b(${EN_SOMEONE})(?:,?\\s+(?:is\\s+)?(?:named|called)|,)?\\s+["'‘“]?$`, 'iu');
const ZH_ELSE_BEFORE = new RegExp(`(${ZH_SOMEONE})(?:的名字)?(?:叫做?|名叫|是)?[“"「]?$`, 'u');

/**
 * Whether a text mentions `name` as the one `topic` names ("Sarah" of "ex"): some mention is the
 * name as written (a capitalized name: "Will" is not "will", "Al" not "AL"), a word of its own in
 * Chinese by ICU's segmentation ("小王" is not in "小王子") and not the beginning of a longer name
 * the user's texts give someone else (`others`, from `longerNames`: "刘强东", which ICU splits
 * 刘|强|东, is not 刘强), and not someone else of that name ("The user's daughter Sarah", "用户的妹妹叫
 * 小美", the song "Sarah").
 */
export function mentionsName(text: string, name: string, topic?: string, others: readonly string[] = []): boolean {
  const han = /\p{Script=Han}/u.test(name);
  const topicWord = topic?.toLowerCase();
  return mentionsAt(text, name).some((at) => {
    if (!han && /^\p{Lu}/u.test(name) && text.slice(at, at + name.length) !== name) return false;
    if (han && (!wordAt(text, at, name.length) || continuesInto(text, at, others))) return false;
    // Someone else of that name: only when the name stands for a topic ("forget Sarah" itself may mean the daughter).
    if (topicWord === undefined) return true;
    const before = text.slice(Math.max(0, at - 30), at);
    const other = (han ? ZH_ELSE_BEFORE : EN_ELSE_BEFORE).exec(before)?.[1];
    return other === undefined || other.toLowerCase() === topicWord;
  });
}

/**
 * Whether a text that mentions the term mentions it as the footprint means it (the topic itself, the
 * user's own, the one so named); `others` are the longer names the term begins that are someone
 * else's (`longerNames`).
 */
export function meantIn(text: string, term: string, options: FootprintOptions, others: readonly string[] = []): boolean {
  if (options.nameOf !== undefined) return mentionsName(text, term, options.nameOf, others);
  // A name asked for itself ("forget Will", "忘掉小王吧"): as written, a word of its own, not the start of another's.
  if (nameLike(term.trim()) && !mentionsName(text, term.trim(), undefined, others)) return false;
  return mentionsAsMeant(text, term, { own: options.own === true });
}

/** A Chinese name ("刘强", "小美"): one that may begin someone else's longer name (`longerNames`). */
export const chineseName = (term: string): boolean => ZH_NAME.test(term.trim());

/**
 * Whether some text names a topic as itself: for a Chinese name, as a word of its own and not only
 * as the beginning of a longer name the texts use ("刘强" is not named by "我在读刘强东的自传"); any
 * other topic wherever it is mentioned (`mentionsTopic`).
 */
export function namedIn(texts: readonly string[], topic: string): boolean {
  const t = topic.trim();
  if (!chineseName(t)) return texts.some((text) => mentionsAt(text, t).length > 0);
  const others = longerNames(t, texts);
  return texts.some((text) => mentionsAt(text, t).some((at) => wordAt(text, at, t.length) && !continuesInto(text, at, others)));
}

/** A term shaped as a name: "Sarah", "Sarah Lee", "小美", "老王", "刘强" (a common surname and one or two more). */
const LATIN_NAME = /^\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)?$/u;
const nameLike = (term: string): boolean => LATIN_NAME.test(term) || ZH_NAME.test(term);
