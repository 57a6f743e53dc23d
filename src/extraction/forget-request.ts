import { mentionsTopic } from '../text/mentions.js';
import { REL_ZH } from './heuristic/candidate.js';

/**
 * A user asking, in conversation, that something be forgotten: "忘掉我前女友的事", "把刘强的事都忘了吧",
 * "别记住我前女友的事", "forget what I told you about my ex", "please don't remember anything about
 * Sarah", "delete everything you know about my old job". Only an imperative said to the assistant
 * with a topic of its own counts: "我忘了带钥匙", "别忘了周五还信用卡", "I always forget to call",
 * "don't forget the milk", "forget it" and "forget everything" (the whole user: the page and the
 * CLI ask for that, with a confirmation) are not requests.
 */
export interface ForgetRequest {
  /** What to forget, as the user named it, without "my" / "我的" ("前女友", "ex"). */
  topic: string;
}

const ZH_LEAD = String.raw`(?:(?:好吧|对了|另外|还有|那个|嗯|哦|算了)[，,、\s]*)?(?:请你?|麻烦你?|你?(?:能不能|可不可以|可以|能)|你|帮我|以后|从今以后|从现在起|从现在开始|从今天起|现在)*[，,\s]*`;
const ZH_SAID = String.raw`(?:我?(?:之前|以前|刚才)?(?:跟你|和你|对你|给你)?(?:说过|讲过|提过|提到过|告诉过你|告诉你|说)的|我(?:之前|以前|刚才)?(?:跟你|和你|对你|给你)?(?:说过|讲过|提过|提到过|告诉过你))`;
const ZH_ABOUT = String.raw`(?:关于|有关)`;
const ZH_REQUESTS: readonly RegExp[] = [
  // 忘掉 X / 忘记我说过的关于 X 的事 / 删除关于 X 的记忆
  new RegExp(String.raw`^${ZH_LEAD}(?<verb>忘掉|忘记|忘了|删掉|删除|清除|抹掉)(?<said>${ZH_SAID})?(?<about>${ZH_ABOUT})?(?<topic>.+)$`, 'u'),
  // 把 X 的事都忘掉 / 把 X 忘了吧 ("把作业忘了" is the user forgetting it: 忘了 asks only with 吧, 都 or a thing named as such)
  new RegExp(String.raw`^${ZH_LEAD}把(?<said>${ZH_SAID})?(?<about>${ZH_ABOUT})?(?<topic>.+?)(?<all>都|全都|全部|统统|通通)?(?:从你的记忆(?:里|中)|从记忆(?:里|中))?(?:给我)?(?<verb>忘掉|忘了|忘记|删掉|删了|删除|清除)(?:掉)?(?<ask>吧)?(?:了|啊|哦|呢|吗)*$`, 'u'),
  // 别记住 X / 不要再记着我说的 X
  new RegExp(String.raw`^${ZH_LEAD}(?:别|不要|不用|不必)(?:再)?(?:记住|记着|记录|保存|存)(?<said>${ZH_SAID}|我说的)?(?<about>${ZH_ABOUT})?(?<topic>.+)$`, 'u'),
];
/** What a topic after "忘记/忘了/删除" must look like when nothing else marks the clause as a request. */
const ZH_THING_END = /(?:的事情?|的事儿|的一切|的所有事情?|的记忆|的记录|的信息|的内容|这件事|那件事|那些事|相关的事情?|这个人|那个人|吧)$/u;
const ZH_TOPIC_TAIL = /(?:从你的记忆(?:里|中)|这个人|那个人|从记忆(?:里|中)|(?:那|这)条(?:记忆|记录)?|的?所有的?(?:记忆|记录|事情?|信息|内容)?|信息|的事情?|的事儿|的一切|的所有事情?|相关的?(?:事情?|内容|记忆|信息)?|的记忆|的记录|的信息|的内容|的东西|这件事|那件事|那些事|这些事|都|全都|全部|吧|了|啊|哦|呢|嘛|好吗|行吗|可以吗)+$/u;
const ZH_TOPIC_HEAD = /^(?:我的|我|你|关于|有关|所有|全部|(?:你)?(?:记得|知道|记住)的)+/u;
/** A topic that points instead of naming ("这个", "刚才说的", "她"), the user themself, or a forgotten errand ("忘了吃药吧", "忘记带…"). */
const ZH_PRONOUN = /^(?:刚才|刚才的|刚才说的|上面的|一切|所有|所有的|全部|什么|啥|吃药|带|用户|我自己|自己)$|^(?:它|他|她|这|那)/u;
/** "忘掉烦恼", "忘掉工作吧", "别记着减肥了": comfort or "let it go for now", not a request about memories. */
const ZH_FEELING = /^(?:不开心|不愉快|烦恼|烦心|难过|伤心|痛苦|悲伤|过去|过往|以前|从前|不好|糟糕|失败|压力|工作|上班|加班|学习|考试|作业|减肥|节食|健身|学业|那些|一切)/u;
/** A topic that is a question ("忘掉前女友最好的办法是什么"), a condition or a place things are deleted from ("把刘强从群里删了"). */
const ZH_NOT_A_TOPIC = /什么|怎么|如何|为什么|怎样|办法|方法|吗$|如果|要是|的话|因为|从/u;
/** Deleting needs words about what was told or remembered, or the user's own data: "把抖音删了" uninstalls an app. */
const ZH_DELETE = /^(?:删掉|删了|删除|清除|抹掉)$/u;
const ZH_REMEMBERED = /(?:的事情?|的事儿|记忆|记录|信息|内容|的一切)$/u;
/** "她", "him": who they are, named by a clause before in the same message ("我前女友…，把她的事忘了吧"). */
const ZH_HE_SHE = /^(?:他|她)(?:们)?$/u;
const EN_HE_SHE = /^(?:him|her|them)$/iu;
const ZH_ANTECEDENT = new RegExp(`${REL_ZH}`, 'gu');
const EN_ANTECEDENT = /\bmy\s+((?:ex-?)?(?:girlfriend|boyfriend|wife|husband|partner|fiancée?)|ex|(?:mom|mother|dad|father|sister|brother|son|daughter|boss|coworker|friend)(?:\s+\p{Lu}\p{Ll}+)?)\b/giu;

