import { describe, expect, it } from 'vitest';
import type { AliasedMemory, ExtractionMessage, MemoryOperation } from '../../domain/operations.js';
import { extractHeuristically } from './heuristic-extractor.js';

// Wednesday 2025-03-12, 10:00 in Shanghai.
const createdAt = new Date('2025-03-12T02:00:00Z');
const timeZone = 'Asia/Shanghai';
let n = 0;
const user = (content: string): ExtractionMessage => ({ id: `m${++n}`, role: 'user', content, createdAt });
const memory = (alias: string, content: string, kind: AliasedMemory['kind'] = 'identity'): AliasedMemory => ({ alias, kind, content, createdAt });

function ops(content: string | ExtractionMessage[], existing: AliasedMemory[] = []): MemoryOperation[] {
  const messages = typeof content === 'string' ? [user(content)] : content;
  return extractHeuristically({ messages, existing, timeZone }).operations;
}
/** The one add, as kind + content. */
function added(content: string, existing: AliasedMemory[] = []): { kind: string; content: string; importance: number } | undefined {
  const op = ops(content, existing).find((o) => o.op === 'add');
  return op?.op === 'add' ? { kind: op.kind, content: op.content, importance: op.importance } : undefined;
}

describe('extractHeuristically: what the user states', () => {
  it.each([
    ['我叫李明', 'identity', '用户叫李明', 0.9],
    ['我的名字是王芳', 'identity', '用户叫王芳', 0.9],
    ['My name is Alice', 'identity', "The user's name is Alice", 0.9],
    ['call me Bob', 'identity', "The user's name is Bob", 0.9],
    ['我是后端工程师', 'identity', '用户是后端工程师', 0.8],
    ['我在字节跳动工作', 'identity', '用户在字节跳动工作', 0.8],
    ["I'm a software engineer", 'identity', 'The user is a software engineer', 0.8],
    ['I work at Google', 'identity', 'The user works at Google', 0.8],
    ['我住在上海', 'identity', '用户住在上海', 0.8],
    ['I live in Paris', 'identity', 'The user lives in Paris', 0.8],
    ['我有两个孩子', 'person', '用户有两个孩子', 0.7],
    ['我老婆是医生', 'person', '用户的老婆是医生', 0.7],
    ['My wife is a doctor', 'person', "The user's wife is a doctor", 0.7],
    ['I have two kids', 'person', 'The user has two kids', 0.7],
    ['我养了一只猫叫小白', 'fact', '用户养了一只猫，名叫小白', 0.7],
    ['我养了一只猫，叫小白', 'fact', '用户养了一只猫，名叫小白', 0.7],
    ['I have a dog named Rex', 'fact', 'The user has a dog named Rex', 0.7],
    ['我家里养了一只叫年糕的橘猫', 'fact', '用户养了一只橘猫，名叫年糕', 0.7],
    ['家里养了一只叫年糕的橘猫', 'fact', '用户养了一只橘猫，名叫年糕', 0.7],
    ['家里有两只狗', 'fact', '用户养了两只狗', 0.7],
    ['I have an orange cat named Mochi', 'fact', 'The user has an orange cat named Mochi', 0.7],
    ['My birthday is May 3rd', 'identity', "The user's birthday is May 3rd", 0.8],
    ['I was born on March 14, 1990', 'identity', "The user's birthday is March 14, 1990", 0.8],
    ['我的生日是5月3日', 'identity', '用户的生日是5月3日', 0.8],
    ['我是1990年十月一号出生的', 'identity', '用户的生日是1990年十月一号', 0.8],
    ["I'm 34", 'identity', 'The user is 34 years old', 0.7],
    ['我更喜欢喝茶', 'preference', '用户更喜欢喝茶', 0.6],
    ['我乳糖不耐受', 'fact', '用户乳糖不耐受', 0.8],
    ["I'm lactose intolerant", 'fact', 'The user is lactose intolerant', 0.8],
    ["I can't eat gluten", 'fact', "The user can't eat gluten", 0.8],
    ['I have yoga every Tuesday evening', 'pattern', 'The user has yoga every Tuesday evening', 0.6],
    ['I take piano lessons on Saturdays', 'pattern', 'The user takes piano lessons on Saturdays', 0.6],
    ["Hi, I'm Amy.", 'identity', "The user's name is Amy", 0.9],
    ['im vegetarian', 'identity', 'The user is vegetarian', 0.8],
    ['im allergic to cats', 'fact', 'The user is allergic to cats', 0.8],
    ['我是小李', 'identity', '用户叫小李', 0.9],
    ['我是王芳', 'identity', '用户叫王芳', 0.9],
    ['我不太能吃辣', 'preference', '用户不太能吃辣', 0.6],
    ['我有一辆特斯拉', 'fact', '用户有一辆特斯拉', 0.6],
    ['我开的是特斯拉', 'fact', '用户开的车是特斯拉', 0.5],
    ['I drive a Tesla', 'fact', 'The user drives a Tesla', 0.5],
    ['我们刚在杭州买了房', 'fact', '用户刚在杭州买了房', 0.6],
    ['我血型是O型', 'identity', '用户的血型是O型', 0.7],
    ['我的血型是ab型', 'identity', '用户的血型是AB型', 0.7],
    ['My blood type is O negative', 'identity', "The user's blood type is O negative", 0.7],
    ['my blood type is ab+', 'identity', "The user's blood type is AB positive", 0.7],
    ['my name is tom', 'identity', "The user's name is Tom", 0.9],
    ['my name is tom smith', 'identity', "The user's name is Tom Smith", 0.9],
    ['我的星座是天蝎座', 'identity', '用户是天蝎座', 0.6],
    ["I'm a Scorpio", 'identity', 'The user is a Scorpio', 0.6],
    ['我属龙', 'identity', '用户属龙', 0.6],
    ['我是左撇子', 'identity', '用户是左撇子', 0.6],
    ["I'm left-handed", 'identity', 'The user is left-handed', 0.6],
    ['我是独生女', 'identity', '用户是独生女', 0.6],
    ["I'm an only child", 'identity', 'The user is an only child', 0.6],
    ['我身高180', 'identity', '用户身高180厘米', 0.5],
    ["I'm 180 cm tall", 'identity', 'The user is 180 cm tall', 0.5],
    ['我戴眼镜', 'fact', '用户戴眼镜', 0.6],
    ['I wear glasses', 'fact', 'The user wears glasses', 0.6],
    ['我不抽烟', 'fact', '用户不抽烟', 0.6],
    ["I don't smoke", 'fact', "The user doesn't smoke", 0.6],
    ["I'm trying to lose weight", 'fact', 'The user is trying to lose weight', 0.6],
    ["I'm in grad school", 'fact', 'The user is in grad school', 0.7],
    ['我妈妈下个月来上海看我', 'person', '用户的妈妈下个月来上海看用户', 0.7],
    ['我们家有三口人', 'person', '用户家有三口人', 0.6],
    ['周末我一般在家打游戏', 'pattern', '用户周末一般在家打游戏', 0.6],
    ["I'm a software engineer from Toronto", 'identity', 'The user is a software engineer from Toronto', 0.8],
    ['I live in Austin with my wife', 'identity', 'The user lives in Austin with their wife', 0.8],
    ['I have two daughters, Emma and Lily', 'person', 'The user has two daughters, Emma and Lily', 0.7],
    ['I have a peanut allergy', 'fact', 'The user has a peanut allergy', 0.8],
    ["I'm pregnant", 'fact', 'The user is pregnant', 0.8],
    ["I'm afraid of dogs", 'preference', 'The user is afraid of dogs', 0.6],
    ['I speak French and Spanish', 'identity', 'The user speaks French and Spanish', 0.7],
    ['我会说一点粤语', 'identity', '用户会说一点粤语', 0.7],
    ['我会说英语和日语', 'identity', '用户会说英语和日语', 0.7],
    ['我恐高', 'fact', '用户恐高', 0.7],
    ['我毕业于清华大学', 'event', '用户毕业于清华大学', 0.6],
    ['我下个月结婚', 'plan', '用户下个月（2025年4月）结婚', 0.7],
    ['我们下周六搬家', 'plan', '用户下周六（2025年3月22日）搬家', 0.7],
    ['We adopted two little kittens', 'fact', 'The user has two little kittens', 0.7],
    ['我喜欢猫', 'preference', '用户喜欢猫', 0.6],
    ['我特别喜欢吃火锅', 'preference', '用户特别喜欢吃火锅', 0.6],
    ['我不喜欢香菜', 'preference', '用户不喜欢香菜', 0.6],
    ['我讨厌下雨天', 'preference', '用户讨厌下雨天', 0.6],
    ['I love cats', 'preference', 'The user loves cats', 0.6],
    ["I don't like cilantro", 'preference', "The user doesn't like cilantro", 0.6],
    ['I really enjoy hiking with my dad', 'preference', 'The user really enjoys hiking with their dad', 0.6],
    ['我对花生过敏', 'fact', '用户对花生过敏', 0.8],
    ["I'm allergic to peanuts", 'fact', 'The user is allergic to peanuts', 0.8],
    ['我决定用 Redis 了', 'plan', '用户决定用 Redis', 0.6],
    ["I've decided to use Postgres", 'plan', 'The user decided to use Postgres', 0.6],
  ])('%s → %s "%s"', (text, kind, content, importance) => {
    expect(added(text)).toEqual({ kind, content, importance });
  });

  it('gives a plan with a date its time', () => {
    const [zh] = ops('我下周要去东京出差');
    expect(zh).toMatchObject({ op: 'add', kind: 'plan', content: '用户下周（2025年3月17日那一周）要去东京出差', happenedAt: '2025-03-17T01:00:00.000Z' });
    const [en] = ops("I'm going to Paris next month");
    expect(en).toMatchObject({ op: 'add', kind: 'plan', content: 'The user is going to Paris next month (April 2025)' });
  });

  it('needs a time before "要"/"going to" counts as a plan', () => {
    expect(ops('我要一杯咖啡')[0]?.op).toBe('skip');
    expect(ops("I'm going to think about it")[0]?.op).toBe('skip');
  });

  it('makes a todo with the time phrase as said', () => {
    const [zh] = ops('提醒我明天下午三点开会');
    expect(zh).toMatchObject({
      op: 'add', kind: 'todo', importance: 0.7, content: '用户有待办事项：明天下午三点（2025年3月13日）开会',
      todo: { content: '开会', dueText: '明天下午三点', dueAt: '2025-03-13T07:00:00.000Z' },
    });
    const [en] = ops('remind me to call mom tomorrow at 5pm');
    expect(en).toMatchObject({
      op: 'add', kind: 'todo', content: 'The user has a to-do: call mom tomorrow at 5pm (2025-03-13)',
      todo: { content: 'call mom', dueText: 'tomorrow at 5pm', dueAt: '2025-03-13T09:00:00.000Z' },
    });
  });

  it.each([
    ['别忘了周五前交报告', { content: '交报告', dueText: '周五前' }],
    ['记得后天给妈妈打电话', { content: '给妈妈打电话', dueText: '后天' }],
    ['能提醒我明天开会吗？', { content: '开会', dueText: '明天' }],
    ["don't let me forget to buy milk", { content: 'buy milk' }],
    ['Can you remind me to water the plants on Sunday?', { content: 'water the plants', dueText: 'on Sunday' }],
    // The time said before the request, as often as after it.
    ['下周三下午三点提醒我带年糕去打疫苗', { content: '带年糕去打疫苗', dueText: '下周三下午三点', dueAt: '2025-03-19T07:00:00.000Z' }],
    ['明天早上八点提醒我吃药', { content: '吃药', dueText: '明天早上八点', dueAt: '2025-03-13T00:00:00.000Z' }],
    ['明天下午三点，提醒我开会', { content: '开会', dueText: '明天下午三点' }],
    ['记得周五提醒我交房租', { content: '交房租', dueText: '周五' }],
    ['晚上8:30提醒我给妈妈打电话', { content: '给妈妈打电话', dueAt: '2025-03-12T12:30:00.000Z' }],
    ['Tomorrow at 9, remind me to send the report.', { content: 'send the report', dueText: 'tomorrow at 9', dueAt: '2025-03-13T01:00:00.000Z' }],
    ['At 6pm remind me to take my pills', { content: 'take my pills', dueText: 'at 6pm', dueAt: '2025-03-12T10:00:00.000Z' }],
    ['Please remind me on Friday to pay rent', { content: 'pay rent', dueText: 'on Friday' }],
    ['remind me tomorrow at 6pm to call mom', { content: 'call mom', dueText: 'tomorrow at 6pm' }],
    // A repeating request: the repeat goes with the time phrase (the todo repeats, see
    // todo-schedule.ts); the todo says what to do, and the memory says "every" with no date.
    ['每天早上八点提醒我吃药', { content: '吃药', dueText: '每天早上八点', dueAt: '2025-03-13T00:00:00.000Z' }],
    ['Remind me every morning at 8 to take my pills', { content: 'take my pills', dueText: 'every morning at 8', dueAt: '2025-03-13T00:00:00.000Z' }],
    // On a list of weekdays, said before the request.
    ['每周一和周四晚上七点提醒我去健身', { content: '健身', dueText: '每周一和周四晚上七点' }],
    ['每周一、三、五早上提醒我跑步', { content: '跑步', dueText: '每周一、三、五早上' }],
    ['Every Monday and Thursday at 7pm, remind me to go to the gym', { content: 'go to the gym', dueText: 'every Monday and Thursday at 7pm' }],
    // With an end (and a start): it goes with the repeat, and the memory says it.
    ['每天早上八点提醒我吃药，到周五为止', { content: '吃药', dueText: '每天早上八点，到周五为止' }],
    ['下周每天早上八点提醒我吃药', { content: '吃药', dueText: '下周每天早上八点' }],
    ['连续五天每天晚上九点提醒我敷面膜', { content: '敷面膜', dueText: '连续五天每天晚上九点' }],
    ['Remind me every day at 8am until Friday to take my pills', { content: 'take my pills', dueText: 'every day until Friday at 8am' }],
    ['Every day until Friday, remind me to water the plants', { content: 'water the plants', dueText: 'every day until Friday' }],
    ['remind me every evening for the next 5 days to do physio', { content: 'do physio', dueText: 'every evening for the next 5 days' }],
    ['接下来一个月每天晚上提醒我背单词', { content: '背单词', dueText: '接下来一个月每天晚上' }],
    ['Remind me every morning for a month to stretch', { content: 'stretch', dueText: 'every morning for a month' }],
    // On workdays, after a delay of days, the week after next, and as what not to let be forgotten.
    ['工作日每天早上九点提醒我打卡', { content: '打卡', dueText: '工作日每天早上九点', dueAt: '2025-03-13T01:00:00.000Z' }],
    ['remind me every weekday at 9am for standup', { content: 'standup', dueText: 'every weekday at 9am' }],
    ['3天后提醒我续费视频会员', { content: '续费视频会员', dueText: '3天后', dueAt: '2025-03-15T01:00:00.000Z' }],
    ['下下周一提醒我去体检', { content: '体检', dueText: '下下周一', dueAt: '2025-03-24T01:00:00.000Z' }],
    ['别让我忘了周五还信用卡', { content: '还信用卡', dueText: '周五', dueAt: '2025-03-14T01:00:00.000Z' }],
    ['remind me in 3 days to renew the video subscription', { content: 'renew the video subscription', dueText: 'in 3 days' }],
  ])('todo: %s', (text, todo) => {
    const [op] = ops(text);
    expect(op).toMatchObject({ op: 'add', kind: 'todo', todo });
  });

  // A reminder asked for apart from its task, or with its lead: one todo, the task as said and the lead as said.
  it.each([
    ['明天下午三点开会，提前半小时提醒我', { content: '开会', dueText: '明天下午三点', remindText: '提前半小时' }, '用户有待办事项：明天下午三点（2025年3月13日）开会'],
    ['下周五交报告，提前一天提醒我', { content: '交报告', dueText: '下周五', remindText: '提前一天' }, '用户有待办事项：下周五（2025年3月21日）交报告'],
    ['我下周五要交报告，到时候提醒我', { content: '交报告', dueText: '下周五' }, '用户有待办事项：下周五（2025年3月21日）要交报告'],
    ['提醒我周五交报告，提前一天', { content: '交报告', dueText: '周五', remindText: '提前一天' }, '用户有待办事项：周五（2025年3月14日）交报告'],
    ['提前一天提醒我周五交报告', { content: '交报告', dueText: '周五', remindText: '提前一天' }, '用户有待办事项：周五（2025年3月14日）交报告'],
    ['我的航班是明天早上八点，提前两个小时提醒我', { content: '航班', dueText: '明天早上八点', remindText: '提前两个小时' }, '用户有待办事项：航班明天早上八点（2025年3月13日）'],
    ['明天下午三点开会，前一天晚上提醒我', { content: '开会', remindText: '前一天晚上' }, '用户有待办事项：明天下午三点（2025年3月13日）开会'],
    ['I have a dentist appointment Monday at 10am, remind me 30 minutes before', { content: 'a dentist appointment', dueText: 'Monday at 10am', remindText: '30 minutes before' }, 'The user has a to-do: a dentist appointment Monday at 10am (2025-03-17)'],
    ['I have a dentist appointment Monday at 10am. Remind me an hour before.', { content: 'a dentist appointment', remindText: 'an hour before' }, 'The user has a to-do: a dentist appointment Monday at 10am (2025-03-17)'],
    ['The report is due Friday, remind me the day before', { content: 'the report', dueText: 'Friday', remindText: 'the day before' }, 'The user has a to-do: the report is due Friday (2025-03-14)'],
    ['Remind me an hour before the meeting tomorrow at 3pm', { content: 'the meeting', dueText: 'tomorrow at 3pm', remindText: 'an hour before' }, 'The user has a to-do: the meeting tomorrow at 3pm (2025-03-13)'],
    ['Remind me to call mom tomorrow at 6pm, 30 minutes before', { content: 'call mom', remindText: '30 minutes before' }, 'The user has a to-do: call mom tomorrow at 6pm (2025-03-13)'],
  ])('a reminder with its task apart, or its lead: %s', (text, todo, content) => {
    const adds = ops(text).filter((o) => o.op === 'add');
    expect(adds).toHaveLength(1);
    expect(adds[0]).toMatchObject({ kind: 'todo', content, todo });
  });

  // A request that says only when: of a task with a later time of its own, the reminder's time
  // (the plan is the todo now); of something to do with no time, the todo's time; of nothing, still a reminder.
  it.each([
    ['我要在五月前续签护照，下周提醒我', { content: '续签护照', dueText: '五月前', remindText: '下周' }, '用户有待办事项：在五月（2025年5月）前续签护照'],
    ['I need to renew my passport before June, remind me next week', { content: 'renew my passport', dueText: 'June', remindText: 'next week' }, 'The user has a to-do: renew their passport before June (June 2025)'],
    ['下周五交报告，周一提醒我', { content: '交报告', dueText: '下周五', remindText: '周一' }, '用户有待办事项：下周五（2025年3月21日）交报告'],
    ['I have a dentist appointment next Friday at 3pm, remind me on Monday', { content: 'a dentist appointment', dueText: 'next Friday at 3pm', remindText: 'on Monday' }, 'The user has a to-do: a dentist appointment next Friday at 3pm (2025-03-21)'],
    ['我得给银行打电话，一小时后提醒我', { content: '给银行打电话', dueText: '一小时后' }, '用户有待办事项：一小时后（2025年3月12日）给银行打电话'],
    ['I need to call the bank. Remind me in an hour.', { content: 'call the bank', dueText: 'in an hour' }, 'The user has a to-do: call the bank in an hour (2025-03-12)'],
    ['二十分钟后叫我', { content: '（没说提醒什么）', dueText: '二十分钟后' }, '用户有待办事项：二十分钟后（2025年3月12日）（没说提醒什么）'],
    ['Can you remind me in an hour?', { content: 'a reminder (nothing said of what)', dueText: 'in an hour' }, 'The user has a to-do: a reminder (nothing said of what) in an hour (2025-03-12)'],
  ])('a reminder said only by when: %s', (text, todo, content) => {
    const adds = ops(text).filter((o) => o.op === 'add');
    expect(adds).toHaveLength(1);
    expect(adds[0]).toMatchObject({ kind: 'todo', content, todo });
  });

  it.each([
    // Said on Wednesday 2025-03-12: next Tuesday is the 18th.
    ['我下周二要去杭州见客户，提醒我前一天晚上准备材料', '准备材料', '2025-03-17T12:00:00.000Z', '用户有待办事项：前一天晚上（2025年3月17日）准备材料'],
    ["I'm flying to Tokyo next Tuesday, remind me the night before to pack", 'pack', '2025-03-17T12:00:00.000Z', 'The user has a to-do: pack the night before (2025-03-17)'],
  ])('a todo counted from the day said before it: %s', (text, task, dueAt, content) => {
    const todo = ops(text).find((o) => o.op === 'add' && o.kind === 'todo');
    expect(todo).toMatchObject({ content, todo: { content: task, dueAt } });
  });

  it('a reminder after the time it would be for asks nothing; a series keeps its own reminders (zh, en)', () => {
    expect(ops('明天开会，下周提醒我').filter((o) => o.op === 'add').map((o) => o.op === 'add' && o.kind)).toEqual(['plan']);
    expect(ops('The report is due tomorrow, remind me next week').some((o) => o.op === 'add' && o.kind === 'todo' && o.todo?.remindText)).toBe(false);
    const series = ops('每天早上八点提醒我吃药，下周一提醒我').find((o) => o.op === 'add');
    expect(series).toMatchObject({ todo: { content: '吃药', dueText: '每天早上八点' } });
    expect(series?.op === 'add' && series.todo?.remindText).toBeFalsy();
  });

  it('a request opening the next message is about the last thing said in the one before (zh, en)', () => {
    const zh = ops([user('明天下午三点开会'), { id: 'a1', role: 'assistant', content: '好的', createdAt }, user('提前半小时提醒我')]).filter((o) => o.op === 'add');
    expect(zh).toHaveLength(1);
    expect(zh[0]).toMatchObject({ kind: 'todo', todo: { content: '开会', dueText: '明天下午三点', remindText: '提前半小时' } });
    const en = ops([user('I need to call the bank'), { id: 'a2', role: 'assistant', content: 'Sure.', createdAt }, user('remind me in an hour')]).filter((o) => o.op === 'add');
    expect(en).toHaveLength(1);
    expect(en[0]).toMatchObject({ kind: 'todo', todo: { content: 'call the bank', dueText: 'in an hour' } });
    // Anything else in the next message stands on its own.
    expect(ops([user('明天下午三点开会'), user('我喜欢猫')]).filter((o) => o.op === 'add')).toHaveLength(2);
  });

  // A todo said with no time of its own is for the day the clause before names; a birthday said by its day is its date.
  it.each([
    ['后天是妈妈生日，提醒我买礼物', { content: '买礼物', dueText: '后天' }, '用户的妈妈生日是3月14日'],
    ["Tomorrow is my mom's birthday, remind me to buy flowers", { content: 'buy flowers', dueText: 'tomorrow' }, "The user's mom's birthday is March 13"],
    ['周五晚上七点和朋友吃饭，别让我忘了', { content: '和朋友吃饭', dueText: '周五晚上七点' }, undefined],
    ["Dinner with Anna on Friday at 7pm, don't let me forget", { content: 'Dinner with Anna', dueText: 'on Friday at 7pm' }, undefined],
    ['每个月最后一天提醒我交信用卡', { content: '交信用卡', dueText: '每个月最后一天' }, undefined],
    ['下个月15号提醒我续费会员', { content: '续费会员', dueText: '下个月15号' }, undefined],
  ])('a todo and its time: %s', (text, todo, person) => {
    const adds = ops(text).filter((o) => o.op === 'add');
    expect(adds.find((o) => o.kind === 'todo')).toMatchObject({ todo });
    expect(adds.find((o) => o.kind === 'person')?.content).toBe(person);
  });

  // Said Wednesday 10:00 in Shanghai.
  it.each([
    ['remind me at 5 to leave for the airport', { content: 'leave for the airport', dueText: 'at 5', dueAt: '2025-03-12T09:00:00.000Z' }],
    ['5点提醒我出发去机场', { content: '出发去机场', dueText: '5点', dueAt: '2025-03-12T09:00:00.000Z' }],
    ['Please remind me on the 15th to pay the credit card', { content: 'pay the credit card', dueText: 'on the 15th', dueAt: '2025-03-15T01:00:00.000Z' }],
    ['remind me the day after tomorrow to send the invoice', { content: 'send the invoice', dueText: 'the day after tomorrow' }],
    ['Set a reminder for Friday at noon: lunch with Sarah', { content: 'lunch with Sarah', dueText: 'Friday at noon', dueAt: '2025-03-14T04:00:00.000Z' }],
    ['Set a reminder to call mom at 6pm', { content: 'call mom', dueText: 'at 6pm' }],
    ['帮我设个提醒：明天下午三点开会', { content: '开会', dueText: '明天下午三点' }],
    ['设一个明天早上八点的提醒：吃药', { content: '吃药', dueText: '明天早上八点' }],
    ['帮我设置一个提醒，下周五交报告', { content: '交报告', dueText: '下周五' }],
    ['提醒我，明天下午三点开会', { content: '开会', dueText: '明天下午三点' }],
    ['提醒我：明天上午十点牙医', { content: '牙医', dueText: '明天上午十点' }],
    ['Remind me: dentist tomorrow at 10am', { content: 'dentist', dueText: 'tomorrow at 10am' }],
    ['明早提醒我带身份证', { content: '带身份证', dueText: '明早', dueAt: '2025-03-13T01:00:00.000Z' }],
    ['大后天提醒我去取快递', { content: '取快递', dueText: '大后天', dueAt: '2025-03-15T01:00:00.000Z' }],
    ['月底提醒我交房租', { content: '交房租', dueText: '月底', dueAt: '2025-03-31T01:00:00.000Z' }],
    // A wake-up: its bare hour is the morning's (said at 10:00: tomorrow), unlike "at 5" above.
    ['明天早上七点叫我起床', { content: '起床', dueText: '明天早上七点', dueAt: '2025-03-12T23:00:00.000Z' }],
    ['六点叫我起来', { content: '起床', dueText: '六点', dueAt: '2025-03-12T22:00:00.000Z' }],
    ['Wake me up at 7 tomorrow', { content: 'wake up', dueText: 'at 7 tomorrow', dueAt: '2025-03-12T23:00:00.000Z' }],
    ['Can you wake me at 6:30?', { content: 'wake up', dueText: 'at 6:30', dueAt: '2025-03-12T22:30:00.000Z' }],
    // A moment with no clock time: a todo with no due time, the request still kept.
    ['晚点提醒我回个电话给张总', { content: '晚点回个电话给张总' }],
    ['下班前提醒我交周报', { content: '下班前交周报' }],
  ])('a reminder asked for: %s', (text, todo) => {
    const adds = ops(text).filter((o) => o.op === 'add');
    expect(adds).toHaveLength(1);
    expect(adds[0]).toMatchObject({ kind: 'todo', todo });
  });

  it.each([
    ['明天是我老婆的生日', 'person', '用户的老婆生日是3月13日'],
    ['今天是我生日', 'identity', '用户的生日是3月12日'],
    ['我妈后天过生日', 'person', '用户的妈妈生日是3月14日'],
    ["Tomorrow is my wife's birthday", 'person', "The user's wife's birthday is March 13"],
    ["It's my birthday today", 'identity', "The user's birthday is March 12"],
    ["My dad's birthday is on Sunday", 'person', "The user's dad's birthday is March 16"],
  ])('a birthday by its day is kept as its date: %s', (text, kind, content) => {
    expect(added(text)).toMatchObject({ kind, content });
  });

  it.each(['我好累，提醒我', '提醒我，我好累', '妈妈叫我起床', 'wake me up inside', '你别忘了提醒我', "Your pup is so cute, remind me what's their name?", '我提前一天到了', '他提前半小时下班了，提醒我了', 'I arrived an hour early', 'We met the day before, remind me'])('asks for no reminder of anything: %s', (text) => {
    expect(ops(text).some((o) => o.op === 'add' && o.kind === 'todo')).toBe(false);
  });

  it('a request to be reminded is no plan of reminding: "提醒我下周五要交报告" is a todo', () => {
    expect(added('提醒我下周五要交报告')).toMatchObject({ kind: 'todo', content: '用户有待办事项：下周五（2025年3月21日）要交报告' });
    expect(added('提醒我准备明天的材料')).toMatchObject({ kind: 'todo' });
  });

  it.each(['医生提醒我多喝水', '昨天妈妈提醒我带伞', 'My boss reminded me to submit the form', 'She reminds me of my sister'])('is no todo of the user\'s: %s', (text) => {
    expect(ops(text).some((o) => o.op === 'add' && o.kind === 'todo')).toBe(false);
  });

  it('records the source message and a modest confidence', () => {
    const message = user('我喜欢猫');
    expect(ops([message])[0]).toMatchObject({ op: 'add', confidence: 0.7, sourceMessageIds: [message.id] });
  });

  it('reads each clause: "我叫李明，是后端工程师" is a name and a job', () => {
    expect(ops('我叫李明，是后端工程师').map((o) => (o.op === 'add' ? o.content : o.op))).toEqual(['用户叫李明', '用户是后端工程师']);
  });

  it('reads "I\'m Jake, a software engineer from Toronto" as a name, a job and where the user is from', () => {
    expect(ops("I'm Jake, a software engineer from Toronto.").map((o) => (o.op === 'add' ? o.content : o.op))).toEqual(["The user's name is Jake", 'The user is a software engineer', 'The user is from Toronto']);
    // A people is no name.
    expect(added("I'm American")?.content).not.toBe("The user's name is American");
    for (const text of ['我是江西人', '我是武汉的', '我是老司机', '我是高手', '我是金牛座']) expect(added(text)?.content ?? '', text).not.toMatch(/^用户叫/u);
    expect(ops('大家好，我是小李，在上海做前端开发').map((o) => (o.op === 'add' ? o.content : o.op))).toEqual(['用户叫小李', '用户在上海做前端开发']);
  });

  it('reads "家里养了…" after a clause about the user as the user\'s household', () => {
    expect(ops('我喜欢猫，家里养了一只叫年糕的橘猫').map((o) => (o.op === 'add' ? o.content : o.op))).toEqual(['用户喜欢猫', '用户养了一只橘猫，名叫年糕']);
  });
});

