import { thirdPerson, thirdSingular, type Pattern } from './candidate.js';

/**
 * Rows for the design documents' own example sentences (seeds 000–004) that the general tables
 * miss: a deadline with no "remind me" ("周五前完成报告"), something being considered ("考虑换工作"),
 * a habit ("通常在周一上午做周报"), a project and its stack, an employer change, a company, past
 * experience, a named pet, and a person described as she/he ("她是护士"). Kept apart from
 * patterns-zh.ts / patterns-en.ts (which grow for general self-disclosure) and tried after them,
 * so a general row always wins. Anchored at both ends like every row.
 */
const END_ZH = '[了啊呀哦呢的吧啦嘛哈~～!！。.]*$';
const END_EN = '[.!~]*$';
const zh = (source: string): RegExp => new RegExp(`^${source}${END_ZH}`, 'u');
const en = (source: string): RegExp => new RegExp(`^${source}${END_EN}`, 'iu');
const DEADLINE_ZH = '((?:今天|明天|后天|大后天|下?周[一二三四五六日天]|下?星期[一二三四五六日天]|月底|年底|\\d{1,2}月\\d{1,2}[日号])(?:之前|以前|前))';
const DAY_EN = '((?:today|tomorrow|(?:next )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|the end of (?:the )?(?:week|month)))';
const ROLE_ZH = '(.{0,8}?(?:工程师|程序员|设计师|医生|护士|老师|教师|律师|会计|经理|学生|作家|记者|厨师|司机|警察|公务员|研究员|销售))';