const EN_LEAD = String.raw`(?:(?:ok(?:ay)?|also|and|so|hey|oh|well|actually|btw|one more thing)[,.!\s]+)*(?:(?:can|could|would|will) you\s+|i (?:want|need|would like|'d like|d like) you to\s+)?(?:please\s+|pls\s+|plz\s+|just\s+)*`;
const EN_SAID = String.raw`(?:(?:everything|anything|all|what|whatever|the (?:stuff|things?)|all (?:the )?(?:stuff|things))\s+(?:(?:that\s+)?i(?:'ve| have)?\s+(?:told|said to|mentioned to|shared with|said)(?:\s+you)?\s+)?)`;
const EN_REQUESTS: readonly RegExp[] = [
  // delete my address from your memory
  new RegExp(String.raw`^${EN_LEAD}(?:delete|erase|remove|wipe|forget)\s+(?<topic>.+?)\s+from\s+(?:your\s+)?(?:memory|memories|records?|notes|database)$`, 'iu'),
  // forget what I told you about X / forget everything about X / forget my ex ("forget about the party" alone is "never mind": BARE_ASKS)
  new RegExp(String.raw`^${EN_LEAD}forget\s+(?<said>${EN_SAID})?(?<about>(?:about|regarding|of)\s+)?(?<topic>.+)$`, 'iu'),
  // don't remember anything about X / stop remembering X
  new RegExp(String.raw`^${EN_LEAD}(?:don'?t|do not|never)\s+(?:remember|keep|store|save)\s+(?:(?<said>anything|everything|what i (?:said|told you))\s+(?<about>(?:about|regarding|on)\s+)?|(?:about|regarding)\s+)(?<topic>.+)$`, 'iu'),
  new RegExp(String.raw`^${EN_LEAD}stop\s+(?:remembering|keeping|storing|saving)\s+(?:(?:anything|everything|what i (?:said|told you))\s+)?(?:(?:about|regarding|on)\s+)?(?<topic>.+)$`, 'iu'),
  // pretend I never told you about X
  new RegExp(String.raw`^${EN_LEAD}pretend (?:that )?i never (?:told you|said|mentioned)(?:\s+anything)?\s+(?<said>about\s+)(?<topic>.+)$`, 'iu'),
  // delete everything you know about X / erase your memories of X
  new RegExp(String.raw`^${EN_LEAD}(?:delete|erase|remove|wipe|purge|clear)\s+(?<said>(?:everything|anything|all|what|whatever)(?:\s+(?:you know|you remember|you have|you've got|you saved|you stored|i told you|i said))?|(?:all\s+)?(?:of\s+)?(?:(?:your|the|my)\s+)?(?:memories|memory|info|information|notes|data))\s+(?<about>(?:about|of|on|regarding)\s+)(?<topic>.+)$`, 'iu'),
];
const EN_TOPIC_TAIL = /(?:[\s,]+(?:please|pls|plz|too|as well|for me|from (?:your )?memory|anymore|any more|ok|okay|thanks|thank you|right now|now|forever|completely|entirely))+$/iu;
const EN_TOPIC_HEAD = /^(?:(?:my|our|the|about|that|this)\s+)+/iu;
const EN_PRONOUN = /^(?:.|it|that|this|them|him|her|those|these|me|myself|us|you|(?:the |a )?users?|everything|all|anything|something|stuff|all that|all of it|all of that|what i said|to\b.*|about it|about that|that i said\b.*)$/iu;
/**
 * "Forget X" with nothing saying it is about what was told: in English mostly "never mind X"
 * ("forget about the party, let's talk about work"), so only what was said ("forget I ever mentioned
 * Sarah") or someone of the past ("forget my ex") asks for it.
 */