describe('extractHeuristically: plans typed the way chat types them', () => {
  it.each([
    ['周末想去杭州爬山', '用户想周末（2025年3月15日）去杭州爬山'],
    ['周末我想去杭州爬山', '用户想周末（2025年3月15日）去杭州爬山'],
    ['我下周打算去北京旅游', '用户打算下周（2025年3月17日那一周）去北京旅游'],
    ['今年打算考研', '用户打算今年考研'],
    ['打算明年换工作', '用户打算明年（2026年）换工作'],
    ['我在考虑要不要换工作', '用户在考虑要不要换工作'],
    ['在考虑要不要换工作', '用户在考虑要不要换工作'],
    ['最近想学日语', '用户想学日语'],
    ['对了，明年想换工作', '用户想明年（2026年）换工作'],
    ['Planning to visit Beijing next week', 'The user is planning to visit Beijing next week (the week of 2025-03-17)'],
    ['Next week, I plan to visit Beijing.', 'The user plans to visit Beijing next week (the week of 2025-03-17)'],
    ['This weekend I want to go hiking in Hangzhou', 'The user wants to go hiking in Hangzhou this weekend (2025-03-15)'],
    ['Want to learn the guitar', 'The user wants to learn the guitar'],
    // After a clause about the user themself, a plan with no subject is theirs too; the time first.
    ['我今天很开心，明天要上班', '用户明天（2025年3月13日）要上班'],
    ['我今天很累，明天还要早起去机场', '用户明天（2025年3月13日）还要早起去机场'],
    ['Tomorrow I have an exam', 'The user has an exam tomorrow (2025-03-13)'],
    ['Next week I have a job interview', 'The user has a job interview next week (the week of 2025-03-17)'],
  ])('%s → %s', (text, content) => {
    expect(ops(text).find((o) => o.op === 'add' && o.kind === 'plan')).toMatchObject({ kind: 'plan', content });
  });

  it.each(['周末想去哪里玩？', '他周末想去杭州', '明天要下雨', '想你了', 'Want to go for a walk?', 'Next week, my sister visits', '我朋友来了，明天要走', '我妈妈来了，明天要回去', '我挺好的，明天还要下雨'])('states no plan of the user: %s', (text) => {
    expect(added(text)).toBeUndefined();
  });
});

