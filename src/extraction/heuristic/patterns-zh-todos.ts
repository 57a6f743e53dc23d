import { moveTarget, type Pattern } from './candidate.js';
import { re } from './patterns-zh-words.js';

/**
 * Chinese rows about the user's todos: what calls one off, moves it or says it is done (read before
 * every other row, which would take "不用再提醒我吃药了" for a request), and the requests themselves
 * (read last).
 */

/** What one does about a todo, one character each ("交房租", "开会", "吃药", "打电话"). */
const DONE_VERBS_ZH = '交|开|吃|打|买|发|寄|还|缴|付|办|写|订|取|拿|修|洗|看|见|做|去|回|续|退|充|剪|遛|喂|扔|倒|收|约|复|体检';

/** What is done to a todo: called off, moved, done. */
export const ZH_TODO_ACTIONS: readonly Pattern[] = [
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
];

/** What asks for one: "提醒我…", "帮我设个提醒…", "别让我忘了…". */
export const ZH_TODO_REQUESTS: readonly Pattern[] = [
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
