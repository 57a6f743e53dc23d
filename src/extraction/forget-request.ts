import { mentionsTopic } from '../text/mentions.js';
import { REL_ZH } from './heuristic/candidate.js';
import { forgetAliases } from './forget-aliases.js';
import { toSimplified } from '../text/simplified.js';
import { ZH_LEAD } from './forget-leads.js';
import { readSaidWhen, type SaidWhen } from './forget-when.js';
import { EN_TIME, enAntecedent, enRequestTopic } from './forget-request-en.js';

/**
 * A user asking, in conversation, that something be forgotten: "忘掉我前女友的事", "把刘强的事都忘了吧",
 * "别记住我前女友的事", "就当我没说过刘强的事", "forget what I told you about my ex", "please don't
 * remember anything about Sarah", "delete everything you know about my old job", "Forget Sarah.".
 * Only an imperative said to the assistant with a topic of its own counts: "我忘了带钥匙", "别忘了周五还信用卡", "I always forget to call",
 * "don't forget the milk", "forget it" and "forget everything" (the whole user: the page and the
 * CLI ask for that, with a confirmation) are not requests.
 */
export interface ForgetRequest {
  /** What to forget, as the user named it, without "my" / "我的" ("前女友", "ex"). */
  topic: string;
  /**
   * What was said at a time, not a topic ("forget everything I told you yesterday", "忘掉我昨天说的话"):
   * the messages of that time go, and the memories drawn from them alone; `topic` is the time as said.
   */
  when?: SaidWhen;
  /** More of the user's own named with it ("forget my birthday and my address": address): forgotten alike. */
  alsoTopics?: string[];
  /** Said as the user's own ("my birthday", "我的生日", "我前女友"): what is someone else's is left (`mentionsOwn`). */
  own?: true;
  /**
   * Someone else's thing ("forget my wife's birthday", "忘掉我老婆的生日"): whose, as said ("wife",
   * "老婆"); only the topic as theirs is forgotten (`mentionedAsTheirs`), the user's own stays.
   */
  of?: string;
  /**
   * Read from a bare name ("forget sarah", "Forget Sarah."), which is also how "never mind X" is
   * said: acted on only when a memory names someone so (`forgetAsked`).
   */
  bareName?: true;
}

const ZH_SAID = String.raw`(?:我?(?:之前|以前|刚才)?(?:跟你|和你|对你|给你)?(?:说过|讲过|提过|提到过|告诉过你|告诉你|说)的|我(?:之前|以前|刚才)?(?:跟你|和你|对你|给你)?(?:说过|讲过|提过|提到过|告诉过你))`;
const ZH_ABOUT = String.raw`(?:关于|有关)`;
const ZH_REQUESTS: readonly RegExp[] = [
  // 忘掉 X / 忘记我说过的关于 X 的事 / 删除关于 X 的记忆
  new RegExp(String.raw`^${ZH_LEAD}(?<verb>忘掉|忘记|忘了|删掉|删除|清除|抹掉)(?<off>掉)?(?<said>${ZH_SAID})?(?<about>${ZH_ABOUT})?(?<topic>.+)$`, 'u'),
  // 把 X 的事都忘掉 / 把 X 忘了吧 ("把作业忘了" is the user forgetting it: 忘了 asks only with 吧, 都 or a thing named as such)
  new RegExp(String.raw`^${ZH_LEAD}把(?<said>${ZH_SAID})?(?<about>${ZH_ABOUT})?(?<topic>.+?)(?<all>都|全都|全部|统统|通通)?(?:从你的记忆(?:里|中)|从记忆(?:里|中))?(?:给我)?(?<verb>忘掉|忘了|忘记|删掉|删了|删除|清除)(?:掉)?(?<ask>吧)?(?:了|啊|哦|呢|吗)*$`, 'u'),
  // 别记住 X / 不要再记着我说的 X / 我不想让你记得 X ("你还记得…吗" asks what is remembered; "记得" is also
  // an errand's "remember to": "不用记得带伞" asks only of the user's own or a thing named as such)
  new RegExp(String.raw`^${ZH_LEAD}(?:别|不要|不用|不必|我不想让?你|我不希望你|我不要你)(?:再)?(?<verb>记住|记着|记得|记录|保存|存)(?<said>${ZH_SAID}|我说的)?(?<about>${ZH_ABOUT})?(?<topic>.+)$`, 'u'),
];
/**
 * "就当我没说过刘强的事", "刘强的事你就当没听过吧": taking back what was told. Only of a thing named as
 * such (的事, 这个人): "就当我没说过" alone takes back the last sentence, like "forget it", and "这事你
 * 就当不知道" asks to keep a secret, not to forget.
 */