describe('extractHeuristically: statements typed without a subject, diets, birthdays, and the time of a move', () => {
  it.each([
    ['刚搬到深圳', 'identity', '用户住在深圳'],
    ['在腾讯上班', 'identity', '用户在腾讯上班'],
    ['养了两只猫', 'fact', '用户养了两只猫'],
    ['最近在学吉他', 'fact', '用户在学吉他'],
    ['Just moved to Berlin', 'identity', 'The user lives in Berlin'],
    ['Work at Google as a designer', 'identity', 'The user works at Google as a designer'],
    ['Started learning guitar recently', 'event', 'The user started learning guitar recently'],
    ['我是素食者', 'identity', '用户是素食者'],
    ['我现在吃素了', 'identity', '用户吃素'],
    ["I'm a vegetarian", 'identity', 'The user is vegetarian'],
    ["I don't eat meat", 'identity', "The user doesn't eat meat"],
    ['I have two cats', 'fact', 'The user has two cats'],
    ['我去年搬到深圳', 'identity', '用户住在深圳'],
    ['I moved to Berlin last year', 'identity', 'The user lives in Berlin'],
    ['我老婆下个月生日', 'person', '用户的老婆下个月过生日'],
    // A birthday said by its day is kept as the date it is: "下周六" names another day next week.
    ['我妈生日是下周六', 'person', '用户的妈妈生日是3月22日'],
    ['我爸叫李强', 'person', '用户的爸爸叫李强'],
    ["My mom's birthday is next Saturday", 'person', "The user's mom's birthday is March 22"],
    ['My son starts school this year', 'person', "The user's son starts school this year"],
    ['我儿子今年上小学了', 'person', '用户的儿子今年上小学'],
    ['下周三要交报告', 'plan', '用户下周三（2025年3月19日）要交报告'],
    ['Have to submit the report next Wednesday', 'plan', 'The user needs to submit the report next Wednesday (2025-03-19)'],
    ['明天下午三点开会', 'plan', '用户明天下午三点（2025年3月13日）开会'],
    ['周五面试', 'plan', '用户周五（2025年3月14日）面试'],
    ['I have a meeting at 3pm tomorrow', 'plan', 'The user has a meeting at 3pm tomorrow (2025-03-13)'],
    ['Dentist appointment on Friday', 'plan', 'The user has a dentist appointment on Friday (2025-03-14)'],
  ])('%s → %s %s', (text, kind, content) => {
    expect(added(text)).toMatchObject({ kind, content });
  });

  // Who a clause is about carries to the next: a relative's age is not the user's, "她" is the girlfriend.
  it.each([
    ['我儿子叫小宝，今年五岁', ['用户的儿子叫小宝', '用户的儿子今年五岁']],
    ['我女朋友下个月生日，她喜欢香水', ['用户的女朋友下个月过生日', '用户的女朋友喜欢香水']],
    ['我老公是医生，他不吃香菜', ['用户的老公是医生', '用户的老公不吃香菜']],
    ['我妈妈住在成都，她对花生过敏', ['用户的妈妈住在成都', '用户的妈妈对花生过敏']],
    ['我儿子的老师很好，今年五十岁', []],
    ['我朋友来了，今年三十岁', []],
    ['我的名字是李明，今年30岁', ['用户叫李明', '用户今年30岁']],
    ['My daughter Emma loves drawing', ["The user's daughter Emma loves drawing"]],
    ['My wife, Anna, works at Google', ["The user's wife Anna works at Google"]],
    ["I switched jobs, I'm now a PM at Stripe", ['The user is a PM at Stripe']],
  ])('whose it is: %s', (text, contents) => {
    expect(ops(text).flatMap((o) => (o.op === 'add' ? [o.content] : []))).toEqual(contents);
  });

  it.each([
    ['以后回答我的时候用中文', '用户希望用中文交流'],
    ['请用英文回复', '用户希望用英文交流'],
    ['Please always answer me in English', 'The user wants replies in English'],
    ['Reply in Chinese from now on', 'The user wants replies in Chinese'],
  ])('the language the user wants replies in: %s', (text, content) => {
    expect(added(text)).toMatchObject({ kind: 'preference', content });
  });

  it('a new reply language replaces the old; the same one said again reinforces it (zh, en)', () => {
    expect(ops('以后用英文回答我', [memory('4', '用户希望用中文交流', 'preference')])[0]).toMatchObject({ op: 'update', target: '4', content: '用户希望用英文交流' });
    expect(ops('Reply in English from now on', [memory('4', 'The user wants replies in English', 'preference')])[0]).toMatchObject({ op: 'reinforce', target: '4' });
  });

  it.each(['在吗', '在干嘛', '是的', '有点累', 'Moved to tears by the movie', 'Work hard, play hard', '你吃素吗', 'Are you vegetarian?', '明天要下雨', '我老婆生日是什么时候', 'Have to say, that was great', '喜欢就好', '养了很久了', 'Live in the moment', 'Work at it every day', '准备好了', '决定了', '计划赶不上变化', '我准备好了', '我决定了', 'Have to go now', 'I have to go now', '我现在要走了', '我在开会', '明天开会吗', 'I have a question', 'Meeting was great', '今天要不要出去玩', '我明天要不要带伞', '我在找工作', "I can't eat right now", "I'm 30 minutes away", '我是5月3日', "I'm afraid so", 'I speak my mind', "I'm Fine", "I'm Sorry", "I'm Back!", 'I drive a lot', 'my name is not important', 'my name is spelled wrong', '我开的是会议', '我开的是玩笑', '我属于这个团队', "I'm in trouble", "I'm in a meeting", '我身高不高', '说英语', '他们都说英语', "I'm a little late, see you at 5 pm"])('states nothing about the user: %s', (text) => {
    expect(added(text)).toBeUndefined();
  });

  it.each([
    ['我现在是纯素食者', '用户是素食者', '用户是纯素食者'],
    ["I'm vegan now", 'The user is vegetarian', 'The user is vegan'],
  ])('a changed diet updates the old one: %s', (text, old, content) => {
    expect(ops(text, [memory('3', old)])[0]).toMatchObject({ op: 'update', target: '3', content });
  });

  it.each([
    ['记住我的车牌号是沪A12345', '用户的车牌号是沪A12345'],
    ['记住，我的车停在B2层', '用户的车停在B2层'],
    ['你能帮我记住我的车位是B2-103吗', '用户的车位是B2-103'],
    ['Remember that my anniversary is on June 12', "The user's anniversary is on June 12"],
    ['Can you remember that my locker is number 42?', "The user's locker is number 42"],
    ['Remember this: I park on level 3', 'The user parks on level 3'],
    ["please remember, my locker is number 42", "The user's locker is number 42"],
  ])('keeps what the user asks to be remembered, as said: %s', (text, content) => {
    expect(added(text)).toEqual({ kind: 'fact', content, importance: 0.8 });
  });

  it('reads a statement asked to be remembered with its own row first', () => {
    expect(added('Please remember that I\'m allergic to peanuts')).toMatchObject({ content: 'The user is allergic to peanuts' });
    expect(added('记住我不吃香菜')).toMatchObject({ kind: 'preference', content: '用户不吃香菜' });
    // A task behind "记住" is still a task.
    expect(added('记住明天交报告')).toMatchObject({ kind: 'todo' });
  });

  it.each(['我的车牌号是沪A12345', 'My locker is number 42', '记住我的银行卡密码是123456', 'remember my wifi password is hunter2', 'Do you remember my name?', '你还记得我叫什么吗', "And remember, I'm always here for you", 'Remember I was feeling down?', 'Remember I had a tattoo of my four dogs?'])(
    'keeps nothing said in passing, no credential and no question: %s',
    (text) => expect(added(text)).toBeUndefined(),
  );

  it.each(['你能记住我说的话吗', '你能记住我的生日吗', '能记住我说过的所有事情吗？', 'can you remember my birthday?', 'Can you remember what I told you yesterday?', 'can you remember that I said that?'])(
    'a question about what Engram remembers stores nothing: %s',
    (text) => expect(ops(text)).toEqual([expect.objectContaining({ op: 'skip' })]),
  );

  it("is no plan of the user's when a friend's wedding is next week", () => {
    expect(added('我朋友下周结婚')).toMatchObject({ kind: 'person', content: '用户的朋友下周结婚' });
    expect(added('我妈下周搬家')?.kind).not.toBe('plan');
  });

});

