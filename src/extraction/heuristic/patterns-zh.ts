import { APPOINTMENT_ZH, kin, MILESTONE_ZH, moveTarget, REL_ZH, thirdPerson, type Pattern } from './candidate.js';

/**
 * Chinese statements, one clause at a time ("我叫李明", "我不喜欢香菜"). The first row that matches
 * wins, so narrower rows ("不再喜欢") come before wider ones ("不喜欢", "喜欢").
 * Every regex is anchored at both ends: a clause that only contains a pattern says something else.
 */

/** Sentence-final particles and marks that add nothing ("我搬到上海了啊！"). */
const END = '[了啊呀哦呢的吧啦嘛哈~～!！]*$';
const NAME = '([\\p{Script=Han}·]{1,6}?|[A-Za-z][A-Za-z .\'-]{0,30})';
const NOT_NAMES = new Set(['外卖', '车', '醒', '人', '什么']);
const ADV = '((?:很|非常|特别|超级|超|最|更|比较|挺|真的|一直|也|还|都)*)';
/** Adverbs that only link to an earlier clause ("也", "还") are dropped from the memory. */
const strength = (adv: string | undefined): string => (adv ?? '').replace(/[也还都]/g, '');
const JOB =
  '(.{0,12}?(?:工程师|程序员|码农|设计师|医生|护士|老师|教师|教授|律师|会计|经理|主管|总监|研究员|研究生|博士生|大学生|高中生|学生|作家|记者|编辑|分析师|架构师|开发者|顾问|销售|创业者|老板|厨师|司机|演员|歌手|摄影师|产品|运营|科学家|警察|公务员|自由职业者))';
const REL = REL_ZH;
const LANGUAGE_ZH = '(中文|英文|英语|日语|日文|韩语|韩文|法语|德语|西班牙语|粤语|繁体中文|简体中文|普通话)';
const PET = '(猫咪|小猫|猫|狗狗|小狗|狗|兔子|仓鼠|鹦鹉|金鱼|鱼|乌龟|龟|鸟|金毛|柯基|泰迪|哈士奇|布偶猫|英短|橘猫)';
/** When a death was, and how it came, between who and the verb: "上个月", "因为生病", "在医院". */
const WHEN_GONE = '(上周末?|上个?星期|上个?月|昨天|昨晚|前天|今天|今早|前几天|去年|前年|\\d{4}年|最近)';
const HOW_GONE = '((?:已经|刚刚?|突然|不幸|还是|终于)*(?:(?:因为?|由于|在)\\p{Script=Han}{1,8}?)?(?:已经|刚刚?|突然|不幸|还是|终于)*)';
/** A death said outright; then only as going away ("走了", "没了", "去汪星了"), which is a death only of a pet. */
const DIED = '(去世|过世|离世|病逝|死)了';
const GONE = '(走了|没了|不在了|离开(?:了)?我们了?|去了?(?:喵星|汪星|天堂)了?)';
/** The verb a death is written with: as said when said outright, else 去世. */
const diedAs = (said: string | undefined): string => (said === undefined || said === '死' ? '去世' : said);
const COUNT = '(一|两|二|三|四|五|几|\\d+)';
const NUM = '(?:\\d{1,2}|[一二三四五六七八九十]{1,3})';
/** An age in years: "七岁", "36岁". */
const AGE = '(\\d{1,3}|[一二三四五六七八九十两]{1,3})岁';
const BIRTH_DATE = `((?:\\d{4}年)?${NUM}月${NUM}[日号]?)`;
/** Common single-character surnames: what opens a name after "我是". */
const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
/**
 * After "我是", what opens like a name but is not one: a role ("我是老师", "我是高手"), a sign, a
 * place ("我是江西人", "我是武汉的": a place and 的 say where the user is from).
 */
const NOT_INTRO_NAMES = /^(?:老师|老板|老大|老人|老手|老乡|老实人|老司机|小孩|小学生|小白|阿姨|新手|高中生|高手|高管|初中生|金牛座|白羊座|双子座|万能|马上|许多|程序员|周末|任何|曾经|高兴|顾客|丁克)|[人区市省县镇村州]$/u;
/** Not a thing liked or disliked: a person, a pointer, or a condition's tail ("不喝就没精神": 就 goes on with what follows). */
const NOT_OBJECTS = /^(?:你|他|她|它|这|那|这样|那样|什么|谁|就|才|的话)/;