export const SEED_ZH_PATTERNS: readonly Pattern[] = [
  {
    slot: 'todo', kind: 'todo', importance: 0.7,
    re: zh(`(?:我)?(?:要|得|需要|必须)?${DEADLINE_ZH}(?:要|得)?(.{2,30}?)`),
    build: (m) => ({ content: '', value: m[2]!, task: `${m[1]}${m[2]}` }),
  },
  {
    slot: 'plan', kind: 'plan', importance: 0.6,
    re: zh('我(?:最近|现在|一直)?(?:在|正在)?(?:考虑|打算)(.{2,20}?)'),
    build: (m) => ({ content: `用户在考虑${thirdPerson(m[1]!, 'zh')}`, value: m[1]! }),
  },
  {
    slot: 'habit', kind: 'pattern', importance: 0.6,
    re: zh('我(?:通常|一般|平时|经常|总是|习惯)(?:会|都)?(?:在)?(.{2,30}?)'),
    build: (m) => ({ content: `用户通常${m[0]!.startsWith('我习惯') ? '习惯' : ''}${thirdPerson(m[1]!, 'zh')}`.replace(/[。.!！]$/u, ''), value: m[1]! }),
  },
  {
    slot: 'project', kind: 'fact', importance: 0.6,
    re: zh('我(?:正在|在|最近在)?(?:开发|做|写)(?:一个)?(.{2,30}?项目)(?:[，,]?\\s*(?:使用|用)(.+?))?'),
    build: (m) => ({ content: `用户正在开发${m[1]}${m[2] ? `，使用 ${m[2].trim()}` : ''}`, value: m[1]! }),
  },
  {
    slot: 'project', kind: 'fact', importance: 0.6,
    re: zh('我的项目(?:使用|用的是|用)(.+?)'),
    build: (m) => ({ content: `用户的项目使用 ${m[1]!.trim()}`, value: m[1]!.trim() }),
  },
  {
    slot: 'employer', kind: 'identity', importance: 0.8,
    // "去" alone says nothing about work ("我去年结婚了"): only with 工作/上班 after the place.
    re: zh('(?:我)?(?:最近|现在|刚)?(?:(?:换到|跳槽到)了?(.{1,20}?)(?:工作|上班)?|去(?!年)了?(.{1,20}?)(?:工作|上班))'),
    build: (m) => {
      const place = m[1] ?? m[2]!;
      // Said as a move, it is a new job: it replaces the job memory whichever slot holds it.
      return /^(?:了|过)/u.test(place) ? undefined : { content: `用户在${place}工作`, value: place, jobChange: true };
    },
  },
  {
    slot: 'employer', kind: 'identity', importance: 0.8,
    re: zh('我(?:们)?(?:的)?公司(?:名称)?(?:叫|是)(?!.*行业)(.{1,20}?)'),
    build: (m) => ({ content: `用户的公司是${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'project', kind: 'fact', importance: 0.5,
    re: zh('我(?:们)?(?:的)?公司(?:是|属于)(.{1,12}?行业)'),
    build: (m) => ({ content: `用户的公司属于${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'project', kind: 'fact', importance: 0.5,
    re: zh('我(?:之前|以前|曾经)(?:做过|写过|参与过|负责过)(.{2,30}?)'),
    build: (m) => ({ content: `用户之前做过${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'pet', kind: 'fact', importance: 0.6,
    re: zh('我养了(?:一|两|三|几|\\d+)?(?:只|条|个)?(?:叫|名叫)([\\p{Script=Han}A-Za-z]{1,6})的(.{1,4}?)'),
    build: (m) => ({ content: `用户养了一只叫${m[1]}的${m[2]}`, value: m[1]! }),
  },
  {
    slot: 'family', kind: 'person', importance: 0.6,
    re: zh(`(她|他)(?:现在)?(?:是|当)(?:一名|一个|一位|个|名)?${ROLE_ZH}`),
    build: (m) => ({ content: `用户提到的${m[1]}是${m[2]}`, value: m[2]! }),
  },
];

export const SEED_EN_PATTERNS: readonly Pattern[] = [
  {
    slot: 'todo', kind: 'todo', importance: 0.7,
    re: en(`(?:I (?:have|need|must|got) to |I'?ve got to )?((?:finish|send|submit|write|call|book|pay|buy|prepare|complete|hand in|review) .{2,60}?) (?:before|by) ${DAY_EN}`),
    build: (m) => ({ content: '', value: m[1]!, task: `${m[1]} before ${m[2]}` }),
  },
  {
    slot: 'plan', kind: 'plan', importance: 0.6,
    re: en("I(?:'ve| have)? (?:been |am |'m )?(?:thinking (?:about|of)|considering) (.{2,60}?)"),
    build: (m) => ({ content: `The user is considering ${thirdPerson(m[1]!, 'en')}`, value: m[1]! }),
  },
  {
    slot: 'habit', kind: 'pattern', importance: 0.6,
    re: en('I (usually|normally|always|often|tend to) (.{2,60}?)'),
    build: (m) => ({ content: `The user ${m[1]!.toLowerCase()} ${m[1]!.toLowerCase() === 'tend to' ? thirdPerson(m[2]!, 'en') : thirdSingular(thirdPerson(m[2]!, 'en'))}`, value: m[2]! }),
  },
  {
    slot: 'project', kind: 'fact', importance: 0.6,
    re: en("I(?:'m| am)? (?:building|developing|working on) (?:an? |the )?(.{2,50}? project)(?: (?:with|using) (.+?))?"),
    build: (m) => ({ content: `The user is building ${/^(?:an?|the)\s/i.test(m[1]!) ? '' : 'a '}${m[1]}${m[2] ? ` with ${m[2]}` : ''}`, value: m[1]! }),
  },
  {
    slot: 'project', kind: 'fact', importance: 0.6,
    re: en('my project uses (.+?)'),
    build: (m) => ({ content: `The user's project uses ${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'employer', kind: 'identity', importance: 0.8,
    re: en('I used to work (?:at|for) (.{1,30}?) and (?:recently |just )?(?:moved|switched|changed) to (.{1,30}?)'),
    build: (m) => ({ content: `The user works at ${m[2]} (previously ${m[1]})`, value: m[2]! }),
  },
  {
    slot: 'employer', kind: 'identity', importance: 0.8,
    re: en('my company is called (.{1,30}?)(?: and (.+?))?'),
    build: (m) => ({ content: `The user's company is ${m[1]}${m[2] ? `; it ${thirdPerson(m[2], 'en')}` : ''}`, value: m[1]! }),
  },
  {
    slot: 'project', kind: 'fact', importance: 0.5,
    re: en("I(?:'ve| have) (?:done|written|worked on) (?:an? )?(.{2,50}?)(?: before)?"),
    build: (m) => ({ content: `The user has done ${/^similar/i.test(m[1]!) ? 'a ' : ''}${m[1]} before`, value: m[1]! }),
  },
  {
    slot: 'family', kind: 'person', importance: 0.6,
    re: en("(she|he)(?: is|'s) (?:an? )?(nurse|doctor|teacher|engineer|lawyer|student|designer|programmer|accountant|manager|chef|driver|writer|journalist|police officer)"),
    build: (m) => ({ content: `The person the user mentioned (${m[1]!.toLowerCase()}) is a ${m[2]!.toLowerCase()}`, value: m[2]!.toLowerCase() }),
  },
];