const ZH_UNSAID = String.raw`(?:我(?:从来)?没有?(?:跟你|和你|对你)?(?:说过|提过|讲过|提起过|告诉过你))`;
const ZH_UNHEARD = String.raw`(?:(?:从来)?没有?(?:听(?:过|说过|见过|到过)))`;
const ZH_NAMED_THING = String.raw`(?:的事情?|的事儿|的一切|这件事|那件事|这个人|那个人)`;
const ZH_PRETEND_AFTER = new RegExp(String.raw`^${ZH_LEAD}就?当(?:作|做|成)?${ZH_UNSAID}(?<topic>.+?${ZH_NAMED_THING})(?:吧|了|啊|哦|好了)*$`, 'u');
const ZH_PRETEND_BEFORE = new RegExp(String.raw`^(?<topic>.+?${ZH_NAMED_THING})(?:你|以后)*就?当(?:作|做|成)?(?:${ZH_UNHEARD}|${ZH_UNSAID})(?:吧|了|啊|哦|好了)*$`, 'u');
/**
 * The thing first, then the asking: "前女友的事忘了吧", "刘强的事都删掉", "前女友的事就别记着了". Only of a
 * thing named as such; "忘了" asks only with 吧 or 都 ("刘强的事忘了" may say the user forgot it).
 */
const ZH_THING_FIRST = new RegExp(
  String.raw`^(?!把)(?<topic>.+?${ZH_NAMED_THING})(?:你|以后)*(?:就|也)?(?:(?<all>都|全都|全部|统统|通通)?(?:给我)?(?<verb>忘掉|忘了|忘记|删掉|删了|删除|清除|抹掉)(?:掉)?(?<ask>吧)?|(?:就|也)?(?:别|不要|不用)再?(?:记住|记着|记得|留着|存着))(?:了|啊|哦|好了)*$`,
  'u',
);

/** What a topic after "忘记/忘了/删除" must look like when nothing else marks the clause as a request. */
const ZH_THING_WORDS = String.raw`的事情?|的事儿|的一切|的所有事情?|的记忆|的记录|的信息|的内容|这件事|那件事|那些事|相关的事情?|这个人|那个人`;
const ZH_THING_END = new RegExp(`(?:${ZH_THING_WORDS}|吧)$`, 'u');
const ZH_TOPIC_TAIL = /(?:从你的记忆(?:里|中)|这个人|那个人|从记忆(?:里|中)|(?:那|这)条(?:记忆|记录)?|的?所有的?(?:记忆|记录|事情?|信息|内容)?|信息|的事情?|的事儿|的一切|的所有事情?|相关的?(?:事情?|内容|记忆|信息)?|的记忆|的记录|的信息|的内容|的东西|这件事|那件事|那些事|这些事|都|全都|全部|吧|了|啊|哦|呢|嘛|好吗|行吗|可以吗)+$/u;
const ZH_TOPIC_HEAD = /^(?:我的|我(?:和|跟|与)|我|你|关于|有关|所有|全部|(?:你)?(?:记得|知道|记住)的)+/u;
/** A topic that points instead of naming ("这个", "刚才说的", "她", "我说过的话"), the user themself, or a forgotten errand ("忘了吃药吧", "忘记带…"). */
const ZH_PRONOUN = /^(?:刚才|刚才的|刚才说的|上面的|一切|所有|所有的|全部|什么|啥|话|事|事情|事儿|东西|吃药|带|用户|我自己|自己)$|^(?:它|他|她|这|那)/u;
/** "忘掉烦恼", "忘掉工作吧", "别记着减肥了": comfort or "let it go for now", not a request about memories. */
const ZH_FEELING = /^(?:不开心|不愉快|烦恼|烦心|难过|伤心|痛苦|悲伤|过去|过往|以前|从前|不好|糟糕|失败|压力|工作|上班|加班|学习|考试|作业|减肥|节食|健身|学业|那些|一切)/u;
/** A topic that is a question ("忘掉前女友最好的办法是什么"), a condition or a place things are deleted from ("把刘强从群里删了"). */
const ZH_NOT_A_TOPIC = /什么|怎么|如何|为什么|怎样|办法|方法|吗$|如果|要是|的话|因为|从/u;
/**
 * A time is no topic: "忘掉昨天的事吧" lets yesterday go, and forgetting the word 昨天 would erase every
 * turn that says it, not what was said that day.
 */