const re = (source: string): RegExp => new RegExp(`^${source}${END}`, 'u');
/** What one does about a todo, one character each ("交房租", "开会", "吃药", "打电话"). */
const DONE_VERBS_ZH = '交|开|吃|打|买|发|寄|还|缴|付|办|写|订|取|拿|修|洗|看|见|做|去|回|续|退|充|剪|遛|喂|扔|倒|收|约|复|体检';

/** What opens a request to be reminded: the plan rows leave it to the todo rows. */
const NOT_A_REQUEST = '(?![^我，,]{0,12}?(?:提醒|别忘了?|记得)(?:一下)?我)';

export const ZH_PATTERNS: readonly Pattern[] = [
  // A reminder called off ("以后不用再提醒我吃药了"): before the todo rows, which would read it as a request.
  {
    slot: 'stop-reminder', kind: 'todo', importance: 0.7,
    re: re('(?:以后|从现在开始|从今天起)?(?:你)?(?:就)?(?:不用|不要|别|不必|无需)(?:再)?提醒(?:一下)?我(?:要)?(.+?)'),
    build: (m) => ({ content: '', value: m[1]! }),
  },
  // The task first: "钢琴课那个不用提醒了", "吃药的提醒不用了", "交房租的事不用再提醒我了".
  {
    slot: 'stop-reminder', kind: 'todo', importance: 0.7,
    re: re('(.+?)(?:那个|这个|的事|的提醒|那件事)?(?:就)?(?:不用|不要|别|不必|无需)(?:再)?提醒(?:我)?(?:了)?|(.+?)的提醒(?:就)?(?:不用|不要)了'),
    build: (m) => (/^(?:我|你|他|她|它|我们|你们)$/u.test((m[1] ?? m[2])!) ? undefined : { content: '', value: (m[1] ?? m[2])! }),
  },
  // "修水管的事算了": the todo is called off; said of nothing the user has, it is let be.
  {
    slot: 'stop-reminder', kind: 'todo', importance: 0.7,
    re: re('(?:那个|这个)?(.{1,12}?)(?:的事|那件事|那个|这个)(?:就)?(?:算了|不用管了|不用弄了|不用了)'),
    build: (m) => (/^(?:我|你|他|她|它|我们|你们)$/u.test(m[1]!) ? undefined : { content: '', value: m[1]!, quiet: true }),
  },
  // A todo called off ("明天的会取消了", "把交房租的提醒取消吧", "取消明天的会"); said of the world with no such todo, it is let be.
  {
    slot: 'stop-reminder', kind: 'todo', importance: 0.7,
    re: re('(?:帮我|请|麻烦你?)?取消(?:掉)?(.+?)'),
    build: (m) => ({ content: '', value: m[1]! }),
  },
  {
    slot: 'stop-reminder', kind: 'todo', importance: 0.7,
    re: re('(帮我|请|麻烦你?)?(把|将)?(.+?)(?:已经|都|被)?取消(?:掉)?'),
    build: (m) => ({ content: '', value: m[3]!, quiet: !m[1] && !m[2] && !m[3]!.includes('提醒') && !/吧$/.test(m[0]) }),
  },
  // A todo moved ("明天的会改到下午四点", "把吃药的提醒改到晚上九点", "健身改成每周三"): before the todo rows too.
  {
    slot: 'move-todo', kind: 'todo', importance: 0.7,
    re: re('(?:我们?)?(?:把|将)?(.+?)(?:的时间)?(?:改到|改成|改在|改为|挪到|推迟到|推后到|推到|延后到|延期到|延到|提前到|调到|调整到|换到)(.+?)'),
    build: (m) => { const to = moveTarget(m[2]!); return to ? { content: '', value: m[1]!, ...to } : undefined; },
  },
  // A todo done ("我已经交了房租", "房租交了", "会开完了", "吃过药了", "交房租的事搞定了"): the verb must be the todo's too.
  {
    slot: 'todo-done', kind: 'todo', importance: 0.7,
    re: re(`我?(?:已经|刚刚?|刚才)(.{0,4}?)(${DONE_VERBS_ZH})(?:了|过|完|好)了?(.{1,12}?)`),
    build: (m) => (/[不没别]/.test(m[1]!) ? undefined : { content: '', value: m[3]!, doneVerb: m[2]! }),
  },
  // "我已经吃药了", "刚给奶奶打电话了": the verb, then its object, then 了.
  {
    slot: 'todo-done', kind: 'todo', importance: 0.7,
    re: re(`我?(?:已经|刚刚?|刚才)(?:给|跟|和)?(.{0,6}?)(${DONE_VERBS_ZH})(.{1,10}?)了`),
    build: (m) => (/[不没别要得该想]/.test(m[1]!) ? undefined : { content: '', value: `${m[1]}${m[3]}`, doneVerb: m[2]! }),
  },
  {
    slot: 'todo-done', kind: 'todo', importance: 0.7,
    re: re(`我?(?:已经|刚刚?)?(${DONE_VERBS_ZH})(?:过|完|好)(.{1,12}?)了`),
    build: (m) => ({ content: '', value: m[2]!, doneVerb: m[1]! }),
  },
  {
    slot: 'todo-done', kind: 'todo', importance: 0.7,
    re: re(`(.{1,12}?)(?:已经|都)?(?<![该要得快没别还不])(${DONE_VERBS_ZH})(?:完|好|过)?了`),
    build: (m) => ({ content: '', value: m[1]!, doneVerb: m[2]! }),
  },
  {
    slot: 'todo-done', kind: 'todo', importance: 0.7,
    re: re('(.{1,16}?)(?:的事|这件事|那件事)?(?:已经|都)?(?:搞定|完成|办好|弄好|做完|办完|弄完)了'),
    build: (m) => ({ content: '', value: m[1]! }),
  },
  // A death ("我的猫咪咪上周去世了", "我外婆去年过世了", "旺财上个月因为生病去世了"): a pet's memory is retired by it
  // (reconcile.ts). Going away ("走了", "没了", "离开我们了") says it only of a pet: "我爸走了" may only have left.
  {
    slot: 'loss', kind: 'event', importance: 0.8,
    re: re(`我(?:们家|家)?的?(?:${PET}|${REL})((?![上昨前去今刚已突最因在])\\p{Script=Han}{1,3}?|[A-Za-z][A-Za-z'-]{1,20})?(?:在)?${WHEN_GONE}?${HOW_GONE}(?:${DIED}|${GONE})`),
    build: (m) => {
      const pet = m[1] !== undefined;
      if (!pet && m[7] !== undefined) return undefined;
      const kind = pet ? m[1]! : kin(m[2]!);
      const subject = `用户的${kind}${m[3] ?? ''}`;
      return { content: `${subject}${m[4] ?? ''}${m[5]}${diedAs(m[6])}了`, value: `${kind}${m[3] ?? ''}`, past: true, lost: { pet, kind, ...(m[3] ? { name: m[3] } : {}), subject: subject.length } };
    },
  },
  // "咪咪上周去世了", "我们家咪咪昨天没了": a name alone, which only a pet's memory can say is the user's (reconcile.ts),
  // so going away may say it too ("钱包没了" names no pet the user has).
  {
    slot: 'loss', kind: 'event', importance: 0.8,
    re: re(`(?:我们?家的?|我的)?((?![我你他她它这那])\\p{Script=Han}{1,4}?|[A-Z][A-Za-z'-]{1,20})${WHEN_GONE}?${HOW_GONE}(?:(去世|过世|离世|病逝)了|${GONE})`),
    build: (m) => ({ content: `${m[1]}${m[2] ?? ''}${m[3]}${diedAs(m[4])}了`, value: m[1]!, past: true, quiet: true, lost: { pet: true, name: m[1]!, subject: m[1]!.length } }),
  },
  // The job over ("我辞职了", "我已经从阿里离职了", "我上个月退休了"), or left for another ("我换工作了"): the job memory says so (reconcile.ts).
  {
    slot: 'job-end', kind: 'event', importance: 0.8,
    re: re(`我${WHEN_GONE}?(?:已经|刚刚?|终于|最近|也|正式)*${WHEN_GONE}?(?:从(.{1,12}?))?(?:正式)?(辞职|离职|退休|裸辞|被裁员?|被辞退|被开除|下岗|失业|辞掉?了?工作|把工作辞掉?了|换了?(?:一?份|个)?(?:新)?工作)了?`),
    build: (m) => {
      const when = m[1] ?? m[2] ?? '';
      // In the words said: "换了一份新工作" says it is new.
      const what = m[4]!.includes('了') ? m[4]! : `${m[4]}了`;
      // "我失业" is a state; "我换工作" without 了 may be only a wish.
      if (!m[0].includes('了')) return undefined;
      return { content: `用户${when}${m[3] ? `从${m[3]}` : ''}${what}`, value: m[3] ?? '', past: true, ...(m[4]!.startsWith('换') ? { jobChange: true } : {}) };
    },
  },
  // Corrections that take something back.
  {
    slot: 'no-longer-like', kind: 'preference', importance: 0.6,
    re: re('我(?:现在|已经)*不再(?:喜欢|爱)(.+?)'),
    build: (m) => ({ content: `用户不再喜欢${thirdPerson(m[1]!, 'zh')}`, value: m[1]! }),
  },
  {
    slot: 'no-longer-like', kind: 'preference', importance: 0.6,
    re: new RegExp(`^我(?:现在|已经)*不(?:喜欢|爱)(.+?)了${END}`, 'u'),
    build: (m) => ({ content: `用户不再喜欢${thirdPerson(m[1]!, 'zh')}`, value: m[1]! }),
  },
  // "我不喝咖啡了": 了 says it was so before; a liked drink, if there is one, is no longer liked.
  {
    slot: 'no-longer-like', kind: 'preference', importance: 0.6,
    re: new RegExp(`^我(?:现在|已经)*不(喝|吃|抽)(.+?)了${END}`, 'u'),
    build: (m) => ({ content: `用户不再${m[1]}${thirdPerson(m[2]!, 'zh')}`, value: m[2]! }),
  },
  {
    slot: 'no-longer', kind: 'fact', importance: 0.6,
    re: re('我(?:现在|已经)*不在(.+?)(工作|上班)了'),
    build: (m) => ({ content: `用户不再在${m[1]}${m[2]}`, value: m[1]! }),
  },
  {
    slot: 'no-longer', kind: 'fact', importance: 0.6,
    re: re('我(?:现在|已经)*不再(.+?)'),
    build: (m) => ({ content: `用户不再${thirdPerson(m[1]!, 'zh')}`, value: m[1]! }),
  },
  // "我现在不减肥了": what a memory says the user does is over; with no such memory it says nothing ("我现在不饿了").
  {
    slot: 'no-longer', kind: 'fact', importance: 0.6,
    re: new RegExp(`^我(?:现在|已经)+不(?:在)?(\\p{Script=Han}{2,8}?)了${END}`, 'u'),
    build: (m) => ({ content: `用户不再${m[1]}`, value: m[1]!, quiet: true }),
  },
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
  // Family and pets.
  {
    slot: 'family', kind: 'person', importance: 0.7,
    re: re(`我(?:家里?)?有${COUNT}?个(孩子|小孩|儿子|女儿|兄弟姐妹|兄弟|姐妹|哥哥|姐姐|弟弟|妹妹)`),
    build: (m) => ({ content: `用户有${m[1] ?? '一'}个${m[2]}`, value: m[2]! }),
  },
  {
    slot: 'family', kind: 'person', importance: 0.6,
    re: re(`我(?:们)?家(?:一共|总共)?有${COUNT}口人`),
    build: (m) => ({ content: `用户家有${m[1]}口人`, value: '家庭人口' }),
  },
  {
    slot: 'family', kind: 'person', importance: 0.7,
    re: re('我(?:已经)?(结婚|离婚|订婚|单身)'),
    build: (m) => ({ content: m[1] === '单身' ? '用户单身' : `用户已${m[1]}`, value: '婚姻' }),
  },
  {
    slot: 'pet', kind: 'fact', importance: 0.7,
    // Named after it ("一只猫，叫小白") or before it ("一只叫年糕的橘猫").
    re: re(`我(?:们?家里?|家里)?(?:也|还|刚|又)?(?:养了|养着|养|有|领养了|收养了|捡了)${COUNT}?(只|条|匹|头|个)(?:(?:叫|名叫)${NAME}的)?${PET}(?:[，,]?(?:它)?(?:叫|名叫|名字叫)${NAME})?`),
    build: (m) => {
      const name = m[3] ?? m[5];
      return { content: `用户养了${m[1] ?? '一'}${m[2]}${m[4]}${name ? `，名叫${name}` : ''}`, value: `${m[4]}:${name ?? ''}` };
    },
  },
  {
    slot: 'pet', kind: 'fact', importance: 0.7,
    re: re(`我(?:家)?的?${PET}(?:的名字)?(?:叫|名叫|是)${NAME}`),
    build: (m) => ({ content: `用户的${m[1]}叫${m[2]}`, value: `${m[1]}:${m[2]}` }),
  },
  // A relative's age ("我女儿今年七岁", "我女儿是八岁"): one value for each relative, which a new one replaces.
  {
    slot: 'kinAge', kind: 'person', importance: 0.7,
    // A name may follow the relation ("我儿子乐乐今年五岁").
    re: re(`我(?:的)?${REL}((?![今现是已都才快也还刚满])\\p{Script=Han}{1,3}?)?(今年|现在)?(?:是|已经|都|才)?${AGE}(?:了)?`),
    build: (m) => ({ content: `用户的${kin(m[1]!)}${m[2] ?? ''}${m[3] ?? ''}${m[4]}岁`, value: m[4]!, who: m[2] ? [kin(m[1]!), m[2]] : [kin(m[1]!)] }),
  },
  {
    slot: 'family', kind: 'person', importance: 0.7,
    re: re(`我(?:的)?${REL}(叫|名叫|是|在|今年|住在|喜欢|也是|刚|已经|做|有(?=高血压|糖尿病|哮喘|心脏病|冠心病|癌症|高血脂|痛风|老年痴呆|阿尔茨海默)|不吃|不喝|不爱吃|不能吃|不能喝|吃不了|不喜欢|讨厌|爱吃|对(?=.{1,10}过敏)|(?:明天|后天|下周|下个?月|明年|最近|每天|每周)(?!过?生日))(.+?)`),
    // The relative is the subject: "来上海看我" is 来上海看用户 (自己 would be the relative).
    build: (m) => ({ content: `用户的${kin(m[1]!)}${m[2]}${m[3]!.replace(/我(?!们)/gu, '用户')}`, value: kin(m[1]!) }),
  },
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
  // Todos: the task keeps its time phrase; the extractor parses it.
  // "帮我设个提醒：明天下午三点开会", "设一个明天早上八点的提醒：吃药".
  {
    slot: 'todo', kind: 'todo', importance: 0.7,
    re: re('(?:请|麻烦)?(?:你)?(?:帮我)?(?:设|设置|定|加|建)(?:一?个|一下)?(.{0,16}?)的?提醒[:：，,\\s]+(.+?)'),
    build: (m) => ({ content: '', value: m[2]!, task: `${m[1]!.replace(/的$/u, '')}${m[2]}` }),
  },
  {
    slot: 'todo', kind: 'todo', importance: 0.7,
    re: re('(?:请|麻烦)?(?:你)?(?:能不能|能|可以|可不可以)?(?:帮我)?(?:记得|记住|要)?提醒(?:一下)?我(?:一下)?(?:要)?(.+?)'),
    // "提醒我了": someone did, and no task is named.
    build: (m) => (/^[了过啊呀哦吧呢嘛的]+$/u.test(m[1]!) ? undefined : { content: '', value: m[1]!, task: m[1]! }),
  },
  {
    slot: 'todo', kind: 'todo', importance: 0.7,
    // "别让我忘了周五还信用卡": the same request, said as what not to let happen.
    re: re('(?:你)?(?:别|不要)(?:让我)?忘(?:了|记)?(?:提醒我)?(.+?)'),
    build: (m) => ({ content: '', value: m[1]!, task: m[1]! }),
  },
  {
    slot: 'todo', kind: 'todo', importance: 0.7,
    re: re('(?:请)?(?:帮我)?(?:记得|记住|记一下)(?:要)?(.+?)'),
    build: (m) => ({ content: '', value: m[1]!, task: m[1]! }),
  },
];