const BARE_ASKS = /^(?:about\s+)?(?:(?:that\s+)?i\s+(?:ever\s+|once\s+)?(?:said|told you|mentioned|talked)\b|my\s+(?:ex\b|ex-|former\b|(?:home |email |work )?address\b|(?:phone|cell|mobile)(?: number)?\b|number\b|email\b|birthday\b|password\b|salary\b))/iu;
const EN_NOT_A_TOPIC = /^(?:to|how|what|where|why|when|whether|if)\b|\b(?:if|when|unless|because|until|so that|from my|on my|in my)\b|—|--/iu;

/** The clauses of a message a request may stand alone in. */
function clausesOf(text: string): string[] {
  return text
    .split(/[。！？!?\n；;，,]+|(?<=[a-z])\.\s+/iu)
    .map((c) => c.trim().replace(/[。.!！?？~～…\s]+$/u, ''))
    .filter((c) => c.length > 0);
}

/** Who a pronoun stands for: the last relative (or "my ex") named before the clause. */
function antecedent(before: string, han: boolean): string | undefined {
  const found = [...before.matchAll(han ? ZH_ANTECEDENT : EN_ANTECEDENT)];
  // "我和小美分手了", "Sarah and I broke up": the one the user parted from, by name.
  const parted = han ? /我(?:和|跟)(\p{Script=Han}{1,4}?|\p{Lu}\p{Ll}+)(?:已经)?(?:分手|离婚|闹掰|绝交|吵翻)/u.exec(before) : /\b(\p{Lu}\p{Ll}+) and I (?:broke up|split up|split|divorced|are done|are over|fell out)\b/u.exec(before);
  return found.at(-1)?.[1] ?? parted?.[1];
}

function zhTopic(clause: string, before: string): string | undefined {
  for (const pattern of ZH_REQUESTS) {
    const m = pattern.exec(clause);
    if (!m?.groups) continue;
    const raw = m.groups.topic ?? '';
    // "忘记带伞了" / "删除这个文件": without "我说过的", "关于" or a thing named as such, no request.
    const loose = m.groups.verb === '忘了' || m.groups.verb === '忘记' || (pattern === ZH_REQUESTS[0] && m.groups.verb !== '忘掉');
    const marked = !loose || m.groups.said !== undefined || m.groups.about !== undefined || m.groups.all !== undefined || m.groups.ask !== undefined;
    if (!marked && !ZH_THING_END.test(raw) && !/^我的/u.test(raw)) continue;
    // "你忘了刘强吧" reproaches; "忘了刘强吧" alone asks.
    if (pattern === ZH_REQUESTS[0] && /^你忘了/u.test(clause) && m.groups.said === undefined && m.groups.about === undefined) continue;
    if (ZH_DELETE.test(m.groups.verb ?? '') && m.groups.said === undefined && m.groups.about === undefined && !ZH_REMEMBERED.test(raw) && !/^我/u.test(raw)) continue;
    let topic = raw.replace(ZH_TOPIC_TAIL, '').replace(ZH_TOPIC_HEAD, '').replace(/^[“"「『]|[”"」』]$/gu, '').trim();
    if (ZH_HE_SHE.test(topic)) topic = antecedent(before, true) ?? topic;
    // "忘掉工作吧" lets work go; "删掉你记得的关于我工作的事" means what was told about it.
    const explicit = m.groups.said !== undefined || m.groups.about !== undefined || /关于|有关|说过|记得|知道|记忆|记录/u.test(raw);
    if (topic === '' || ZH_PRONOUN.test(topic) || (ZH_FEELING.test(topic) && !explicit) || ZH_NOT_A_TOPIC.test(topic) || topic.length > 30) continue;
    return topic;
  }
  return undefined;
}

