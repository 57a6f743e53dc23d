import { toSimplified } from './simplified.js';

/**
 * Whether a text mentions a topic: as written, ignoring case, and for a topic that begins or ends
 * with a letter or digit of a spaced script, only as whole words: forgetting "ex" must not take
 * "next week" with it, nor "Al" "Alice". Chinese and Japanese have no spaces between words, so a
 * topic in them is found anywhere ("前女友" in "用户的前女友叫小美").
 */
export function mentionsTopic(text: string, topic: string): boolean {
  return mentionsAt(text, topic).length > 0;
}

/** Where a text mentions a topic, as `mentionsTopic` finds it: the offsets of each mention. */
export function mentionsAt(text: string, topic: string): number[] {
  const needle = topic.trim().toLowerCase();
  if (needle === '') return [];
  const haystack = text.toLowerCase();
  const startsSpaced = spacedEdge(needle[0]);
  const endsSpaced = spacedEdge(needle.at(-1));
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    if (startsSpaced && spacedEdge(before)) continue;
    if (endsSpaced && spacedEdge(after)) continue;
    found.push(at);
  }
  return found;
}

const spacedEdge = (ch: string | undefined): boolean => ch !== undefined && /[\p{L}\p{N}]/u.test(ch) && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(ch);

/** Someone's, in English, just before a mention: "wife's", "Sarah's", "mom's upcoming" (not "the user's", "one's"). */
const EN_OTHERS_BEFORE = /(?<![\p{L}'’])(?!user['’]s|one['’]s)\p{L}+['’]s\s+(?:\p{L}+\s+)?$/iu;
/** Someone's, in English, just after: "birthday of my wife", "the address of her parents". */
const EN_OTHERS_AFTER = /^\s+of\s+(?:my|the user's|the user’s|his|her|their|\p{Lu}\p{Ll}+['’]s)\s+\p{L}+/u;
/** Someone's, said of what the mention is part of: "a birthday party for his dad", "birthday gift for my wife". */
const EN_FOR_KIN_AFTER = /^(?:\s+\p{L}+){0,2}\s+for\s+(?:my|the user's|the user’s|his|her|their)\s+(?:wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|mom|mum|mother|dad|father|sister|brother|son|daughter|grandma|grandpa|grandmother|grandfather|aunt|uncle|cousin|friend|colleague|coworker|boss)\b/iu;
/** Who, in Chinese, owns what follows without a 的: "用户妈妈生日", "我老婆手机号". */
const ZH_KIN = '(?:妈妈|妈|母亲|爸爸|爸|父亲|妻子|老婆|太太|丈夫|老公|先生|女儿|儿子|孩子|哥哥|姐姐|弟弟|妹妹|男朋友|女朋友|男友|女友|前女友|前男友|前妻|前夫|朋友|同事|老板|领导|奶奶|爷爷|外婆|外公|姥姥|姥爷|室友|同学|老师|邻居)';
const ZH_OTHERS_BEFORE = new RegExp(`(?:(?<!用户|我|你|自己|本人)的|${ZH_KIN})$`, 'u');

/**
 * Whether a text mentions a topic as the user's own, or as nobody's in particular: some mention is
 * not marked as someone else's ("The user's wife's birthday", "Sarah's birthday", "用户妻子的生日",
 * "小美的生日", "用户妈妈生日"). "Forget my birthday" asks for the user's own: "The user's birthday is
 * March 3" and "我的生日是3月3号" go, "The user's wife's birthday is May 5" stays. A "his" or "her"
 * is left as the user's: a memory may speak of the user so.
 */
export function mentionsOwn(text: string, topic: string): boolean {
  const length = topic.trim().length;
  return mentionsAt(text, topic).some((at) => !someoneElsesAt(text, at, length));
}

/** Whether the mention of `length` characters at `at` is marked as someone else's (`mentionsOwn`). */
export function someoneElsesAt(text: string, at: number, length: number): boolean {
  // In simplified characters: "用戶的前女友" is the user's own as "用户的前女友" is.
  const before = toSimplified(text.slice(Math.max(0, at - 40), at));
  const after = text.slice(at + length, at + length + 40);
  if (EN_OTHERS_BEFORE.test(before) || EN_OTHERS_AFTER.test(after) || ZH_OTHERS_BEFORE.test(before)) return true;
  // "my birthday party for my friends" is the user's own: only what nothing marks as the user's is someone's by "for".
  if (EN_FOR_KIN_AFTER.test(after) && !/\b(?:my|user['’]s)\s+$/iu.test(before)) return true;
  // Someone else is who the clause is about, and nothing makes this mention the user's: "The user's wife
  // Anna has a birthday on May 5", "用户给妈妈过生日" (not "The user's birthday…, same as his dad's").
  const clause = before.split(/[.!?。！？；;]/u).at(-1) ?? '';
  if (/(?:\b(?:my|user['’]s|your)\s+|用户的?|我的|你的)$/iu.test(clause)) return false;
  return EN_KIN_IN.test(clause) || ZH_KIN_IN.test(clause);
}

/** Someone of the user's named in a clause (for `someoneElsesAt`). */
const EN_KIN_IN = /\b(?:wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|mom|mum|mother|dad|father|sister|brother|son|daughter|grandma|grandpa|grandmother|grandfather|aunt|uncle|cousin|friend|colleague|coworker|boss)\b/iu;
const ZH_KIN_IN = new RegExp(ZH_KIN, 'u');