describe("extractHeuristically: a relative's facts stay theirs", () => {
  /** Every add, as content. */
  const adds = (text: string): string[] => ops(text).flatMap((o) => (o.op === 'add' ? [o.content] : []));

  it.each([
    ['我有个儿子叫乐乐，今年五岁，对鸡蛋过敏', ['用户的儿子叫乐乐', '用户的儿子今年五岁', '用户的儿子对鸡蛋过敏']],
    ['我有一个女儿，今年七岁，喜欢画画', ['用户有一个女儿', '用户的女儿今年七岁', '用户的女儿喜欢画画']],
    ['我有个哥哥，在北京工作', ['用户有一个哥哥', '用户的哥哥在北京工作']],
    ["I have a son named Leo, he's 5 and allergic to eggs", ['The user has a son, Leo', "The user's son Leo is 5 and allergic to eggs"]],
    ['I have a daughter named Mia. She loves drawing.', ['The user has a daughter, Mia', "The user's daughter Mia loves drawing"]],
    ['two kids, Lily who is 7 and Ben who is 4', ['The user has two kids, Lily who is 7 and Ben who is 4']],
    ['I have two kids, Lily (7) and Ben (4)', ['The user has two kids, Lily (7) and Ben (4)']],
  ])('%s', (text, contents) => {
    expect(adds(text)).toEqual(contents);
  });

  it.each([
    // The user's own clause after the relative's is the user's again.
    ['我有个女儿叫朵朵。我今年三十五岁', ['用户的女儿叫朵朵', '用户今年三十五岁']],
    // "he" is not the mother.
    ['My mom called, he said hi', []],
    // "不是很开心" is how the user is, no value taken back.
    ['我今天在家，不是很开心', []],
    // A name no memory gives a relation to is no one the user has said.
    ['Lily is 8', []],
  ])('keeps the user apart from the relative: %s', (text, contents) => {
    expect(adds(text)).toEqual(contents);
  });
});

