import { APPOINTMENT_ZH, MILESTONE_ZH, thirdPerson, type Pattern } from './candidate.js';
import { ZH_CHANGES } from './patterns-zh-changes.js';
import { ZH_PEOPLE } from './patterns-zh-people.js';
import { ZH_TODO_ACTIONS, ZH_TODO_REQUESTS } from './patterns-zh-todos.js';
import { BIRTH_DATE, NAME, NOT_OBJECTS, re, REL } from './patterns-zh-words.js';

/**
 * Chinese statements, one clause at a time ("我叫李明", "我不喜欢香菜"). The first row that matches
 * wins, so narrower rows ("不再喜欢") come before wider ones ("不喜欢", "喜欢").
 * Every regex is anchored at both ends: a clause that only contains a pattern says something else.
 */

const NOT_NAMES = new Set(['外卖', '车', '醒', '人', '什么']);
const ADV = '((?:很|非常|特别|超级|超|最|更|比较|挺|真的|一直|也|还|都)*)';
/** Adverbs that only link to an earlier clause ("也", "还") are dropped from the memory. */
const strength = (adv: string | undefined): string => (adv ?? '').replace(/[也还都]/g, '');
const JOB =
  '(.{0,12}?(?:工程师|程序员|码农|设计师|医生|护士|老师|教师|教授|律师|会计|经理|主管|总监|研究员|研究生|博士生|大学生|高中生|学生|作家|记者|编辑|分析师|架构师|开发者|顾问|销售|创业者|老板|厨师|司机|演员|歌手|摄影师|产品|运营|科学家|警察|公务员|自由职业者))';
const LANGUAGE_ZH = '(中文|英文|英语|日语|日文|韩语|韩文|法语|德语|西班牙语|粤语|繁体中文|简体中文|普通话)';
/** Common single-character surnames: what opens a name after "我是". */
const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
/**
 * After "我是", what opens like a name but is not one: a role ("我是老师", "我是高手"), a sign, a
 * place ("我是江西人", "我是武汉的": a place and 的 say where the user is from).
 */
const NOT_INTRO_NAMES = /^(?:老师|老板|老大|老人|老手|老乡|老实人|老司机|小孩|小学生|小白|阿姨|新手|高中生|高手|高管|初中生|金牛座|白羊座|双子座|万能|马上|许多|程序员|周末|任何|曾经|高兴|顾客|丁克)|[人区市省县镇村州]$/u;

/** What opens a request to be reminded: the plan rows leave it to the todo rows. */
const NOT_A_REQUEST = '(?![^我，,]{0,12}?(?:提醒|别忘了?|记得)(?:一下)?我)';

