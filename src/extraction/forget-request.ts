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

const ZH_LEAD = String.raw`(?:(?:好吧|对了|另外|还有|那个|嗯|哦|算了)[，,、\s]*)?(?:请你?|麻烦你?|你(?:能不能|可不可以|可以|能)?|帮我|以后|从今以后|从现在起|从现在开始|从今天起|现在)*[，,\s]*`;
const ZH_SAID = String.raw`(?:我(?:之前|以前|刚才)?(?:跟你|和你|对你|给你)?(?:说过|讲过|提过|提到过|告诉过你|告诉你)的?)`;
const ZH_ABOUT = String.raw`(?:关于|有关)`;
const ZH_REQUESTS: readonly RegExp[] = [
  // 忘掉 X / 忘记我说过的关于 X 的事 / 删除关于 X 的记忆
  new RegExp(String.raw`^${ZH_LEAD}(?<verb>忘掉|忘记|忘了|删掉|删除|清除|抹掉)(?<said>${ZH_SAID})?(?<about>${ZH_ABOUT})?(?<topic>.+)$`, 'u'),
  // 把 X 的事都忘掉 / 把 X 忘了吧 ("把作业忘了" is the user forgetting it: 忘了 asks only with 吧, 都 or a thing named as such)
  new RegExp(String.raw`^${ZH_LEAD}把(?<said>${ZH_SAID})?(?<about>${ZH_ABOUT})?(?<topic>.+?)(?<all>都|全都|全部|统统|通通)?(?:从你的记忆(?:里|中)|从记忆(?:里|中))?(?:给我)?(?<verb>忘掉|忘了|忘记|删掉|删了|删除|清除)(?:掉)?(?<ask>吧)?(?:了|啊|哦|呢)*$`, 'u'),
  // 别记住 X / 不要再记着我说的 X
  new RegExp(String.raw`^${ZH_LEAD}(?:别|不要|不用|不必)(?:再)?(?:记住|记着|记录|保存|存)(?<said>${ZH_SAID}|我说的)?(?<about>${ZH_ABOUT})?(?<topic>.+)$`, 'u'),
];
/** What a topic after "忘记/忘了/删除" must look like when nothing else marks the clause as a request. */
const ZH_THING_END = /(?:的事情?|的事儿|的一切|的所有事情?|的记忆|的记录|的信息|的内容|这件事|那件事|那些事|相关的事情?|吧)$/u;
const ZH_TOPIC_TAIL = /(?:从你的记忆(?:里|中)|从记忆(?:里|中)|的事情?|的事儿|的一切|的所有事情?|相关的?(?:事情?|内容|记忆|信息)?|的记忆|的记录|的信息|的内容|的东西|这件事|那件事|那些事|这些事|都|全都|全部|吧|了|啊|哦|呢|嘛|好吗|行吗|可以吗)+$/u;
const ZH_TOPIC_HEAD = /^(?:我的|我|你|关于|有关)+/u;
const ZH_PRONOUN = /^(?:刚才|刚才的|刚才说的|上面的|一切|所有|所有的|全部|什么|啥|吃药|带|用户|我自己|自己)$|^(?:它|他|她|这|那)/u;
/** "忘掉烦恼", "忘掉不开心的事": comfort, not a request about memories. */
const ZH_FEELING = /^(?:不开心|不愉快|烦恼|烦心|难过|伤心|痛苦|悲伤|过去|过往|以前|从前|不好|糟糕|失败|压力)/u;
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
  new RegExp(String.raw`^${EN_LEAD}(?:don'?t|do not|never)\s+(?:remember|keep|store|save)\s+(?:(?<said>anything|everything|what i (?:said|told you))\s+(?<about>(?:about|regarding|on)\s+)?|(?<about2>(?:about|regarding)\s+))(?<topic>.+)$`, 'iu'),
  new RegExp(String.raw`^${EN_LEAD}stop\s+(?:remembering|keeping|storing|saving)\s+(?:(?:anything|everything|what i (?:said|told you))\s+)?(?:(?:about|regarding|on)\s+)?(?<topic>.+)$`, 'iu'),
  // delete everything you know about X / erase your memories of X
  new RegExp(String.raw`^${EN_LEAD}(?:delete|erase|remove|wipe|purge|clear)\s+(?<said>(?:everything|anything|all|what|whatever)(?:\s+(?:you know|you remember|you have|you've got|you saved|you stored|i told you|i said))?|(?:all\s+)?(?:of\s+)?(?:your|the|my)\s+(?:memories|memory|info|information|notes|data))\s+(?<about>(?:about|of|on|regarding)\s+)(?<topic>.+)$`, 'iu'),
];
const EN_TOPIC_TAIL = /(?:[\s,]+(?:please|pls|plz|too|as well|for me|from (?:your )?memory|anymore|any more|ok|okay|thanks|thank you|right now|now|forever|completely|entirely))+$/iu;
const EN_TOPIC_HEAD = /^(?:(?:my|our|the|about|that|this)\s+)+/iu;
const EN_PRONOUN = /^(?:.|it|that|this|them|him|her|those|these|me|myself|us|you|(?:the |a )?users?|everything|all|anything|something|stuff|all that|all of it|all of that|what i said|to\b.*|about it|about that|that i said\b.*)$/iu;
/**
 * "Forget X" with nothing saying it is about what was told: in English mostly "never mind X"
 * ("forget about the party, let's talk about work"), so only what was said ("forget I ever mentioned
 * Sarah") or someone of the past ("forget my ex") asks for it.
 */
const BARE_ASKS = /^(?:about\s+)?(?:(?:that\s+)?i\s+(?:ever\s+|once\s+)?(?:said|told you|mentioned|talked)\b|my\s+(?:ex\b|ex-|former\b))/iu;
const EN_NOT_A_TOPIC = /^(?:to|how|where|why|when|whether|if)\b/iu;

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
  return found.at(-1)?.[1];
}

function zhTopic(clause: string, before: string): string | undefined {
  for (const pattern of ZH_REQUESTS) {
    const m = pattern.exec(clause);
    if (!m?.groups) continue;
    const raw = m.groups.topic ?? '';
    // "忘记带伞了" / "删除这个文件": without "我说过的", "关于" or a thing named as such, no request.
    const loose = m.groups.verb === '忘了' || m.groups.verb === '忘记' || (pattern === ZH_REQUESTS[0] && m.groups.verb !== '忘掉');
    const marked = !loose || m.groups.said !== undefined || m.groups.about !== undefined || m.groups.all !== undefined || m.groups.ask !== undefined;
    if (!marked && !ZH_THING_END.test(raw)) continue;
    let topic = raw.replace(ZH_TOPIC_TAIL, '').replace(ZH_TOPIC_HEAD, '').replace(/^[“"「『]|[”"」』]$/gu, '').trim();
    if (ZH_HE_SHE.test(topic)) topic = antecedent(before, true) ?? topic;
    if (topic === '' || ZH_PRONOUN.test(topic) || ZH_FEELING.test(topic) || topic.length > 30) continue;
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

/** The request to forget a topic in a user's message, or undefined when it makes none. */
export function readForgetRequest(text: string): ForgetRequest | undefined {
  if (text.length > 400) return undefined;
  const clauses = clausesOf(text);
  for (const [i, clause] of clauses.entries()) {
    const before = clauses.slice(0, i).join('，');
    const topic = /\p{Script=Han}/u.test(clause.slice(0, 12)) ? zhTopic(clause, before) : enTopic(clause.replace(/[’]/gu, "'"), before);
    if (topic !== undefined) return { topic };
  }
  return undefined;
}