describe('extractHeuristically: what it leaves alone', () => {
  it('never extracts from assistant or system messages', () => {
    const messages: ExtractionMessage[] = [
      { id: 'a1', role: 'assistant', content: '我叫小助手，我喜欢猫', createdAt },
      { id: 's1', role: 'system', content: 'My name is Engram and I love cats', createdAt },
    ];
    expect(ops(messages)).toEqual([{ op: 'skip', reason: 'no explicit statement found' }]);
  });

  it.each([
    ['我女儿住在哪里', '我女儿住在杭州', '用户的女儿住在杭州'],
    ['我养的猫叫什么', '我养了一只猫叫小白', '用户养了一只猫，名叫小白'],
    ['我老婆是做什么的呢', '我老婆是医生', '用户的老婆是医生'],
    ['Where does my daughter live', 'My daughter lives in Hangzhou', "The user's daughter lives in Hangzhou"],
  ])('takes a question typed without a mark for a question, not a fact: %s', (question, statement, fact) => {
    expect(ops(question)).toEqual([expect.objectContaining({ op: 'skip' })]);
    expect(added(statement)?.content).toBe(fact);
  });

  it.each(['你喜欢猫吗？', '如果我住在上海会怎样', '我想问一下天气', '我爱你', 'Do you like cats?', 'I love it', '今天天气不错'])(
    'skips questions, hypotheticals and chatter: %s',
    (text) => {
      const result = ops(text);
      expect(result).toHaveLength(1);
      expect(result[0]?.op).toBe('skip');
    },
  );

  it('says why it skipped, in the user’s language', () => {
    expect(extractHeuristically({ messages: [user('今天天气不错')], existing: [] }).operations).toEqual([{ op: 'skip', reason: '没有明确的可记忆信息' }]);
  });
});