/** Who the user is: name, job, home, allergies, birthday, diet. */
const IDENTITY: readonly Pattern[] = [
  // Identity.
  {
    slot: 'name', kind: 'identity', importance: 0.9,
    re: re(`(?:我的?名字(?:是|叫)|我叫做?|我名叫|(?:你)?(?:可以)?(?:就)?叫我)${NAME}(?:就行|就好|就可以|以后.*)?`),
    build: (m) => (NOT_NAMES.has(m[1]!) || m[1]!.startsWith('了') ? undefined : { content: `用户叫${m[1]}`, value: m[1]! }),
  },
  // "我是小李", "我是王芳": a self-introduction when a surname (or 小/老/阿) opens a name of two or three characters.
  {
    slot: 'name', kind: 'identity', importance: 0.9,
    re: re(`我是((?:小|老|阿)\\p{Script=Han}|[${SURNAMES}]\\p{Script=Han}{1,2})`),
    build: (m) => (NOT_INTRO_NAMES.test(m[1]!) || /的[啊呀哦呢吧啦嘛哈~～!！]*$/u.test(m[0]!) ? undefined : { content: `用户叫${m[1]}`, value: m[1]! }),
  },
  // "我是Lisa": a Latin name, capitalised (not "我是PM", "我是IT").
  {
    slot: 'name', kind: 'identity', importance: 0.9,
    re: re('我是([A-Z][a-z]{1,19}(?: [A-Z][a-z]{1,19})?)'),
    build: (m) => ({ content: `用户叫${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'job', kind: 'identity', importance: 0.8,
    re: re(`我(?:也|还)?(?:现在)?(?:是|当)(?:一名|一个|一位|个|名)?${JOB}`),
    build: (m) => ({ content: `用户是${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'job', kind: 'identity', importance: 0.8,
    re: re('我(?:的工作是|的职业是|从事)(.+?)'),
    build: (m) => ({ content: `用户的工作是${thirdPerson(m[1]!, 'zh')}`, value: m[1]! }),
  },
  {
    slot: 'home', kind: 'identity', importance: 0.8,
    // "我们搬到杭州了": the household moved, the user with it.
    re: re('我(?:们(?:家)?)?(?:现在|目前|刚刚?|去年|今年|前年|上个?月|\\d{4}年)?(?:住在|家在|生活在|定居在|(?:已经)?搬到了?|(?:已经)?搬去了?|搬家到)(.+?)'),
    build: (m) => ({ content: `用户住在${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'home', kind: 'identity', importance: 0.8,
    re: re('我(?:现在|目前)?在(.+?)(?:生活|定居)'),
    build: (m) => ({ content: `用户住在${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'employer', kind: 'identity', importance: 0.8,
    re: re('我(?:现在|目前)?在(.+?)(工作|上班|任职|实习)'),
    // Not a place: "我在忙工作", "我在考虑要不要换工作", "我在找工作".
    build: (m) => (/^(?:忙|努力|认真|加班)|考虑|想|犹豫|纠结|找|换|要不要/.test(m[1]!) ? undefined : { content: `用户在${m[1]}${m[2]}`, value: m[1]! }),
  },
  // "我的公司是阿里", "…，公司是阿里" (see clauses.ts): where the user works; "公司是做电商的" says what it does.
  {
    slot: 'employer', kind: 'identity', importance: 0.8,
    re: re('我(?:的|们)?(?:公司|单位)(?:是|叫)(.{1,20}?)'),
    build: (m) => (/^(?:做|搞|干|一家|一个|个|在|不是|很|挺|非常|什么|哪)|的$/u.test(m[1]!) ? undefined : { content: `用户在${m[1]}工作`, value: m[1]! }),
  },
  {
    slot: 'origin', kind: 'identity', importance: 0.7,
    re: re('我(?:来自|老家(?:是|在)|是从)(.+?)(?:来的)?'),
    build: (m) => ({ content: `用户来自${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'origin', kind: 'identity', importance: 0.7,
    re: re('我是(\\p{Script=Han}{2,5}?)人'),
    build: (m) => (/[好坏个一中]/.test(m[1]!) ? undefined : { content: `用户是${m[1]}人`, value: m[1]! }),
  },
  {
    slot: 'allergy', kind: 'fact', importance: 0.8,
    re: re('我对(.+?)过敏'),
    build: (m) => ({ content: `用户对${m[1]}过敏`, value: m[1]! }),
  },
  {
    slot: 'allergy', kind: 'fact', importance: 0.8,
    re: re('我(?:也|还)?(?:有(?:点|些)?)?(乳糖|麸质|果糖|酒精)不耐受?症?'),
    build: (m) => ({ content: `用户${m[1]}不耐受`, value: m[1]! }),
  },
  // "医生让我少吃辣", "医生说我不能喝酒": what the user must keep to, said by their doctor ("医生让我多喝水" is advice, not a limit).
  {
    slot: 'health', kind: 'fact', importance: 0.8,
    re: re(`(?:我的?)?(医生|大夫|牙医|营养师)(让|叫|要|要求|建议|嘱咐|叮嘱|交代|提醒|说|告诉)我?((?:要|得|必须|最好|一定要)?(?:少吃|少喝|少碰|别吃|别喝|别碰|不要吃|不要喝|不要碰|不能吃|不能喝|不能碰|戒掉?|忌|控制)\\p{Script=Han}.{0,15}?)`),
    build: (m) => ({ content: `${m[1]}${m[2]}用户${m[3]}`, value: m[3]!, limit: true }),
  },
  // A birthday: a month and a day ("我的生日是5月3日", "我是1990年十月一号出生的").
  {
    slot: 'bloodType', kind: 'identity', importance: 0.7,
    re: re('我的?血型是([ABOabo]|AB|ab)型?(阳性|阴性|Rh阴性|RH阴性|Rh阳性|RH阳性)?'),
    build: (m) => ({ content: `用户的血型是${m[1]!.toUpperCase()}型${m[2] ?? ''}`, value: m[1]!.toUpperCase() }),
  },
  // "我们刚在杭州买了房": the user's household, said with 我们.
  {
    slot: 'possession', kind: 'fact', importance: 0.6,
    re: re('我们?(?:家)?((?:刚刚?|终于|去年|今年|前年|上个?月)*)在(\\p{Script=Han}{2,8}?)(买了|租了)(房|房子|套房子?|一套房子?|公寓|一套公寓|新房)'),
    build: (m) => ({ content: `用户${m[1]}在${m[2]}${m[3]}${m[4]}`, value: `${m[2]}${m[4]}`, past: true }),
  },
  {
    slot: 'birthday', kind: 'identity', importance: 0.8,
    re: re(`(?:我的?生日(?:是|在)?${BIRTH_DATE}|我是?${BIRTH_DATE}(?:出生|生)的?)`),
    build: (m) => ({ content: `用户的生日是${m[1] ?? m[2]}`, value: (m[1] ?? m[2])! }),
  },
  // The language the user wants replies in: asked of the assistant ("以后用中文回答我", "回复我的时候请用英文"), or as kept ("我希望用中文交流").
  {
    slot: 'replyLanguage', kind: 'preference', importance: 0.8,
    re: re(`(?=以后|今后|之后|从现在|请|麻烦|回答|回复|我希望|你|.*(?:回答|回复|交流|说话|聊天))(?:以后|今后|之后|从现在开始|从现在起)?[，,]?(?:请|麻烦)?你?(?:都|也)?(?:(?:回答|回复)我(?:的时候|的问题)?[，,]?(?:都|请|要)?)?(?:我希望你?(?:都)?)?(?:用|使用|说)${LANGUAGE_ZH}(?:来)?(?:回答|回复|交流|和我(?:说话|交流|聊天)|跟我(?:说话|交流|聊天)|说话|聊天)?(?:我)?(?:吧|哦|啊|好吗)?`),
    build: (m) => ({ content: `用户希望用${m[1]}交流`, value: m[1]! }),
  },
  // Diet: what every food suggestion has to respect.
  {
    slot: 'diet', kind: 'identity', importance: 0.8,
    re: re('我(?:现在|一直|已经)?(?:是(?:个|一[个名])?(纯素食者|素食主义者|素食者|吃素的)|(吃素|吃全素|只吃素|不吃肉|戒肉了?))'),
    build: (m) => ({ content: m[1] ? `用户是${m[1] === '吃素的' ? '素食者' : m[1]}` : `用户${m[2]!.replace(/了$/u, '')}`, value: m[1] ?? m[2]!.replace(/了$/u, '') }),
  },
];

/** What the user likes and plans. */
const TASTES_AND_PLANS: readonly Pattern[] = [
  // A favourite of a kind ("我最喜欢的电影现在是《奥本海默》"): before the like rows, which would read "的电影是…" as the thing liked.
  {
    slot: 'favorite', kind: 'preference', importance: 0.6,
    re: re('我(?:现在)?最(?:喜欢|爱)的(\\p{Script=Han}{1,6}?)(?:现在|目前|已经)?(?:是|变成了?|换成了?|成了)(.{1,20}?)'),
    build: (m) => (NOT_OBJECTS.test(m[2]!) ? undefined : { content: `用户最喜欢的${m[1]}是${thirdPerson(m[2]!, 'zh')}`, value: m[2]!, who: [m[1]!] }),
  },
  // Likes and dislikes. "我现在改喝茶": what the user has now instead.
  {
    slot: 'like', kind: 'preference', importance: 0.6,
    re: re('我(?:现在|已经|最近)*(?:都)?(?:改|换)(?:成|为)?(喝|吃|抽|用)(.+?)'),
    build: (m) => (NOT_OBJECTS.test(m[2]!) ? undefined : { content: `用户现在改${m[1]}${thirdPerson(m[2]!, 'zh')}`, value: m[2]! }),
  },
  {
    slot: 'dislike', kind: 'preference', importance: 0.6,
    re: re(`我${ADV}(不太喜欢|不喜欢|不爱吃|不爱|不怎么吃|不怎么喝|不怎么喜欢|讨厌|受不了|不太能吃|不能吃|吃不了|不太能喝|不能喝|喝不了|不吃|不喝|反感|害怕|怕)(.+?)`),
    build: (m) => (NOT_OBJECTS.test(m[3]!) ? undefined : { content: `用户${strength(m[1])}${m[2]}${thirdPerson(m[3]!, 'zh')}`, value: m[3]! }),
  },
  {
    slot: 'like', kind: 'preference', importance: 0.6,
    re: re(`我${ADV}(喜欢|爱吃|爱喝|爱看|爱玩|热爱|喜爱|偏爱|偏好|爱)(.+?)`),
    build: (m) => (NOT_OBJECTS.test(m[3]!) ? undefined : { content: `用户${strength(m[1])}${m[2]}${thirdPerson(m[3]!, 'zh')}`, value: m[3]! }),
  },
  // The languages the user speaks: what to answer in (before the plans: "一点" is no time here).
  {
    slot: 'study', kind: 'identity', importance: 0.7,
    re: re('我(?:会说|会讲|能说|能讲|说|讲)((?:(?:一点|一些|流利的)?(?:英语|英文|中文|汉语|普通话|粤语|日语|日文|韩语|法语|德语|西班牙语|意大利语|葡萄牙语|俄语|阿拉伯语|上海话|四川话|闽南语|客家话)(?:和|、|，|,|跟)?)+)'),
    build: (m) => ({ content: `用户会说${m[1]!.replace(/[和、，,跟]$/u, '')}`, value: m[1]! }),
  },
  // Plans and decisions: "决定" commits by itself, "要" only with a time ("我下周要去东京出差").
  {
    slot: 'plan', kind: 'plan', importance: 0.6,
    // Not a request to be reminded ("提醒我下周五要交报告", a todo).
    re: re(`${NOT_A_REQUEST}([^我，,]{0,12}?)我(?:也|还|都)?((?:已经)?(?:决定|打算|计划|准备))(.+?)`),
    // "我准备好了", "我决定了": ready, decided, but on nothing said.
    build: (m) => (/^(?:好|了|一下)$/u.test(m[3]!) ? undefined : { content: `用户${m[1]}${m[2]}${thirdPerson(m[3]!, 'zh')}`, value: m[3]! }),
  },
  {
    slot: 'plan', kind: 'plan', importance: 0.6,
    re: re(`${NOT_A_REQUEST}([^我，,]{0,12}?)我([^，,不没吗]{0,12}?)(要|会|将要|将|得)(.+?)`),
    build: (m) => ({ content: `用户${m[1]}${m[2]}${m[3]}${thirdPerson(m[4]!, 'zh')}`, value: m[4]!, needsTime: true }),
  },
  // The user's own milestone on a day ("我下个月结婚"); not someone else's ("我朋友下周结婚").
  {
    slot: 'plan', kind: 'plan', importance: 0.7,
    // Not one that is past ("我去年结婚了": an event).
    re: re(`我们?(?!的|朋友|同事|同学|闺蜜|老板|领导|${REL.slice(1, -1)})(?!.*(?:昨天|前天|上周|上个?月|去年|刚才|之前|以前|已经|刚|了[啊呀哦呢的吧啦嘛哈~～!！]*$))([^，,不没吗了]{1,12}?)(${MILESTONE_ZH})(.{0,12}?)`),
    build: (m) => ({ content: `用户${m[1]}${m[2]}${m[3]}`, value: `${m[2]}${m[3]}`, needsTime: true }),
  },
  // An appointment on a day needs no 要 ("我明天下午三点开会"; typed without 我 too, see clauses.ts).
  {
    slot: 'plan', kind: 'plan', importance: 0.6,
    // Not what is past ("我昨天去杭州出差了": an event) nor a request ("提醒我明天开会": a todo).
    re: re(`(?!.*(?:昨天|前天|上周|上个?月|去年|刚才|之前|以前|提醒|记得|别忘))([^我，,]{0,12}?)我([^，,不没吗要了]{1,16}?)(${APPOINTMENT_ZH})(.{0,16}?)`),
    build: (m) => ({ content: `用户${m[1]}${m[2]}${m[3]}${m[4]}`, value: `${m[3]}${m[4]}`, needsTime: true }),
  },
];

export const ZH_PATTERNS: readonly Pattern[] = [...ZH_TODO_ACTIONS, ...ZH_CHANGES, ...IDENTITY, ...ZH_PEOPLE, ...TASTES_AND_PLANS, ...ZH_TODO_REQUESTS];
