import { kin, thirdPerson, type Pattern } from './candidate.js';

/**
 * 中文的自我披露，在核心表（patterns-zh.ts）没有匹配时才用：用户做过什么、正在做什么、想做什么，
 * 身边的人，学习和工作，健康，买了什么，习惯。Precision first: the clause starts with "我" (or a
 * time word and then "我"), says one thing outright, and questions and hypotheticals never reach
 * these rows (clauses.ts). Every regex is anchored at both ends.
 */

const END = '[了啊呀哦呢的吧啦嘛哈~～!！]*$';
/** "我们" is a group, not the user: no row reads it as "我". */
const re = (source: string): RegExp => new RegExp(`^${source.replace(/我/g, '我(?!们)')}${END}`, 'u');
const third = (text: string | undefined): string => thirdPerson(text ?? '', 'zh');
/** A part of the day, alone ("晚上我…") or after a day ("昨天晚上"). */
const PART_OF_DAY = '(?:早上|晚上|下午|上午|中午|夜里)';
/** A time word before "我" ("上周末我…") or right after it ("我上周末…", "我上周五…", "我昨天晚上…"). */
const WHEN = `((?:(?:今天|昨天|前天|上周末|上{1,2}个?(?:周|星期|礼拜)[一二三四五六日天]?|上个?月|今年|去年|前年|周末|刚才|最近|前几天|那天|以前|小时候)${PART_OF_DAY}?|${PART_OF_DAY})?)`;
/** For what others do: the future too ("我朋友下周结婚"). */
const WHEN_ANY = '((?:今天|昨天|前天|上周末|上周|上个?月|今年|去年|最近|明天|后天|下周末|下周|下个?月|明年)?)';
const MAX_CHARS = 40;
/** A day as people say it: 下个月、下周六、三月五号、5月5日. */
const DAY_ZH = '(?:今天|明天|后天|这周[一二三四五六日天末]?|下个?(?:周|星期|礼拜)[一二三四五六日天末]?|下个?月(?:[一二三四五六七八九十]{1,3}|\\d{1,2})?[号日]?|(?:[一二三四五六七八九十]{1,3}|\\d{1,2})月(?:[一二三四五六七八九十]{1,3}|\\d{1,2})[号日]|(?:[一二三四五六七八九十]{1,3}|\\d{1,2})[号日])';
/** Objects that say nothing about the user's life. */
const VAGUE = /^(?:你|他|她|它|这|那|什么|一下|一点|好|啥|个)/u;

const DID = '(去了|去过|参加了|报名了|报了|看了|看完了|读完了|读完|看完|跑完了|跑完|迷上了|爱上了|喜欢上了|毕业于|买了|入手了|换了|搬到了|学会了|考过了|考上了|考上|抽到了|抽中了|通过了|完成了|认识了|养了|开始学|开始做|开始|辞职了|跳槽到了|跳槽去了|拿到了|收到了|做了|画了|写了|种了|跑了|爬了|学了|去看了|陪|带|和|跟)';
const REL = '(朋友|好朋友|闺蜜|同事|室友|同学|老板|领导|邻居|老婆|妻子|老公|丈夫|男朋友|女朋友|对象|儿子|女儿|孩子|爸爸|妈妈|爸|妈|哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|外公|外婆|表哥|表姐|表弟|表妹|猫|狗)';
const HEALTH = '(感冒|发烧|生病|咳嗽|失眠|骨折|扭伤|过敏|胃疼|头疼|腰疼|怀孕|住院|做了手术|拔了智齿)';