const ZH_TIME = /^(?:昨天|昨晚|今天|今早|今晚|前天|那天|当天|上周|上星期|上礼拜|上个?月|去年|前年|刚才|之前|以前|早上|晚上|上午|下午|最近|这几天|那几天)$/u;
/** Whether a topic is a time ("昨天", "last night"), which no forgetting by topic may take (a model's included). */
export function namesATime(topic: string): boolean {
  const t = topic.trim();
  return ZH_TIME.test(toSimplified(t)) || EN_TIME.test(t);
}
/** Deleting needs words about what was told or remembered, or the user's own data: "把抖音删了" uninstalls an app. */
const ZH_DELETE = /^(?:删掉|删了|删除|清除|抹掉)$/u;
const ZH_REMEMBERED = /(?:的事情?|的事儿|记忆|记录|信息|内容|的一切)$/u;
/** "她", "him": who they are, named by a clause before in the same message ("我前女友…，把她的事忘了吧"). */
const ZH_HE_SHE = /^(?:他|她)(?:们)?$/u;
/** Someone's words or advice, reported right after their name: "张医生说我要少吃糖，忘了他吧" says pay him no mind. */
const ZH_QUOTED = /^\p{Script=Han}{0,3}?(?:说|让我|叫我|要我|建议|劝我)/u;
const ZH_ANTECEDENT = new RegExp(`${REL_ZH}`, 'gu');
/** Common surnames, for someone named by surname and title ("王总", "李老师"); the same as the heuristic extractor's. */
const ZH_SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
/** "王总", "李老师", "张医生"; 总 is no title in a word it begins ("地方总是下雨": 总是, 总算, 总之). */
const ZH_TITLED = new RegExp(String.raw`([${ZH_SURNAMES}](?:总监|总(?![是算之共归体结数额部统裁觉会得要能])|老师|医生|大夫|经理|主任|老板|律师|教授|师傅|主管|处长|局长|科长|部长|校长|院长|教练|警官))`, 'gu');

