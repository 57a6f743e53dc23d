import { mentionsAt, someoneElsesAt } from '../text/mentions.js';

/**
 * Other words for a topic a user asks to forget, as memories and messages put it: "别记住我的住址"
 * must find "用户住在上海浦东…" and "我住在上海…", "delete my address" must find "The user lives at 12
 * Pine Street". Each alias is matched as written (`forgetTopic` with `literal`), and names the
 * user: "用户住在", not "住在" (the mother's "用户的妈妈住在杭州" stays).
 */
const ALIASES: ReadonlyArray<{ topic: RegExp; aliases: readonly string[]; only?: true }> = [
  { topic: /^(?:家庭)?(?:住址|地址|家的地址|家庭住址|住哪儿?|住在哪里?)$/u, aliases: ['用户住在', '用户现在住在', '用户家住', '用户家在', '用户的住址', '用户的地址', '用户的家庭住址', '用户的家在', '用户搬到了', '用户搬到', '我住在', '我现在住在', '我家住', '我家在', '我的住址', '我的地址', '我搬到了'], only: true },
  { topic: /^(?:home |mailing )?address$|^where i live$/iu, aliases: ['the user lives in', 'the user lives at', "the user's address", "the user's home address", "the user's home is", 'the user moved to', 'I live in', 'I live at', 'I moved to', 'my address', 'my home address', 'my home is'], only: true },
  { topic: /^(?:手机号码?|电话(?:号码)?|手机|号码)$/u, aliases: ['用户的手机号', '用户的电话', '用户手机号', '我的手机号', '我的电话', '我手机号'], only: true },
  { topic: /^(?:(?:cell|mobile|phone)(?: number)?|number)$/iu, aliases: ["the user's phone number", "the user's cell number", "the user's mobile number", "the user's cell", "the user's number", 'the user can be reached at', 'my phone number', 'my mobile number', 'my number', 'my cell'], only: true },
  { topic: /^前任$/u, aliases: ['前女友', '前男友', '前夫', '前妻'] },
  { topic: /^ex$/iu, aliases: ['ex-wife', 'ex-husband', 'ex-girlfriend', 'ex-boyfriend', 'ex-partner', 'ex-fiancé', 'ex-fiancée', 'ex-fiance', 'ex-fiancee'] },
  { topic: /^(?:allergy|allergies)$/iu, aliases: ['allergic to', 'allergy', 'allergies'] },
  { topic: /^过敏$/u, aliases: ['过敏'] },
];

/**
 * Whether the topic is the user's own data whose word alone is too common to forget by ("address":
 * "The user's mom's address", "the IP address of my router"; "电话": "我妈的电话"): then only its
 * aliases, which name the user, are forgotten.
 */
export function forgottenByAliasesOnly(topic: string): boolean {
  return ALIASES.find((a) => a.topic.test(topic.trim()))?.only === true;
}

/** The phrases a topic is also said by, as written in memories and messages; none for most topics. */
export function forgetAliases(topic: string): readonly string[] {
  const t = topic.trim();
  return ALIASES.find((a) => a.topic.test(t))?.aliases.filter((alias) => alias.toLowerCase() !== t.toLowerCase()) ?? [];
}

/**
 * What makes a mention of a topic something else, by the words right after it: "ex-colleague",
 * "ex-boss", "Ex-Lax" are not the ex ("ex-wife" is, as an alias), "前任老板", "前任经理" not 前任.
 */
const SOMETHING_ELSE: ReadonlyArray<{ topic: RegExp; after: RegExp }> = [
  { topic: /^ex$/iu, after: /^-/u },
  { topic: /^前任$/u, after: /^(?:老板|经理|领导|上司|同事|主管|总监|老师|房东|公司|单位|秘书|助理|总裁|董事|市长|主席|校长|部长|队长|班长|CEO|ceo)/u },
];

/**
 * Whether a text mentions a topic as the topic ("The user's ex is Sarah"; not "The user's
 * ex-colleague Tom", "用户的前任老板很凶"), and with `own` as the user's own (`someoneElsesAt`: not
 * "The user's wife's birthday"): some mention is.
 */
export function mentionsAsMeant(text: string, topic: string, options: { own?: boolean } = {}): boolean {
  const t = topic.trim();
  const other = SOMETHING_ELSE.find((x) => x.topic.test(t))?.after;
  return mentionsAt(text, t).some((at) => !(other?.test(text.slice(at + t.length, at + t.length + 10)) ?? false) && !(options.own && someoneElsesAt(text, at, t.length)));
}