function enTopic(clause: string, before: string): string | undefined {
  for (const pattern of EN_REQUESTS) {
    const m = pattern.exec(clause);
    if (!m?.groups) continue;
    let topic = (m.groups.topic ?? '').trim();
    const bare = pattern === EN_REQUESTS[1] && m.groups.said === undefined && !BARE_ASKS.test(`${m.groups.about ?? ''}${topic}`);
    // "forget what I said about X": the said-part may also come after the verb's object.
    topic = topic.replace(/^(?:(?:what|that|everything)\s+)?i\s+(?:ever\s+|once\s+|have\s+|'ve\s+)?(?:said|told you|mentioned|talked)\s+(?:about\s+)?/iu, '');
    topic = topic.replace(EN_TOPIC_TAIL, '').replace(/[,.;:!?\s]+$/u, '').replace(EN_TOPIC_HEAD, '').replace(/^["'“‘]|["'”’]$/gu, '').trim();
    // "my girlfriend and I split up, forget about her": someone just named, not "never mind".
    const named = EN_HE_SHE.test(topic) ? antecedent(before, false) : undefined;
    if (bare && named === undefined) continue;
    topic = named ?? topic;
    if (topic === '' || EN_PRONOUN.test(topic) || EN_NOT_A_TOPIC.test(topic) || topic.split(/\s+/u).length > 6) continue;
    return topic;
  }
  return undefined;
}

/** What may stand beside a request in its message: thanks, "please", "别再提了", a reason of feeling. */
const ASIDE =
  /^(?:(?:好的?|好吧|行|嗯|哦|唉|哎|谢谢你?|谢了|多谢|拜托了?|麻烦了|求你了|算了|另外|还有|对了|那个|ok(?:ay)?|thanks?(?: you)?|thx|please|pls|also|and|so|well|oh|hey|sorry|one more thing)[\s，,.!！~]*)+$|^(?:以后)?(?:别|不要|不用)再?(?:提|说|聊)(?:了|起)?|^(?:i )?(?:don't|do not) want to (?:talk|think|hear) about (?:it|this|that|them|him|her)|^(?:(?:it's|it is|this is) )?(?:too )?(?:painful|private|embarrassing|personal)/iu;
/** A question: "忘掉前女友最好的办法是什么？", "how do I forget my ex?" ("can you forget my ex?" asks). */
const ASKS_US = /^(?:\S+\s+)?(?:can|could|would|will) you\b|^(?:你)?(?:能不能|可不可以|能|可以)/iu;

/**
 * The request to forget a topic in a user's message, or undefined when it makes none. The request
 * must be what the message is about: every other clause is an aside (thanks, "别再提了") or speaks of
 * the topic ("我和前男友分手了。忘掉他吧"). "Forget what I told you about the party, it's moved to
 * Sunday" and "忘掉我之前说的住址，我搬家了" correct a memory, and "忘掉工作吧，周末就该好好玩" says relax:
 * none of them erases anything.
 */
export function readForgetRequest(text: string): ForgetRequest | undefined {
  if (text.length > 400) return undefined;
  const clauses = clausesOf(text);
  for (const [i, clause] of clauses.entries()) {
    const before = clauses.slice(0, i).join('，');
    const han = /\p{Script=Han}/u.test(clause.slice(0, 12));
    const topic = han ? zhTopic(clause, before) : enTopic(clause.replace(/[’]/gu, "'"), before);
    if (topic === undefined) continue;
    if (asksAQuestion(text, clause) && !ASKS_US.test(clause)) return undefined;
    const others = clauses.filter((_, j) => j !== i);
    const aside = (c: string): boolean => ASIDE.test(c) || mentionsTopic(c, topic) || (antecedent(c, han) !== undefined && /[他她]|\b(?:him|her)\b/iu.test(clause));
    return others.every(aside) ? { topic } : undefined;
  }
  return undefined;
}

/** Whether the clause, as written in the text, ends on a question mark or a question particle. */
function asksAQuestion(text: string, clause: string): boolean {
  const at = text.indexOf(clause);
  const after = at < 0 ? '' : text.slice(at + clause.length).trimStart();
  return /^[?？]/u.test(after) || /[吗呢]$/u.test(clause);
}