export const ZH_DISCLOSURE: readonly Pattern[] = [
  // 我们：用户和身边的人一起做过的事（"我们上周去了一趟长城"）。re() keeps "我们" out of every other row, so this one is built by hand.
  {
    slot: 'activity', kind: 'event', importance: 0.5,
    re: new RegExp(`^${WHEN}我们${WHEN}(?:一起|还|也)?(去了|去过|参加了|办了|组织了|举办了|看了|爬了|做了|搬到了|搬进了)(.{2,${MAX_CHARS}}?)${END}`, 'u'),
    build: (m) => (VAGUE.test(m[4]!) || /你/u.test(m[4]!) ? undefined : { content: `用户和身边的人${m[1]}${m[2]}${m[3]}${third(m[4])}`, value: `${m[3]}${m[4]}`, past: true }),
  },
  // 我们喜欢的事（"我们喜欢周末去露营"）：用户和身边的人。
  {
    slot: 'like', kind: 'preference', importance: 0.6,
    re: new RegExp(`^我们(?:都|也|还|很|特别|非常|一直)*(喜欢|爱)(.{2,${MAX_CHARS}}?)${END}`, 'u'),
    build: (m) => (VAGUE.test(m[2]!) || /你/u.test(m[2]!) ? undefined : { content: `用户和身边的人${m[1]}${third(m[2])}`, value: m[2]! }),
  },
  // 健康
  {
    slot: 'health', kind: 'fact', importance: 0.7,
    re: re(`${WHEN}我${WHEN}(?:有点|又|最近)?${HEALTH}(.{0,12}?)`),
    build: (m) => ({ content: `用户${m[1]}${m[2]}${m[3]}${third(m[4])}`, value: m[3]!, past: true }),
  },
  {
    slot: 'health', kind: 'fact', importance: 0.7,
    re: re('我(?:一直)?有(高血压|糖尿病|哮喘|鼻炎|胃病|颈椎病|腰椎间盘突出|偏头痛|近视|贫血|焦虑症|抑郁症)'),
    build: (m) => ({ content: `用户有${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'health', kind: 'fact', importance: 0.7,
    re: re('我(?:一直|从小)?(?:有点|有些|比较|很)?(恐高|晕车|晕船|晕机|色弱|色盲|近视|远视|怕冷|怕热)'),
    build: (m) => ({ content: `用户${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'health', kind: 'fact', importance: 0.7,
    re: re('我的?(腰|膝盖|胃|颈椎|肩膀|眼睛|牙|嗓子)(?:一直|最近|有点)*(不太好|不好|疼|很疼|受伤)'),
    build: (m) => ({ content: `用户的${m[1]}${m[2]}`, value: m[1]! }),
  },
  {
    slot: 'health', kind: 'fact', importance: 0.6,
    re: re('我(?:一直|平时|从小)?(戴眼镜|戴隐形眼镜|不抽烟|不吸烟|戒烟了|戒酒了|在戒烟|在戒酒)'),
    build: (m) => ({ content: `用户${m[1]}`, value: m[1]! }),
  },
  // 星座、属相、左撇子、独生子女
  {
    slot: 'trait', kind: 'identity', importance: 0.6,
    re: re('我(?:的星座)?是?(白羊|金牛|双子|巨蟹|狮子|处女|天秤|天蝎|射手|摩羯|水瓶|双鱼)座'),
    build: (m) => ({ content: `用户是${m[1]}座`, value: `${m[1]}座` }),
  },
  {
    slot: 'trait', kind: 'identity', importance: 0.6,
    re: re('我属(鼠|牛|虎|兔|龙|蛇|马|羊|猴|鸡|狗|猪)'),
    build: (m) => ({ content: `用户属${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'trait', kind: 'identity', importance: 0.6,
    re: re('我(?:从小)?是(左撇子|独生子|独生女|家里的老大|家里的老二|家里的老幺|双胞胎)'),
    build: (m) => ({ content: `用户是${m[1]}`, value: m[1]! }),
  },
  // 身高：一个值
  {
    slot: 'height', kind: 'identity', importance: 0.5,
    re: re('我(?:的)?身高(?:是|有)?(1\\d\\d|一米[五六七八九](?:[一二三四五六七八九])?)(?:厘米|cm|公分)?'),
    build: (m) => ({ content: `用户身高${m[1]}${/^\d/.test(m[1]!) ? '厘米' : ''}`, value: m[1]! }),
  },
  // 学习和工作
  {
    slot: 'study', kind: 'fact', importance: 0.7,
    re: re('我(?:现在|目前|最近|一直)*(?:在|正在)(学|读|准备|备考|考(?!虑)|练|写|做|研究|带|装修|追|减肥|健身|备孕|筹备|策划|张罗|忙(?:着)?)(.{0,20}?)'),
    build: (m) =>
      VAGUE.test(m[2]!) || /^(?:饭|作业了?)$/.test(m[2]!) || (m[2] === '' && !/^(?:减肥|健身|备孕)$/.test(m[1]!)) ? undefined : { content: `用户在${m[1]}${third(m[2])}`, value: `${m[1]}${m[2]}` },
  },
  {
    slot: 'study', kind: 'fact', importance: 0.7,
    re: re('我(?:是|在)(.{2,16}?)(专业|系)(?:的)?(?:学生)?'),
    build: (m) => ({ content: `用户是${m[1]}${m[2]}的`, value: m[1]! }),
  },
  {
    slot: 'study', kind: 'fact', importance: 0.7,
    re: re('我(?:在)?(?:读|上)(大一|大二|大三|大四|研一|研二|研三|博一|博二|高一|高二|高三|初一|初二|初三)'),
    build: (m) => ({ content: `用户在读${m[1]}`, value: m[1]! }),
  },
  // 习惯：每天、每周、经常、平时
  {
    slot: 'habit', kind: 'pattern', importance: 0.6,
    re: re('我(?:一般|平时)?((?:每天|每周|每个?周末|每个?月|每晚|每天早上|每天晚上|周末|晚上|下班后)?(?:一般|经常|常常|平时|都会?|一有空就|总是)*(?:都|会)?)(.{2,24}?)'),
    build: (m) => (!/每|一般|经常|常常|平时|总是|一有空就/.test(m[0]!.slice(0, 8)) || VAGUE.test(m[2]!) ? undefined : { content: `用户${m[1]}${third(m[2])}`, value: m[2]! }),
  },
  // 想做的事和目标
  {
    slot: 'goal', kind: 'plan', importance: 0.6,
    re: re('我(?:一直|很|特别|真的|还|也|最近)*(想|想要|希望|梦想|打算明年|希望能|希望以后能)((?:这个?周末|周末|明天|后天|下个?(?:周|星期|礼拜)[一二三四五六日天末]?|下个?月|明年|以后|将来)?)(学|去|买|换|考|做|开|养|搬|当|成为|找|参加|尝试|试试|报)(.{1,20}?)'),
    build: (m) => (VAGUE.test(m[4]!) ? undefined : { content: `用户${m[1]}${m[2]}${m[3]}${third(m[4])}`, value: `${m[3]}${m[4]}` }),
  },
  {
    slot: 'goal', kind: 'plan', importance: 0.6,
    re: re('我的(目标|梦想|愿望|计划)是(.{2,24}?)'),
    build: (m) => ({ content: `用户的${m[1]}是${third(m[2])}`, value: m[2]! }),
  },
  // 有一辆车、一台钢琴
  {
    slot: 'possession', kind: 'fact', importance: 0.6,
    re: re('我(?:家)?(?:有|养着)(一辆|一台|一套|一部|两辆|两台|两套)(.{1,12}?)'),
    build: (m) => (VAGUE.test(m[2]!) ? undefined : { content: `用户有${m[1]}${third(m[2])}`, value: m[2]! }),
  },
  // 开的车
  {
    slot: 'possession', kind: 'fact', importance: 0.5,
    re: re('我(?:现在|平时)?开的(?:车)?是(?:一辆)?(.{2,12}?)'),
    // "我开的是会议" (a meeting), "我开的是玩笑" (a joke): things one 开 that are no car.
    build: (m) => (VAGUE.test(m[1]!) || /^(?:会|玩笑|空调|灯|门|窗|店|公司|课|直播|药|发布会|party)/i.test(m[1]!) ? undefined : { content: `用户开的车是${m[1]}`, value: m[1]! }),
  },
  // 买了、有了
  {
    slot: 'possession', kind: 'fact', importance: 0.6,
    re: re(`${WHEN}我${WHEN}(?:刚|新|终于)*(买了|入手了|换了|提了|租了)(一辆|一台|一套|一个|一部|一只|一双|新的?|个|辆|台|套)?(.{1,16}?)`),
    build: (m) => (VAGUE.test(m[5]!) ? undefined : { content: `用户${m[1]}${m[2]}${m[3]}${m[4] ?? ''}${third(m[5])}`, value: m[5]!, past: true }),
  },
  // 工作：在哪儿做什么
  {
    // The job, one value: "我在阿里做产品经理" then "现在在拼多多做产品总监" replaces it; "我跳槽到腾讯了" replaces where.
    slot: 'job', kind: 'identity', importance: 0.7,
    // The work may be said in English ("在上海做product manager").
    re: re("我(?:现在|目前|最近)?(?:还|也)?在(?:一家|一个)?(.{1,14}?)(当|做|担任)(.{1,10}?|[A-Za-z][A-Za-z .'&/-]{1,30}?)"),
    build: (m) => (/^(?:家|这|那)/.test(m[1]!) || VAGUE.test(m[3]!) ? undefined : { content: `用户在${m[1]}${m[2]}${m[3]}`, value: `${m[1]}${m[3]}`, employer: m[1]! }),
  },
  {
    slot: 'study', kind: 'identity', importance: 0.7,
    re: re('我是做(.{1,10}?)的'),
    build: (m) => ({ content: `用户是做${m[1]}的`, value: m[1]! }),
  },
  {
    slot: 'study', kind: 'identity', importance: 0.6,
    re: re('我是(?:一[个名位])?(.{1,8}?)(主义者|爱好者|座|迷|粉)'),
    build: (m) => ({ content: `用户是${m[1]}${m[2]}`, value: `${m[1]}${m[2]}` }),
  },
  {
    slot: 'age', kind: 'identity', importance: 0.7,
    // "我今年35岁", and as a correction says it ("我是36岁不是35岁").
    re: re('我(?:今年|是|今年是)([一二三四五六七八九十两]{1,3}|\\d{1,2})岁'),
    build: (m) => ({ content: `用户今年${m[1]}岁`, value: m[1]! }),
  },
  // 去某地做什么；在某地待过
  {
    slot: 'activity', kind: 'event', importance: 0.5,
    re: re(`${WHEN}我${WHEN}(?:刚|也|还|又)?去(.{1,12}?)(出差|旅游|旅行|玩|度假|自驾|开会|看病|参加|学习|培训)(.{0,16}?)`),
    build: (m) => ({ content: `用户${m[1]}${m[2]}去${m[3]}${m[4]}${third(m[5])}`, value: `${m[3]}${m[4]}`, past: true }),
  },
  {
    slot: 'activity', kind: 'event', importance: 0.5,
    re: re(`${WHEN}我${WHEN}(?:曾经)?在(.{1,10}?)(待了|住过|住了|工作过|生活过|长大|读过|上过)(.{0,10}?)`),
    build: (m) => ({ content: `用户${m[1]}${m[2]}在${m[3]}${m[4]}${m[5]}`, value: m[3]!, past: true }),
  },
  {
    slot: 'activity', kind: 'event', importance: 0.6,
    re: re(`${WHEN}我${WHEN}(?:已经|刚|终于)?(结婚|离婚|毕业|退休|辞职|失业|分手|升职|怀孕|搬家)(.{0,16}?)`),
    // "我毕业于清华大学" keeps its 于: no 了 goes in.
    build: (m) => ({ content: m[4]!.startsWith('于') ? `用户${m[1]}${m[2]}${m[3]}${third(m[4])}` : `用户${m[1]}${m[2]}${m[3]}了${third(m[4])}`, value: m[3]!, past: true }),
  },
  // 去做了什么（"上周末我去爬山了"）：句末的"了"说它做过了；没有"了"的"我去爬山"可能是打算。
  {
    slot: 'activity', kind: 'event', importance: 0.5,
    re: new RegExp(`^${WHEN}我(?!们)${WHEN}(?:刚|也|还|又)?去(爬山|游泳|跑步|钓鱼|滑雪|露营|徒步|健身|打球|打羽毛球|打篮球|踢球|骑车|骑行|野餐|唱歌|逛街|看电影|看展览?|看演唱会|看比赛|听音乐会|体检|看病|看牙)了[啊呀哦呢吧啦嘛哈~～!！]*$`, 'u'),
    build: (m) => ({ content: `用户${m[1]}${m[2]}去${m[3]}了`, value: `去${m[3]}`, past: true }),
  },
  // 把字句：做完了的事（"我昨天把头发剪短了"、"我上周把猫送去绝育了"）。
  {
    slot: 'activity', kind: 'event', importance: 0.5,
    re: new RegExp(`^${WHEN}我(?!们)${WHEN}(?:已经|刚|终于)?把(.{1,12}?)((?:剪|染|烫|送|卖|换|修|捐|寄|装|拆|退|搬|交|还|洗|种|养|接|领|弄|丢)(?:.{0,10}?))了[啊呀哦呢吧啦嘛哈~～!！]*$`, 'u'),
    build: (m) => (VAGUE.test(m[3]!) || /你/u.test(m[3]!) ? undefined : { content: `用户${m[1]}${m[2]}把${third(m[3])}${m[4]}了`, value: `把${m[3]}${m[4]}`, past: true }),
  },
  // 做过的事
  {
    slot: 'activity', kind: 'event', importance: 0.5,
    re: re(`${WHEN}我${WHEN}(?:刚|刚刚|终于|第一次|也|还|又|已经)*${DID}(.{1,28}?)`),
    build: (m) => {
      const what = m[4]!;
      if (VAGUE.test(what) || what.length > MAX_CHARS) return undefined;
      // "我和/跟/陪/带…" needs a doing after the person ("我和朋友去爬山").
      if (/^(?:陪|带|和|跟)$/.test(m[3]!) && !/(?:去|一起|看|吃|玩|逛|爬|跑|打|聊|过)/u.test(what)) return undefined;
      // "我考上研究生了": the 了 at the end goes back after the verb.
      const verb = m[3] === '考上' ? '考上了' : m[3]!;
      return { content: `用户${m[1]}${m[2]}${verb}${third(what)}`, value: `${m[3]}${what}`, past: true };
    },
  },
  // 身边的人
  {
    slot: 'relation', kind: 'person', importance: 0.6,
    re: re(`${WHEN}我(?:的)?${REL}${WHEN_ANY}(?:刚|也|还|已经|最近|终于)*(去了|买了|考上了|生了|结婚了|结婚|搬到|搬去|换了|开了|辞职|升职了|升职|住院了|住院|退休了|退休|怀孕了|怀孕|过生日|在|是个|是|叫|喜欢|养了|学|做|今年)(.{0,20}?)`),
    build: (m) => (VAGUE.test(m[5]!) && m[5] !== '' ? undefined : { content: `用户的${kin(m[2]!)}${m[1]}${m[3]}${m[4]}${third(m[5])}`, value: `${kin(m[2]!)}${m[4]}${m[5]}` }),
  },
  // 生日：日期在前在后都行（"我妈生日是下周六"、"我老婆下个月生日"）
  {
    slot: 'relation', kind: 'person', importance: 0.7,
    re: re(`我(?:的)?${REL}的?(?:生日(?:是|在)(.{2,12}?)|生日(${DAY_ZH})|(${DAY_ZH})(?:过)?生日)`),
    build: (m) => {
      const when = m[2] ?? m[3] ?? m[4]!;
      return VAGUE.test(when) ? undefined : { content: m[4] ? `用户的${kin(m[1]!)}${when}过生日` : `用户的${kin(m[1]!)}生日是${when}`, value: `${kin(m[1]!)}生日` };
    },
  },
  {
    slot: 'relation', kind: 'person', importance: 0.6,
    re: re(`我(?:的)?${REL}(?:今年)?([一二三四五六七八九十两]{1,3}|\\d{1,3})(岁|个月)(.{0,12}?)`),
    build: (m) => ({ content: `用户的${kin(m[1]!)}${m[2]}${m[3]}${third(m[4])}`, value: `${kin(m[1]!)}${m[2]}${m[3]}` }),
  },
  // 喜欢，换一种说法
  {
    slot: 'like', kind: 'preference', importance: 0.6,
    re: re('我最(?:喜欢|爱)的(.{1,8}?)是(.{1,16}?)'),
    build: (m) => ({ content: `用户最喜欢的${m[1]}是${third(m[2])}`, value: m[2]! }),
  },
  {
    slot: 'like', kind: 'preference', importance: 0.6,
    re: re('(.{1,12}?)是我的最爱'),
    build: (m) => (VAGUE.test(m[1]!) ? undefined : { content: `${third(m[1])}是用户的最爱`, value: m[1]! }),
  },
];
