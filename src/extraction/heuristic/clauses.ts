import { hasHan } from '../../text/language.js';
import { APPOINTMENT_EN, APPOINTMENT_ZH, MILESTONE_ZH, REL_ZH } from './candidate.js';
import { dropTrailingFiller, goOnWithList, listHead, spellOutCasual } from './casual-en.js';
import { spellOutCasualZh } from './casual-zh.js';
import { breakEnglish, splitStatedTogether } from './english-breaks.js';
import { kinOpening, resolveKinPronoun, splitAtKinPronoun, type Kin } from './kin-pronoun.js';

/** One clause of a user message, ready for the pattern tables. */
export interface Clause {
  text: string;
  /** The clause, or an earlier one in the message, was flagged as a correction ("不对", "actually"). */
  correction: boolean;
  /** Questions and hypotheticals state nothing; only a request ("能提醒我…吗") survives them. */
  question: boolean;
  /** The user asked for it to be remembered ("记住，我的车牌号是…", "Remember that my…"): kept as said when no row reads it. */
  remembered: boolean;
}

/**
 * A request to remember what follows, when a statement of the user's follows ("记住我的车牌号是…",
 * "Remember that I'm allergic to…"); "记住明天交报告" is a task and stays for the todo rows. Alone
 * in its clause ("记住，…", "Remember this: …") it holds for the rest of the sentence.
 */
const REMEMBER_ZH = /^(?:请|麻烦)?你?(?:能不能|能|可以|可不可以)?(?:帮我)?(?:记住|记一下|记下|记好|记着)(?:这个|这件事|一下)?(?:[，,:：]\s*|(?=我))/u;
// "Remember I was feeling down?" recalls; "And remember, I'm always here for you" consoles: a request says "that", "this:" or "please".
const REMEMBER_EN = /^(?:(?:can you |could you |pls )?(?:remember|note|keep in mind|don't forget|do not forget) (?:that |this: ?)|please (?:remember|note|keep in mind)(?: that|,|:)? ?)(?=(?:my|I|I'm|I am|im)\b)/i;
const REMEMBER_ALONE = /^(?:(?:请|麻烦)?你?(?:帮我)?(?:记住|记一下|记下|记好|记着)(?:这个|这件事|一下)?|(?:please |pls )?(?:remember|note|keep in mind)(?: this| that)?)$/iu;