describe('extractHeuristically: against existing memories', () => {
  it('updates the memory holding the old name', () => {
    const [op] = ops('我叫李明', [memory('1', '用户叫李华')]);
    expect(op).toMatchObject({ op: 'update', target: '1', content: '用户叫李明' });
    expect(op?.op === 'update' && op.reason).toContain('李华');
  });

  it('a session summary quoting the user is never the memory a change updates or deletes (zh, en)', () => {
    const summaries = [memory('e1', '用户说：我喜欢猫，家里养了一只橘猫；我住在上海（话题：猫、上海）', 'episode'), memory('e2', 'The user said: I love cats; I live in Boston (Topics: cats, Boston)', 'episode')];
    const facts = [memory('p1', '用户喜欢猫', 'preference'), memory('h1', '用户住在上海'), memory('p2', 'The user loves cats', 'preference'), memory('h2', 'The user lives in Boston')];
    expect(ops('我现在不喜欢猫了', [...summaries, ...facts])).toEqual([expect.objectContaining({ op: 'delete', target: 'p1' })]);
    expect(ops('我搬到北京了', [...summaries, ...facts])).toEqual([expect.objectContaining({ op: 'update', target: 'h1', content: '用户住在北京' })]);
    expect(ops("I don't love cats anymore", [...summaries, ...facts])).toEqual([expect.objectContaining({ op: 'delete', target: 'p2' })]);
    // With only the summary related, nothing is deleted or rewritten: the change is a memory of its own.
    for (const said of ['我现在不喜欢猫了', '我搬到北京了', 'I moved to Seattle']) {
      expect(ops(said, summaries).map((o) => o.op)).toEqual(['add']);
    }
  });

  it('swaps only the value inside a combined memory', () => {
    expect(ops('不对，我叫李明', [memory('1', '用户叫张三，是后端工程师')])[0]).toMatchObject({ op: 'update', target: '1', content: '用户叫李明，是后端工程师' });
  });

  it.each([
    ['I moved to Berlin', "The user lives in Paris", 'The user lives in Berlin'],
    ["Actually, I'm a teacher", 'The user is a software engineer', 'The user is a teacher'],
    ['其实我住在杭州', '用户住在上海', '用户住在杭州'],
    ['my name is Bob', "The user's name is Robert", "The user's name is Bob"],
    // A birthday and an age hold one value too.
    ['不对，我的生日是5月4日', '用户的生日是5月3日', '用户的生日是5月4日'],
    ['Actually my birthday is May 4th', "The user's birthday is May 3rd", "The user's birthday is May 4th"],
    ['我今年35岁', '用户今年34岁', '用户今年35岁'],
    ["I'm 35", 'The user is 34 years old', 'The user is 35 years old'],
    ['我血型是B型', '用户的血型是A型', '用户的血型是B型'],
    ['My blood type is O', "The user's blood type is A", "The user's blood type is O"],
    ['我身高175', '用户身高170厘米', '用户身高175厘米'],
    ["I'm 6 ft tall", 'The user is 5 ft 11 tall', 'The user is 6 ft tall'],
  ])('a changed single value updates: %s', (text, old, content) => {
    expect(ops(text, [memory('7', old)])[0]).toMatchObject({ op: 'update', target: '7', content });
  });

  it.each([
    ['我说错了，我女儿是八岁不是七岁', '用户的女儿今年七岁', '用户的女儿今年八岁'],
    ['我女儿是八岁，不是七岁', '用户的女儿今年七岁', '用户的女儿今年八岁'],
    ['不对，我女儿今年八岁', '用户的女儿今年七岁', '用户的女儿今年八岁'],
    ['我说错了，我是36岁不是35岁', '用户今年35岁', '用户今年36岁'],
    // Only the age changes, not a name that holds the same character.
    ['我女儿今年八岁', '用户的女儿小七今年七岁', '用户的女儿小七今年八岁'],
    ['sorry, my daughter is 8 not 7', "The user's daughter Lily is 7", "The user's daughter Lily is 8"],
    ['Lily is 8, not 7', "The user's daughter Lily is 7", "The user's daughter Lily is 8"],
    ['My son just turned 6', "The user's son is 5", "The user's son is 6"],
    ["Actually I'm 36, not 35", 'The user is 35 years old', 'The user is 36 years old'],
  ])('a corrected age of the user or a relative updates in place: %s', (text, old, content) => {
    expect(ops(text, [memory('7', old, 'person')])).toEqual([expect.objectContaining({ op: 'update', target: '7', content })]);
  });

  it("one relative's age leaves another's alone", () => {
    expect(ops('我儿子今年八岁', [memory('7', '用户的女儿今年七岁', 'person')])).toEqual([expect.objectContaining({ op: 'add', content: '用户的儿子今年八岁' })]);
    expect(ops('My son Ben is 8', [memory('7', "The user's daughter Lily is 7", 'person')])).toEqual([expect.objectContaining({ op: 'add', content: "The user's son Ben is 8" })]);
    expect(ops('我女儿今年七岁', [memory('7', '用户的女儿今年七岁', 'person')])).toEqual([expect.objectContaining({ op: 'reinforce', target: '7' })]);
  });

  it.each([
    ['我喜欢猫', '用户喜欢猫'],
    ['我真的很喜欢猫', '用户喜欢猫'],
    ['I love cats', 'The user loves cats'],
    ['I love cats!', 'The user really loves cats'],
    ['我叫李明', '用户叫李明'],
    ['My name is Bob', "The user's name is Bob"],
  ])('a repeat reinforces instead of adding: %s', (text, old) => {
    expect(ops(text, [memory('3', old, 'preference')])).toEqual([expect.objectContaining({ op: 'reinforce', target: '3' })]);
  });

  it('"I no longer like X" deletes the memory that says the user likes X', () => {
    expect(ops('我不再喜欢咖啡了', [memory('2', '用户喜欢咖啡', 'preference')])).toEqual([expect.objectContaining({ op: 'delete', target: '2' })]);
    expect(ops("I don't like coffee anymore", [memory('2', 'The user loves coffee', 'preference')])).toEqual([expect.objectContaining({ op: 'delete', target: '2' })]);
  });

  it.each([
    ['我不喜欢咖啡了，现在改喝茶', '用户喜欢喝咖啡', [{ op: 'delete', target: '2' }, { op: 'add', content: '用户现在改喝茶' }]],
    ['我不喝咖啡了，现在改喝茶', '用户喜欢咖啡', [{ op: 'delete', target: '2' }, { op: 'add', content: '用户现在改喝茶' }]],
    ["I don't drink coffee anymore, I switched to tea", 'The user loves coffee', [{ op: 'update', target: '2', content: 'The user no longer drinks coffee' }, { op: 'add', content: 'The user switched to tea' }]],
  ])('a change of mind drops the old preference and keeps the new one: %s', (text, old, expected) => {
    expect(ops(text, [memory('2', old, 'preference')])).toEqual(expected.map((e) => expect.objectContaining(e)));
  });

  it.each([
    ['我跳槽到腾讯了', '用户在字节跳动工作', '用户在腾讯工作'],
    ['我们上个月搬到杭州了', '用户住在上海', '用户住在杭州'],
    ['actually we moved to Tacoma last month', 'The user lives in Seattle', 'The user lives in Tacoma'],
    ['I switched jobs, I work at Stripe now', 'The user works at Google', 'The user works at Stripe'],
  ])('a new employer or home updates the old one: %s', (text, old, content) => {
    expect(ops(text, [memory('5', old)])).toEqual([expect.objectContaining({ op: 'update', target: '5', content })]);
  });

  it("a friend's change of mind is not the user's", () => {
    expect(ops('我朋友不喝咖啡了，现在改喝茶', [memory('2', '用户喜欢喝咖啡', 'preference')])).toEqual([expect.objectContaining({ op: 'skip' })]);
  });

  it('a turned preference updates the old one', () => {
    expect(ops('其实我不喜欢香菜', [memory('4', '用户喜欢香菜', 'preference')])[0]).toMatchObject({ op: 'update', target: '4', content: '用户不喜欢香菜' });
    expect(ops('I hate olives', [memory('4', 'The user likes olives', 'preference')])[0]).toMatchObject({ op: 'update', target: '4', content: 'The user hates olives' });
  });

  it('"no longer" rewrites the memory it contradicts', () => {
    expect(ops('我已经不在字节跳动工作了', [memory('5', '用户在字节跳动工作')])[0]).toMatchObject({ op: 'update', target: '5', content: '用户不再在字节跳动工作' });
    expect(ops('I no longer work at Google', [memory('5', 'The user works at Google')])[0]).toMatchObject({ op: 'update', target: '5', content: 'The user no longer works at Google' });
    expect(ops("I don't eat meat anymore")[0]).toMatchObject({ op: 'add', content: 'The user no longer eats meat' });
  });

  it('within one batch the last value of a slot wins', () => {
    const result = ops([user('我叫李华'), user('不对，我叫李明')], [memory('1', '用户叫王五')]);
    expect(result).toEqual([expect.objectContaining({ op: 'update', target: '1', content: '用户叫李明' })]);
  });

  it('leaves unrelated memories alone and adds the new fact', () => {
    expect(ops('我喜欢狗', [memory('1', '用户喜欢猫', 'preference')])).toEqual([expect.objectContaining({ op: 'add', content: '用户喜欢狗' })]);
  });
});