/** The clauses of a message a request may stand alone in. */
function clausesOf(text: string): string[] {
  return text
    .split(/[。！？!?\n；;，,]+|(?<=[a-z\d)"'”’])\.\s+/iu)
    .map((c) => c.trim().replace(TRAILING, ''))
    .filter((c) => c.length > 0);
}

/**
 * What trails a clause and says nothing of its topic: punctuation, emoji, laughter and a "please"
 * ("forget my ex 😡", "forget my ex lol", "忘掉我前女友的事 please", "忘掉我昨天说的话😭"); left on, it
 * made the topic "ex 😡", matched as words ("ex" alone: ex-colleague, Ex-Lax) or nothing at all.
 */
const TRAILING = /(?:[\s。.!！?？~～…]|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\u200d|\ufe0f|(?<=\s|\p{Script=Han}|^)(?:lol|lmao|haha+|hehe|please|pls|plz|thx|thanks)\b|哈哈+|呵呵+|嘿嘿+|呜呜+)+$/iu;

/**
 * Who 他/她 stands for: the last relative ("我前女友") or surname and title ("我老板王总") named before
 * the clause, or the one the user parted from; no one when their words are reported ("张医生说…").
 */
/** A thing named as such, not just let go ("忘了昨天吧"): "刘强的事", "前女友的一切", "这个人". */
const ZH_THING_AS_SUCH = new RegExp(`(?:${ZH_THING_WORDS}|信息|资料)吧?$`, 'u');
const ZH_RELATIVE = new RegExp(`^(?:${REL_ZH})$`, 'u');
const ZH_TITLED_ALONE = new RegExp(`^${ZH_TITLED.source}$`, 'u');
/** "刘强", "张伟伟", "小美", "老王", "阿强". */
export const ZH_NAME = new RegExp(String.raw`^[${ZH_SURNAMES}]\p{Script=Han}{1,2}$|^[小老阿]\p{Script=Han}$`, 'u');

/** Whether a topic names someone: a relative or partner ("前女友", "妈妈"), a titled surname ("王总"), a name ("刘强", "小美", "Sarah"). */
function zhSomeone(topic: string): boolean {
  return ZH_RELATIVE.test(topic) || /^前(?:任|女友|男友|夫|妻)/u.test(topic) || ZH_TITLED_ALONE.test(topic) || ZH_NAME.test(topic) || /^\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)?$/u.test(topic);
}

function zhAntecedent(before: string): string | undefined {
  // Someone else's ("我妹妹的男朋友", "我爸的朋友"): neither the possessor nor the possessed is who "他" is.
  const own = (m: RegExpMatchArray): boolean => before[m.index! + m[0].length] !== '的' && !/(?<!我)的$/u.test(before.slice(0, m.index));
  const named = [...before.matchAll(ZH_ANTECEDENT), ...before.matchAll(ZH_TITLED)].filter(own).sort((a, b) => a.index - b.index).at(-1);
  if (named && ZH_QUOTED.test(before.slice(named.index + named[0].length))) return undefined;
  // "我和小美分手了": the one the user parted from, by name.
  const parted = /我(?:和|跟)(\p{Script=Han}{1,4}?|\p{Lu}\p{Ll}+)(?:已经)?(?:分手|离婚|闹掰|绝交|吵翻)/u.exec(before);
  return named?.[1] ?? parted?.[1];
}

/** "我老婆的生日", "我妈的电话号码", "关于我女儿的学校": someone of the user's and a thing of theirs. */
const ZH_THEIRS = /^(?:关于|有关)?我的?(?<of>妻子|老婆|太太|爱人|媳妇|老公|丈夫|妈妈|老妈|母亲|妈|爸爸|老爸|父亲|爸|儿子|女儿|姐姐|妹妹|哥哥|弟弟|女朋友|男朋友|女友|男友|未婚妻|未婚夫|老板|领导|上司|奶奶|外婆|姥姥|爷爷|外公|姥爷|前女友|前男友|前妻|前夫|前任)(?<de>的)?(?<thing>.+)$/u;

/**
 * The thing of someone's a request names ("生日" of "我老婆的生日", "我老婆生日"), or undefined when it
 * names them alone ("我老婆的事", "我前女友的记忆") or by name ("我前男友刘强的事": 刘强 is him).
 */
function zhTheirs(raw: string): { topic: string; of: string } | undefined {
  const m = ZH_THEIRS.exec(raw.replace(ZH_TOPIC_TAIL, ''))?.groups;
  if (!m) return undefined;
  const thing = (m.thing ?? '').trim();
  if (thing.length === 0 || thing.length > 10 || ZH_PRONOUN.test(thing) || ZH_TIME.test(thing) || ZH_NOT_A_TOPIC.test(thing) || /^(?:话|事|的事|一切)/u.test(thing)) return undefined;
  if (m.de === undefined && (ZH_NAME.test(thing) || zhSomeone(thing))) return undefined;
  return { topic: thing, of: m.of ?? '' };
}

function zhTopic(clause: string, before: string): { topic: string; own: boolean; of?: string } | undefined {
  for (const pattern of ZH_REQUESTS) {
    const m = pattern.exec(clause);
    if (!m?.groups) continue;
    const raw = m.groups.topic ?? '';
    // "忘记带伞了" / "删除这个文件": without "我说过的", "关于" or a thing named as such, no request.
    // "忘记掉刘强吧" is "忘掉": the 掉 makes it deliberate.
    const loose = m.groups.off === undefined && (m.groups.verb === '忘了' || m.groups.verb === '忘记' || m.groups.verb === '记得' || (pattern === ZH_REQUESTS[0] && m.groups.verb !== '忘掉'));
    const marked = !loose || m.groups.said !== undefined || m.groups.about !== undefined || m.groups.all !== undefined || m.groups.ask !== undefined;
    if (!marked && !ZH_THING_END.test(raw) && !/^我的/u.test(raw) && !(m.groups.verb === '记得' && /^我/u.test(raw)) && !(ZH_DELETE.test(m.groups.verb ?? '') && zhTheirs(raw))) continue;
    // "帮我忘掉我前女友" asks for help getting over her, as "help me forget my ex" does: no request of us (deleting still is).
    if (/^(?:请你?|麻烦你?|你)?帮我/u.test(clause) && /^(?:忘掉|忘记|忘了)$/u.test(m.groups.verb ?? '')) continue;
    // "你忘了刘强吧" reproaches; "忘了刘强吧" alone asks.
    if (pattern === ZH_REQUESTS[0] && /^你忘了/u.test(clause) && m.groups.said === undefined && m.groups.about === undefined) continue;
    if (ZH_DELETE.test(m.groups.verb ?? '') && m.groups.said === undefined && m.groups.about === undefined && !ZH_REMEMBERED.test(raw) && !/^我/u.test(raw)) continue;
    // "忘掉我老婆的生日": hers, not the user's own birthday.
    const theirs = zhTheirs(raw);
    if (theirs) return { ...theirs, own: false };
    // "忘掉工作吧" lets work go; "删掉你记得的关于我工作的事" means what was told about it.
    const explicit = m.groups.said !== undefined || m.groups.about !== undefined || /关于|有关|说过|记得|知道|记忆|记录/u.test(raw);
    const topic = zhNamed(raw, before, explicit);
    if (topic === undefined) continue;
    // "忘了昨天吧", "忘了火锅吧", "忘掉上海吧" let something go: a bare "忘了X吧" asks only of someone, or
    // of the user's own thing ("我的…"), or of a thing named as such ("刘强的事", "这个人").
    if (!explicit && !ZH_THING_AS_SUCH.test(raw) && !/^我的/u.test(raw) && !zhSomeone(topic) && forgetAliases(topic).length === 0) continue;
    // "忘掉我的生日": the user's own, not 妻子的生日 (`mentionsOwn`); "忘了他吧" names someone, not the user's.
    return { topic, own: /^(?:关于|有关)?我的?(?![说讲提告和跟与])/u.test(raw) && !ZH_HE_SHE.test(raw.replace(ZH_TOPIC_HEAD, '')) };
  }
  const first = ZH_THING_FIRST.exec(clause);
  if (first?.groups && !(first.groups.verb === '忘了' && first.groups.all === undefined && first.groups.ask === undefined)) {
    const raw = first.groups.topic ?? '';
    // Not `explicit`: "工作的事就别记着了" says let work go (ZH_FEELING), as "忘掉工作吧" does.
    const theirs = zhTheirs(raw);
    if (theirs) return { ...theirs, own: false };
    const topic = zhNamed(raw, before, false);
    if (topic !== undefined) return { topic, own: /^我的?(?![说讲提告和跟与])/u.test(raw) };
  }
  // "刘强的事，你就当没听过吧": the thing may stand in the clause before.
  const unsaid = ZH_PRETEND_AFTER.exec(clause) ?? ZH_PRETEND_BEFORE.exec(clause) ?? ZH_PRETEND_BEFORE.exec(`${before.split('，').at(-1) ?? ''}${clause}`);
  const topic = unsaid?.groups ? zhNamed(unsaid.groups.topic ?? '', before, true) : undefined;
  return topic === undefined ? undefined : { topic, own: false };
}

/** The topic a request's words name, once stripped of "我的", "的事", "吧"; undefined when they name none. */
function zhNamed(raw: string, before: string, explicit: boolean): string | undefined {
  let topic = raw.replace(ZH_TOPIC_TAIL, '').replace(ZH_TOPIC_HEAD, '').replace(/^[“"「『]|[”"」』]$/gu, '').trim();
  if (ZH_HE_SHE.test(topic)) topic = zhAntecedent(before) ?? topic;
  if (topic === '' || ZH_PRONOUN.test(topic) || (ZH_FEELING.test(topic) && !explicit) || ZH_NOT_A_TOPIC.test(topic) || ZH_TIME.test(topic) || topic.length > 30) return undefined;
  return topic;
}

/**
 * A topic as said: "wife's birthday" / "老婆的生日" of someone's, "the user's own birthday" / "用户自己的
 * 生日" of the user's own, else the topic (what a model reads and a notice or report shows).
 */
export function topicLabel(request: { topic: string; own?: boolean; of?: string }): string {
  const han = /\p{Script=Han}/u.test(request.topic);
  if (request.of !== undefined) return han ? `${request.of}的${request.topic}` : `${request.of}'s ${request.topic}`;
  if (request.own) return han ? `用户自己的${request.topic}` : `the user's own ${request.topic}`;
  return request.topic;
}

/** A request's topics as the user named them: "wife's birthday, number", "老婆的生日, 电话", "birthday". */
export function requestLabel(request: ForgetRequest): string {
  const topics = [request.topic, ...(request.alsoTopics ?? [])].join(', ');
  return request.of === undefined ? topics : topicLabel({ topic: topics, of: request.of });
}

/** Thanks, "please", "ok": all that may stand beside a bare name ("Forget Sarah, please."). */
const POLITE = /^(?:(?:好的?|好吧|行|嗯|哦|唉|哎|谢谢你?|谢了|多谢|拜托了?|麻烦了|求你了|算了|另外|还有|对了|那个|ok(?:ay)?|thanks?(?: you)?|thx|please|pls|also|and|so|well|oh|hey|sorry|one more thing|actually|wait|hmm+|never mind|nvm|其实|等等|等一下)[\s，,.!！~]*)+$/iu;
/** What may stand beside a request in its message: thanks, "please", "别再提了", a reason of feeling. */
const ASIDE =
  /^(?:以后)?(?:别|不要|不用)再?(?:提|说|聊)(?:了|起)?|^(?:i )?(?:don't|do not) want to (?:talk|think|hear) about (?:it|this|that|them|him|her)|^(?:(?:it's|it is|this is) )?(?:too )?(?:painful|private|embarrassing|personal)/iu;
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
  // "FORGET SARAH" is read as its writer's "forget sarah" (a bare name then needs a memory naming her).
  if (!/\p{Ll}/u.test(text) && /\p{Lu}.*\p{Lu}/u.test(text)) return readForgetRequest(text.toLowerCase());
  // "別記住我前女友的事": read in simplified characters, the topic given back as the user wrote it.
  const simplified = toSimplified(text);
  if (simplified !== text) {
    const read = readAsWritten(simplified);
    if (!read) return undefined;
    // One for one, so the topic's place in the folded text is its place as written.
    const asWritten = (t: string): string => {
      const at = simplified.indexOf(t);
      return at < 0 ? t : text.slice(at, at + t.length);
    };
    return { ...read, topic: asWritten(read.topic), ...(read.alsoTopics ? { alsoTopics: read.alsoTopics.map(asWritten) } : {}) };
  }
  return readAsWritten(text);
}