const CORRECTION_ZH = /^(?:(?:不对|不是的|不是|错了|我说错了|说错了|更正一下|纠正一下|更正|纠正)(?:[，,:：\s]+|$)|(?:其实|实际上|事实上)[，,:：\s]*)/u;
/** "我女儿是八岁不是七岁", "my daughter is 8, not 7": a value said with the one it replaces, which is dropped. */
/** What "不是" takes back when a value follows: not "不是很开心", "不是因为…", "不是我". */
const NOT_A_VALUE_ZH = '(?:而)?(?<!是)不是(?!很|太|特别|非常|那么|这么|所有|每|都|一直|故意|因为|为了|说|要|想|该|我|你|他|她|它)[^，,]{1,8}$';
const NOT_THAT_ZH = new RegExp(`^(我.+?(?:是|叫|在|岁).*?)[，,]?${NOT_A_VALUE_ZH}`, 'u');
const NOT_THAT_ALONE_ZH = new RegExp(`^${NOT_A_VALUE_ZH}`, 'u');
const NOT_THAT_EN = /^(.+?\b(?:is|am|are|was|'s|'m|'re|live in|work at|turned)\b.+?),?\s+not\s+(?:\d{1,3}|[A-Z][\w'-]*(?: [A-Z][\w'-]*)?)$/u;
const FILLER_ZH = /^(?:对了|另外|还有(?!点|些)|顺便说一下|顺便说|哦对|嗯嗯|嗯|那个|而且|但是|不过|所以|然后|好的|(?:想|就是想)?(?:告诉你|跟你说)(?:一下|一声|个好消息|一个好消息|件事|一件事)?)[，,:：\s]*/u;
const CORRECTION_EN = /^(?:actually|no|nope|correction|sorry|wait|in fact|to be honest)\b[,:]?\s*/i;
const FILLER_EN = /^(?:well|oh|um|uh|btw|by the way|also|and|but|so|ok|okay|yeah|yes|hey|hi|hello|fyi|(?:I )?(?:just )?wanted to (?:let you know|tell you)(?: that)?)\b[,:]?\s*/i;
// A question typed without a mark often ends on its question word ("我女儿住在哪里", "你叫什么"), or
// asks A-not-A ("今天要不要出去玩", not "我在考虑要不要换工作"); a statement seldom does ("我什么都吃" does not).
const QUESTION = /[?？]$|[吗么]$|是不是|对不对|有没有|(?<!考虑|知道|犹豫|纠结|决定|想想|看看|确定)(?:要不要|会不会|该不该|用不用|得不得|去不去|好不好|行不行)|(?:哪里|哪儿|哪个|哪些|什么|谁|怎么样|怎么办|为什么|多少|几[点个次岁天号])[呢啊呀]?$|呢$/u;
const QUESTION_EN = /^(?:do|does|did|is|are|was|were|can|could|would|should|will|what|how|why|when|where|who|which)\b/i;
// \b only follows ASCII word characters, so the Chinese words need no boundary.
const HYPOTHETICAL = /^(?:如果|要是|假如|假设|万一)|^(?:if|what if|suppose)\b/iu;
/**
 * A Chinese clause with no subject after one that had "我" keeps it: in "我叫李明，是后端工程师"
 * the second clause is about the user too. "叫" is left out: "…一只猫，叫小白" names the cat.
 */
const SUBJECTLESS_ZH = /^(?:也|还|都|很|非常|特别|最|是|在|住在|喜欢|爱|讨厌|不|有|养|家里(?=养|有)|今年|打算|准备|计划|决定|要|从事|来自|对|(?:现在|目前)(?=住在|在|是|养|改)|改(?=喝|吃|用)|(?:公司|单位)(?=是|叫))/u;
/** When a plan is for: what may stand between "我" and the intention ("我下周打算…"). */
const AHEAD_ZH = '(?:今天|今晚|今早|明天|明晚|明早|大后天|后天|这个?周末|周末|下个?(?:周|星期|礼拜)[一二三四五六日天末]?|下个?月|明年|今年|过几天|过两天|改天|以后|将来)';
const INTENT_ZH = '(?:想要|想|打算|准备|计划|决定)';
/**
 * A message that opens on an intention states the user's own ("周末想去杭州爬山", typed without
 * "我" as chat usually is). Without a time the intention needs its act: "准备好了", "决定了" and
 * "计划赶不上变化" are no plans. A time for the plan before the intention moves after it, where the
 * pattern tables read it ("我下周打算去北京" and "下周我打算去北京" read as "我打算下周去北京").
 */
const OPENS_ON_INTENT_ZH = new RegExp(`^(?:(?:${AHEAD_ZH}|最近)${INTENT_ZH}|${INTENT_ZH}${AHEAD_ZH}|${INTENT_ZH}(?:去|学|买|换|考|做|开|养|搬|参加|报|找|申请|辞职|结婚|出国|旅游|跑|读))`, 'u');
/** "周末我一般在家打游戏" reads as "我周末一般在家打游戏", the order the habit rows read. */
const USUAL_TIME_BEFORE_SELF_ZH = /^((?:每天|每周|每个?周末|每个?月|每晚|周末|平时|晚上|早上|下班后|工作日)(?:早上|晚上|下午)?)[，,]?我((?:一般|通常|经常|常常|平时|总是|都会?|一有空就))/u;
const TIME_BEFORE_INTENT_ZH = new RegExp(`^(?:(${AHEAD_ZH})我|我(${AHEAD_ZH}))(${INTENT_ZH})`, 'u');
/** A time of day: "下午三点", "晚上8:30", "八点半", "九点一刻". */
const CLOCK_ZH = '(?:\\d{1,2}|[一二三四五六七八九十两]{1,3})(?:点|:\\d{2})(?:半|[一三]刻|\\d{1,2}分?|[一二三四五六七八九十]{1,3}分)?';
const PERIOD_ZH = '(?:早上|早晨|上午|中午|下午|傍晚|晚上|夜里)';
/** A day: "明天", "下周三", "12月3日", "5号". */
const DAY_ZH = `(?:(?:这个?|下个?|本)月(?:\\d{1,2}|[一二三四五六七八九十]{1,3})[日号]|每个?月(?:最后一天|底|末|初)|(?:下个?)?月(?:底|初)|年底|${AHEAD_ZH}|每天|每晚|每(?:个)?(?:周|星期|礼拜)[一二三四五六日天末](?:(?:和|、|与|及)(?:周|星期|礼拜)?[一二三四五六日天])*|每个?工作日|工作日(?:每天)?|每个?月(?:\\d{1,2}|[一二三四五六七八九十]{1,3})[日号]|每年(?:\\d{1,2}|[一二三四五六七八九十]{1,3})月(?:\\d{1,2}|[一二三四五六七八九十]{1,3})[日号]|(?:这|下下个?|下个?)?(?:周|星期|礼拜)[一二三四五六日天]|(?:\\d{1,2}|[一二三四五六七八九十]{1,3})月(?:\\d{1,2}|[一二三四五六七八九十]{1,3})[日号]|(?:\\d{1,2}|[一二三四五六七八九十]{1,3})号)`;
/** How long a series runs, said before it: "下周每天", "这个月每晚", "连续五天每天", "接下来一周每天". */
const SERIES_SPAN_ZH = '(?:(?:这|本|下)个?(?:周|星期|礼拜|月)的?|(?:连续|接下来的?|未来|持续)(?:\\d+|[一二两三四五六七八九十]+)个?(?:天|周|星期|礼拜|月)(?:内|里)?)(?=每|天天)';
/** When a reminder is for, said before the request: a day with its time, a time alone, or a delay ("半小时后"). */
/** A moment with no clock time: "晚点", "下班前", "睡前" (the todo has no due time, the request still stands). */
const LATER_ZH = '(?:晚点|晚些时候|待会儿?|等会儿?|过会儿?|一会儿|下班前|下班后|睡前|睡觉前|出门前|到家后|到公司后)';
const REMIND_TIME_ZH = `(?:${LATER_ZH}|(?:${SERIES_SPAN_ZH})?(?:${DAY_ZH}${PERIOD_ZH}?(?:${CLOCK_ZH})?|${PERIOD_ZH}(?:${CLOCK_ZH})?|${CLOCK_ZH}|(?:\\d+|[一二两三四五六七八九十半]+)个?(?:分钟|小时|钟头|天|星期|礼拜|月)(?:后|以后|之后)))`;
/**
 * "下周三下午三点提醒我带年糕去打疫苗" reads as "提醒我下周三下午三点带年糕去打疫苗", the order the todo
 * rows read. Only a time may come first: "医生提醒我多喝水" is something the doctor did.
 */
const TIME_BEFORE_REMIND_ZH = new RegExp(`^(?:请|麻烦)?你?(?:记得|记住)?(${REMIND_TIME_ZH})(?:的时候)?[，,]?(?:请|麻烦)?你?(?:记得|要)?提醒(?:一下)?我(.+)$`, 'u');
/** "明天早上七点叫我起床": a wake-up call is a reminder to get up at that time. */
const WAKE_ME_ZH = new RegExp(`^(?:请|麻烦)?你?(?:记得)?(${REMIND_TIME_ZH})[，,]?(?:请|麻烦)?你?(?:记得|要)?叫(?:一下)?我(?:起床|起来)$`, 'u');
/** When an English reminder is for: "tomorrow at 9", "on Friday", "at 6pm", "in 20 minutes". */
/** How long an English series runs, said after its repeat: "until Friday", "for the next 5 days", "next week". */
const SERIES_SPAN_EN = '(?:,? (?:until|till|through|thru) (?:next |this )?[a-z]+(?: \\d{1,2}(?:st|nd|rd|th)?)?| for (?:the next |the coming )?(?:\\d+|an?|one|two|three|four|five|six|seven|ten) (?:days?|weeks?|months?)| (?:this|next) week)';
const REMIND_TIME_EN =
  '(?:(?:today|tomorrow|the day after tomorrow|tonight|this (?:morning|afternoon|evening)|on the \\d{1,2}(?:st|nd|rd|th)|next (?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|every (?:day|morning|evening|night|weekday|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:(?:,|,? and| &) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))*)|(?:on )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))(?: (?:morning|afternoon|evening|night))?(?:,? at \\d{1,2}(?::\\d{2})? ?(?:am|pm)?)?|(?:at )?\\d{1,2}(?::\\d{2})? ?(?:am|pm)|at \\d{1,2}(?::\\d{2})?|in (?:\\d+|an?|one|two|three|five|ten|fifteen|twenty|thirty) (?:minutes?|hours?|days?|weeks?))(?:' + SERIES_SPAN_EN + ')?';
/** "Tomorrow at 9, remind me to send the report" reads as "remind me to send the report tomorrow at 9". */
const TIME_BEFORE_REMIND_EN = new RegExp(`^(${REMIND_TIME_EN}),?\\s+((?:please |pls )?remind me (?:to|that|about)\\b.+?)([.!]*)$`, 'i');
/** "Remind me on Friday to pay rent": the task first, its time after it ("remind me to pay rent on Friday"). */
const REMIND_TIME_FIRST_EN = new RegExp(`^((?:please |can you |could you |pls )?remind me) (${REMIND_TIME_EN}),? (to|that|about) (.+?)([.!?]*)$`, 'i');

/**
 * A day, maybe a time of day, then 要 or 得: something the user has to do ("下周三要交报告"), unless
 * it is the weather ("明天要下雨").
 */
const SCHEDULED_ZH = new RegExp(`^(?:${AHEAD_ZH}|(?:这|下个?)?(?:周|星期|礼拜)[一二三四五六日天])(?:早上|上午|中午|下午|傍晚|晚上)?(?:(?:\\d{1,2}|[一二三四五六七八九十]{1,3})点(?:半|\\d{1,2}分?)?)?(?:(?:还|也|又)?(?:要|得)(?!下雨|下雪|降温|升温|刮风|变天)|(?:${APPOINTMENT_ZH}|${MILESTONE_ZH}))`, 'u');
/** A clause about one of the user's relatives ("我儿子…", "我的女朋友…"): its subject, as said. */
const RELATIVE_SUBJECT_ZH = new RegExp(`^我的?${REL_ZH}(?!的)`, 'u');
/** A clause about someone the user knows: a relative, a friend, a colleague (or someone of theirs: "我儿子的老师"). */
const OTHER_PERSON_ZH = new RegExp(`^我的?(?:${REL_ZH.slice(1, -1)}|朋友|同事|同学|闺蜜|老板|领导|室友|邻居|哥们|男闺蜜)`, 'u');
/** "我有个儿子叫乐乐" says "我儿子叫乐乐": the son is named, and what follows of him is his. */
const HAS_RELATIVE_NAMED_ZH = new RegExp(`^我(?:家里?)?有(?:一)?个${REL_ZH}(?=叫|名叫|名字叫)`, 'u');
/** "Emma是我女儿" says "我女儿叫Emma" (not "她是我女儿", "这是我儿子"). */
const NAMED_RELATIVE_ZH = new RegExp(`^((?![我你他她它这那谁])\\p{Script=Han}{2,4}|[A-Z][A-Za-z]{1,20})是我的?${REL_ZH}$`, 'u');
/** "我有一个女儿，今年七岁": the daughter is who the next clause is about. */
const HAS_ONE_RELATIVE_ZH = new RegExp(`^我(?:家里?)?有(?:一)?个${REL_ZH}$`, 'u');
/** A clause whose subject is the user themself: "我…", not "我朋友…", "我的…", "我们…". */
const SELF_SUBJECT_ZH = /^我(?!的|们|朋友|妈|爸|老公|老婆|儿子|女儿|哥|姐|弟|妹|同事|同学|家|闺蜜|男朋友|女朋友|对象|室友|邻居|领导|老板)/u;
/**
 * A message that opens on what someone does, has or is, with no subject, says it of the user
 * ("刚搬到深圳", "养了两只猫", "最近在学吉他"): chat drops "我" as often as not.
 */
const OPENS_ON_SELF_ZH = /^(?:刚|刚刚|最近|每天|平时|一直|现在|目前|今年)?(?:在(?:学|读|做|备考|.{1,12}?(?:上班|工作|上学|读书))|搬到|搬去|住在|(?:家里)?(?:还|也)?养了(?=[一两三四五几个只条])|(?:还|也)?(?:有点|有些)?(?:乳糖|麸质|果糖|酒精)不耐受|(?:家里)?养着|喜欢(?!就|的话|吗|吧|呢|你|这|那)|讨厌(?!你|这|那)|不吃|不喝|吃素|对.{1,10}过敏|是(?:个|一[个名位])|(?:家里)?有(?:一|两|三|个)|开始学)/u;
/** The same in English, for what cannot be an imperative ("Just moved to Berlin", "Work at Google"; not "Moved to tears…", "Live in the moment"). */
const OPENS_ON_SELF_EN = /^(?:(?:[Jj]ust|[Rr]ecently) moved to|[Mm]oved to (?=\p{Lu})|[Ss]tarted learning|[Ll]ive in (?=\p{Lu})|[Ww]ork (?:at|for) (?=\p{Lu})|[Ww]ork as an? )/u;
/** "Two kids, Lily and Ben": how many children the user has, typed without "I have". */
const OPENS_ON_CHILDREN_EN = /^(?:one|two|three|four|five|\d) (?:kids|children|sons|daughters)\b/iu;
/** An English message that opens on an intention: "Planning to visit Beijing" is the user's plan; "Next week, I plan to…" reads as "I plan to … next week". */
// "gonna visit my parents", "wanna learn Spanish": typed without "to" (not "wanna see…?", which asks the listener,
// nor "gonna be a great night", which is about "it").
const OPENS_ON_INTENT_EN = /^(?:(?:(planning|hoping|going|trying)|(plan|want|wanna|hope|intend|need|have|got))\s+to|(gonna)(?! be (?!in |at |away |back |out of ))|wanna(?! (?:you|me|see|hear|know|watch|play|come|join|talk|chat|grab)\b))\b/i;
/** "Allergic to penicillin", "lactose intolerant": a state the user is in, typed without "I'm". */
const OPENS_ON_STATE_EN = /^(?:allergic to |(?:lactose|gluten) intolerant\b)/i;
/** When an English plan is for, said before it. */
const AHEAD_EN = 'this weekend|next (?:week|weekend|month|year|summer|winter|spring|fall|autumn)|tomorrow|tonight|this year|someday|one day|soon';
const TIME_BEFORE_INTENT_EN = new RegExp(`^(${AHEAD_EN}),?\\s+(I(?:'m| am)?\\s+(?:planning|hoping|going|plan|want|wanna|hope|intend|need)\\s+to\\s+.+?)([.!]*)$`, 'i');
/** "Tomorrow I have an exam" reads as "I have an exam tomorrow", the order the appointment row reads. */
const TIME_BEFORE_APPOINTMENT_EN = new RegExp(`^(${AHEAD_EN}),?\\s+(I(?:'ve| have)(?: got)? an? (?:${APPOINTMENT_EN})(?: .+?)?)([.!]*)$`, 'i');
const TIME_ONLY_EN = new RegExp(`^(?:${AHEAD_EN}),?$`, 'i');
const REMIND_TIME_ONLY_EN = new RegExp(`^(?:${REMIND_TIME_EN}),?$`, 'i');
/** "now I work at Costco" (a clause after "I quit my job") says "I work at Costco". */
const NOW_FIRST_EN = /^now,? (?=I\b)/u;
/** "Meeting at 3pm tomorrow": an appointment noted without "I have". */
const APPOINTMENT_OPENING_EN = new RegExp(`^(?:an? )?(?:${APPOINTMENT_EN}) (?=at |on |tomorrow|tonight|next |this )`, 'i');

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

/** "Next week, I'm planning…" is one clause: a time phrase cut off by its comma goes with what follows. */
function joinLeadingTime(parts: string[]): string[] {
  // "Every Monday at 7pm, remind me to…": a reminder's time cut off by its comma goes with it too.
  const timeOnly = (part: string): boolean => TIME_ONLY_EN.test(part.trim()) || REMIND_TIME_ONLY_EN.test(part.trim());
  return parts[0] !== undefined && parts.length > 1 && timeOnly(parts[0]) ? [`${parts[0].trim()}, ${parts[1]!.trim()}`.replace(/,,/g, ','), ...parts.slice(2)] : parts;
}

const TIME_ONLY_ZH = new RegExp(`^${REMIND_TIME_ZH}[，,]\\s*$`, 'u');

/** "明天下午三点，提醒我开会": a time cut off by its comma goes with what follows, as in English. */
function joinLeadingTimeZh(parts: readonly string[]): string[] {
  const out: string[] = [];
  let time = '';
  for (const [i, part] of parts.entries()) {
    if (i + 1 < parts.length && TIME_ONLY_ZH.test(part.trim())) {
      time += part.trim().replace(/[，,]$/u, '');
      continue;
    }
    out.push(time === '' ? part : time + part.trim());
    time = '';
  }
  return out;
}

/** Splits a message into clauses: sentences, and for Chinese also the parts between commas. */
export function splitClauses(message: string): Clause[] {
  // "I;m" is "I'm" typed one key over: not two sentences.
  const text = message.normalize('NFKC').replace(/[’‘]/g, "'").replace(/\b([Ii]);(m|ve)\b/gu, "$1'$2");
  const sentences = text.split(/(?<=[。！!？?；;\n])|(?<=\.)\s+/u);
  const out: Clause[] = [];
  let correction = false;
  /** The relative the user last named in English: "he" and "she" after it are theirs ("I have a son named Leo. He's 5"). */
  let kin: Kin | undefined;
  let opening = true;
  /** A list the clause before started ("I'm allergic to"), which "also shellfish" goes on with. */
  let list: string | undefined;
  for (const said of sentences) {
    // "我喜欢吃火锅 but 我老公不能吃辣": an English conjunction between Chinese clauses parts them as a comma does.
    const sentence = hasHan(said) ? spellOutCasualZh(said.replace(/\s+(?:but|and|so|however|though)\s+(?=\p{Script=Han})/giu, '，')) : spellOutCasual(said);
    // English clauses joined by "and I…", "but my…" or ", I…" are separate statements.
    // "…, and it was so powerful" is a comment on what came before: cut off, it states nothing itself.
    // "I painted this after I visited a center": the second clause is an event of its own (not
    // after a preposition: "a library for when I have kids" is one thing).
    const parts = hasHan(sentence) ? joinLeadingTimeZh(sentence.split(/(?<=[，,])/u)) : splitAtKinPronoun(splitStatedTogether(joinLeadingTime(breakEnglish(sentence))));
    const question = QUESTION.test(sentence.trim().replace(/[。.!！\s]+$/u, ''));
    let subject = false;
    let self = false;
    let relative: string | undefined;
    let other = false;
    // "如果有时间的话，我想去冰岛": a hypothetical opening holds for the rest of its sentence.
    let hypothetical = false;
    let remembering = false;
    for (const part of parts) {
      let clause = dropTrailingFiller(part.trim()).replace(/[，,。；;\s]+$/u, '');
      clause = goOnWithList(clause, list) ?? clause;
      for (let stripped = true; stripped; ) {
        stripped = false;
        for (const [re, corrects] of [[CORRECTION_ZH, true], [CORRECTION_EN, true], [FILLER_ZH, false], [FILLER_EN, false]] as const) {
          const m = re.exec(clause);
          if (m && m[0].length > 0 && (m[0].length < clause.length || corrects)) {
            clause = clause.slice(m[0].length);
            correction ||= corrects;
            stripped = true;
          }
        }
      }
      // "对了，还有点乳糖不耐受": a filler alone says nothing, and what follows still opens the message.
      if (clause.length === 0 || [FILLER_ZH, FILLER_EN].some((re) => re.exec(clause)?.[0].length === clause.length)) continue;
      // "我女儿是八岁，不是七岁": the value it is not corrects the clause before, and says nothing itself.
      const previous = out.at(-1);
      if (NOT_THAT_ALONE_ZH.test(clause) && previous && part !== parts[0]) {
        previous.correction = correction = true;
        continue;
      }
      const kept = NOT_THAT_ZH.exec(clause) ?? NOT_THAT_EN.exec(clause);
      if (kept) {
        clause = kept[1]!;
        correction = true;
      }
      if (REMEMBER_ALONE.test(clause.replace(/[:：]$/u, ''))) {
        remembering = true;
        continue;
      }
      const remember = REMEMBER_ZH.exec(clause) ?? REMEMBER_EN.exec(clause);
      // "Can you remember that my…?", "能记住我的…吗？": a request, not a question about the user.
      let requested = false;
      if (remember && remember[0].length < clause.length && /^(?:我|my\b|I\b|I'm\b|im\b)/iu.test(clause.slice(remember[0].length))) {
        clause = clause.slice(remember[0].length);
        remembering = requested = true;
      }
      clause = clause
        .replace(WAKE_ME_ZH, (_, when: string) => `提醒我${when}起床`)
        .replace(TIME_BEFORE_REMIND_ZH, (_, when: string, task: string) => `提醒我${when}${task}`)
        .replace(TIME_BEFORE_REMIND_EN, (_, when: string, request: string, end: string) => `${request} ${lowerFirst(when)}${end}`)
        .replace(REMIND_TIME_FIRST_EN, (_, request: string, when: string, link: string, task: string, end: string) => `${request} ${link} ${task} ${when}${end}`);
      // "I have a son named Leo. He's 5": he is the son (kin-pronoun.ts).
      clause = resolveKinPronoun(clause, kin);
      kin = kinOpening(clause) ?? kin;
      // "我儿子叫小宝，今年五岁": the son is five, not the user. "我女朋友下个月生日，她喜欢香水": she is the girlfriend.
      if (relative && /^[他她](?![们])/u.test(clause)) clause = `${relative}${clause.slice(1)}`;
      // "我女儿今年七岁，叫朵朵": the name is the relative's.
      else if (relative && /^(?:叫|名叫|名字叫)/u.test(clause)) clause = `${relative}${clause}`;
      else if (subject && SUBJECTLESS_ZH.test(clause) && !(other && !relative)) clause = `${!self && relative ? relative : '我'}${clause}`;
      // A plan with no subject is the user's at the start of a message, or after a clause about the
      // user themself ("我今天很开心，明天要上班"; not "我朋友来了，明天要走").
      else if ((!subject || self) && (OPENS_ON_INTENT_ZH.test(clause) || SCHEDULED_ZH.test(clause))) clause = `我${clause}`;
      else if (opening && OPENS_ON_SELF_ZH.test(clause)) clause = `我${clause}`;
      else if (opening && OPENS_ON_SELF_EN.test(clause)) clause = `I ${lowerFirst(clause)}`;
      else if (opening && OPENS_ON_STATE_EN.test(clause)) clause = `I'm ${lowerFirst(clause)}`;
      else if (opening && OPENS_ON_CHILDREN_EN.test(clause)) clause = `I have ${lowerFirst(clause)}`;
      else if (opening && APPOINTMENT_OPENING_EN.test(clause)) {
        const article = /^an? /i.test(clause) ? '' : /^[aeiou]/i.test(clause) ? 'an ' : 'a ';
        clause = `I have ${article}${lowerFirst(clause)}`;
      }
      clause = clause.replace(USUAL_TIME_BEFORE_SELF_ZH, (_, when: string, how: string) => `我${when}${how}`);
      clause = clause.replace(TIME_BEFORE_INTENT_ZH, (_, before: string | undefined, after: string | undefined, intent: string) => `我${intent}${before ?? after ?? ''}`);
      clause = clause.replace(NOW_FIRST_EN, '');
      clause = clause.replace(OPENS_ON_INTENT_EN, (words: string, ing: string | undefined, _to: string | undefined, gonna: string | undefined) => `${ing || gonna ? "I'm" : 'I'} ${lowerFirst(words)}`);
      clause = clause.replace(TIME_BEFORE_INTENT_EN, (_, when: string, rest: string, end: string) => `${rest} ${when.toLowerCase()}${end}`);
      clause = clause.replace(TIME_BEFORE_APPOINTMENT_EN, (_, when: string, rest: string, end: string) => `${rest} ${when.toLowerCase()}${end}`);
      clause = clause.replace(HAS_RELATIVE_NAMED_ZH, (_, relation: string) => `我${relation}`);
      clause = clause.replace(NAMED_RELATIVE_ZH, (_, name: string, relation: string) => `我${relation}叫${name}`);
      const introduced = HAS_ONE_RELATIVE_ZH.exec(clause);
      subject = clause.startsWith('我');
      self = !introduced && SELF_SUBJECT_ZH.test(clause);
      // "我儿子的老师很好，今年五十岁", "我朋友来了，今年三十岁": someone else's clause; what follows is not the user's.
      other = OTHER_PERSON_ZH.test(clause);
      // The relative a clause is about carries to the next (and a sentence that names none keeps the last).
      const said = RELATIVE_SUBJECT_ZH.exec(clause);
      if (said) relative = said[0];
      else if (introduced) relative = `我${introduced[1]}`;
      else if (self) relative = undefined;
      hypothetical ||= HYPOTHETICAL.test(clause);
      const asked = hypothetical || (!requested && (question || QUESTION_EN.test(clause)));
      out.push({ text: clause.replace(/[吗呢]?[?？]*$/u, ''), correction, question: asked, remembered: remembering });
      list = asked ? undefined : listHead(clause);
      opening = false;
    }
  }
  return out;
}