describe('extractHeuristically: chat typed casually, and names in Latin letters', () => {
  const adds = (text: string): string[] => ops(text).flatMap((o) => (o.op === 'add' ? [o.content] : []));
  it.each([
    ['im a teacher', ['The user is a teacher']],
    ["i'm lactose intolerant btw", ['The user is lactose intolerant']],
    ['my dogs name is max', ["The user's dog is named Max"]],
    ['dont let me forget to call mom tomorrow', ['The user has a to-do: call mom tomorrow (2025-03-13)']],
    ['gonna visit my parents next weekend', ['The user is going to visit their parents next weekend (2025-03-22)']],
    ['wanna learn spanish this year', ['The user wants to learn spanish this year (2025)']],
    ["I'm 41 now", ['The user is 41 years old']],
    ["I'm Jake, 34, a software developer from Austin", ["The user's name is Jake", 'The user is 34 years old', 'The user is a software developer', 'The user is from Austin']],
    ['allergic to penicillin. also shellfish', ['The user is allergic to penicillin', 'The user is allergic to shellfish']],
    ['I love pizza. also sushi lol', ['The user loves pizza', 'The user loves sushi']],
    ['im a data scientist at Meituan, based in Beijing', ['The user is a data scientist at Meituan', 'The user lives in Beijing']],
    ['我是Lisa，在上海做product manager，公司是阿里', ['用户叫Lisa', '用户在上海做product manager', '用户在阿里工作']],
    ['我是Lisa，在上海做产品经理', ['用户叫Lisa', '用户在上海做产品经理']],
    ['我的公司是阿里', ['用户在阿里工作']],
  ])('%s → %j', (text, contents) => {
    expect(adds(text)).toEqual(contents);
  });

  it.each(['lol', 'btw', 'pls remember that', 'wanna see a trick?', 'gonna be a great night', "i'm fine lol", 'also shellfish', '我是PM', '他是Lisa', '我朋友来了，公司是阿里', '我公司是做电商的', 'Is Lisa allergic to penicillin? also shellfish'])('states nothing new about the user: %s', (text) => {
    expect(adds(text).filter((c) => /Lisa|阿里|shellfish|trick|night|fine/u.test(c) || c === '')).toEqual([]);
  });
});