function readAsWritten(text: string): ForgetRequest | undefined {
  const clauses = clausesOf(text);
  for (const [i, clause] of clauses.entries()) {
    const before = clauses.slice(0, i).join('，');
    const han = /\p{Script=Han}/u.test(clause.slice(0, 12));
    const said = readSaidWhen(clause.replace(/[’]/gu, "'"));
    const read = said ? { topic: said.label, alone: false, own: false } : han ? zhRead(clause, before) : enRequestTopic(clause.replace(/[’]/gu, "'"), before);
    if (read === undefined) continue;
    const { topic, alone, own } = read;
    const of = 'of' in read ? read.of : undefined;
    if (asksAQuestion(text, clause) && !ASKS_US.test(clause)) return undefined;
    const others = clauses.filter((_, j) => j !== i);
    const named = (c: string): boolean => (han ? zhAntecedent(c) : enAntecedent(c)) !== undefined && /[他她]|\b(?:him|her)\b/iu.test(clause);
    const aside = (c: string): boolean => POLITE.test(c) || (!alone && (ASIDE.test(c) || mentionsTopic(c, topic) || named(c)));
    if (!others.every(aside)) return undefined;
    // "forget my birthday and my address", "忘掉我的生日和住址": each of the user's own, apart.
    const [first, ...also] = own || of !== undefined ? ownParts(topic) : [topic];
    return {
      topic: first!,
      ...(also.length > 0 ? { alsoTopics: also } : {}),
      ...(alone ? { bareName: true as const } : {}),
      ...(own ? { own: true as const } : {}),
      ...(of !== undefined ? { of } : {}),
      ...(said ? { when: said.when } : {}),
    };
  }
  return undefined;
}

/** The user's own things one request names together: "birthday and my address" → birthday, address. At most three; otherwise the topic whole. */
function ownParts(topic: string): string[] {
  const parts = topic
    .split(/\s+(?:and|&)\s+(?:my\s+)?|\s*(?:和|与|以及|还有|、)\s*(?:我的)?/iu)
    .map((p) => p.trim().replace(/^(?:(?:her|his|their)\s+|(?:她|他|她们|他们)的?)/iu, ''))
    .filter((p) => p.length > 0);
  return parts.length > 1 && parts.length <= 3 && parts.every((p) => !ZH_PRONOUN.test(p) && !ZH_TIME.test(p)) ? parts : [topic];
}

/** A Chinese clause's request, shaped as an English one's. */
function zhRead(clause: string, before: string): { topic: string; alone: boolean; own: boolean; of?: string } | undefined {
  const read = zhTopic(clause, before);
  return read && { ...read, alone: false };
}

/** Whether the clause, as written in the text, ends on a question mark or a question particle. */
function asksAQuestion(text: string, clause: string): boolean {
  const at = text.indexOf(clause);
  const after = at < 0 ? '' : text.slice(at + clause.length).trimStart();
  return /^[?？]/u.test(after) || /[吗呢]$/u.test(clause);
}
