import { describe, expect, it } from 'vitest';
import type { AliasedMemory, MemoryOperation } from '../../domain/operations.js';
import { extractHeuristically } from './heuristic-extractor.js';

// Friday 2026-11-27, 10:00 in Shanghai.
const createdAt = new Date('2026-11-27T02:00:00Z');
const timeZone = 'Asia/Shanghai';
const memory = (alias: string, content: string, kind: AliasedMemory['kind'] = 'identity'): AliasedMemory => ({ alias, kind, content, createdAt });

function ops(content: string, existing: AliasedMemory[] = []): MemoryOperation[] {
  return extractHeuristically({ messages: [{ id: 'm1', role: 'user', content, createdAt }], existing, timeZone }).operations;
}
/** Each operation in short: "update M1: …", "add todo: …", "reinforce M1", "delete M1". */
function brief(content: string, existing: AliasedMemory[] = []): string[] {
  return ops(content, existing).flatMap((o) => {
    if (o.op === 'add') return [`add ${o.kind}: ${o.content}`];
    if (o.op === 'update') return [`update ${o.target}: ${o.content}${o.todo && 'done' in o.todo ? ' (done)' : ''}`];
    if (o.op === 'skip') return [];
    return [`${o.op} ${o.target}`];
  });
}

describe('a pet that died: its memory is retired, not left as a living pet', () => {
  const cat = memory('M1', '用户养了一只猫，名叫咪咪', 'fact');
  const dog = memory('M1', 'The user has a golden retriever named Biscuit', 'fact');
  it.each([
    ['我的猫咪咪上周去世了', [cat], ['update M1: 用户的猫咪咪上周（2026年11月16日那一周）去世了']],
    ['咪咪上周去世了', [cat], ['update M1: 用户的猫咪咪上周（2026年11月16日那一周）去世了']],
    ['我的猫去世了', [cat], ['update M1: 用户的猫咪咪去世了']],
    ['Biscuit passed away last week :(', [dog], ["update M1: The user's golden retriever Biscuit passed away last week (the week of 2026-11-16)"]],
    ['my dog died yesterday', [dog], ["update M1: The user's golden retriever Biscuit died yesterday (2026-11-26)"]],
    // With no memory of the pet, the loss is still kept; a name no memory knows is not.
    ['我的狗上个月走了', [], ['add event: 用户的狗上个月（2026年10月）去世了']],
    ['our cat Mochi passed away last night', [], ["add event: The user's cat Mochi passed away last night (2026-11-26)"]],
    ['Oscar passed away', [], []],
    // A Chinese loss does not rewrite an English memory.
    ['我的狗上个月走了', [dog], ['add event: 用户的狗上个月（2026年10月）去世了']],
  ] as const)('%s', (said, existing, expected) => {
    expect(brief(said, [...existing])).toEqual(expected);
  });
});

describe('a death said as going away, and a job that is over: the memory says so, not left current', () => {
  const cat = memory('M1', '用户养了一只猫，名叫咪咪', 'fact');
  const wangcai = memory('M1', '用户养了一只狗，名叫旺财', 'fact');
  const dog = memory('M1', 'The user has a dog named Biscuit', 'fact');
  const nurse = memory('M2', 'The user is a nurse at Swedish hospital');
  const ali = memory('M2', '用户在阿里巴巴做产品经理');
  it.each([
    ['我们家咪咪昨天没了', [cat], ['update M1: 用户的猫咪咪昨天（2026年11月26日）去世了']],
    ['咪咪昨天走了', [cat], ['update M1: 用户的猫咪咪昨天（2026年11月26日）去世了']],
    ['咪咪离开我们了，好难过', [cat], ['update M1: 用户的猫咪咪去世了']],
    ['旺财去喵星了，不对，是去汪星了', [wangcai], ['update M1: 用户的狗旺财去世了']],
    // A cause between the time and the verb.
    ['旺财上个月因为生病去世了，我到现在还很难过', [wangcai], ['update M1: 用户的狗旺财上个月（2026年10月）因为生病去世了']],
    ['我的猫昨天没了', [], ['add event: 用户的猫昨天（2026年11月26日）去世了']],
    ["We had to put Biscuit down last night", [dog], ["update M1: The user's dog Biscuit was put down last night (2026-11-26)"]],
    ["We lost Biscuit last week, I'm heartbroken", [dog], ["update M1: The user's dog Biscuit died last week (the week of 2026-11-16)"]],
    ['we lost our dog last week', [], ["add event: The user's dog died last week (the week of 2026-11-16)"]],
    // Going away names no pet the user has: someone left, a wallet is gone, a game was lost.
    ['他走了', [cat], []],
    ['钱包没了', [cat], []],
    ['我爸走了', [], []],
    ['We lost the game', [dog], ['add event: The user and others lost the game']],
    ['We lost Biscuit', [], []],
  ] as const)('%s', (said, existing, expected) => {
    expect(brief(said, [...existing])).toEqual(expected);
  });
  it.each([
    ['I got a new job at Costco as a pharmacist', [nurse], ['update M2: The user works as a pharmacist at Costco']],
    ['I just started working at Google', [nurse], ['update M2: The user works at Google']],
    ['I quit my job at Swedish', [nurse], ['update M2: The user quit their job at Swedish (previously a nurse at Swedish hospital)']],
    ['I quit my job', [nurse], ['update M2: The user quit their job (previously a nurse at Swedish hospital)']],
    ["I'm now retired", [nurse], ['update M2: The user is retired (previously a nurse at Swedish hospital)']],
    ['I got laid off last month', [nurse], ['update M2: The user was laid off last month (October 2026) (previously a nurse at Swedish hospital)']],
    // Another workplace than the memory's: the memory's job may go on.
    ['I quit my job at Target', [nurse], ['add event: The user quit their job at Target']],
    ['我辞职了', [ali], ['update M2: 用户辞职了（之前在阿里巴巴做产品经理）']],
    ['我退休了', [ali], ['update M2: 用户退休了（之前在阿里巴巴做产品经理）']],
    ['我已经从阿里离职了', [ali], ['update M2: 用户从阿里离职了（之前在阿里巴巴做产品经理）']],
    ['我换了份工作，现在在京东', [ali], ['update M2: 用户在京东工作']],
    ['我换了份工作，现在在京东', [memory('M3', '用户是产品经理')], ['update M3: 用户在京东工作']],
    ['我跳槽到腾讯了', [memory('M3', '用户是产品经理')], ['update M3: 用户在腾讯工作']],
    // With no job memory, what was said is kept; "现在在京东" alone is only where the user is.
    ['我换了份工作，现在在京东', [], ['add event: 用户换了份工作', 'add identity: 用户在京东工作']],
    ['我现在在京东', [ali], []],
    ['I quit my job', [], ['add event: The user quit their job']],
    ["I'm now retired", [], ['add fact: The user is retired']],
    ['我辞掉了工作', [ali], ['update M2: 用户辞掉了工作（之前在阿里巴巴做产品经理）']],
  ] as const)('%s', (said, existing, expected) => {
    expect(brief(said, [...existing])).toEqual(expected);
  });
});

describe('saying a todo is done completes it, and is no event beside it', () => {
  const pills = memory('T1', 'The user has a to-do: take their pills every day at 8am', 'todo');
  const grandma = memory('T2', 'The user has a to-do: call grandma tomorrow', 'todo');
  const plumber = memory('T3', 'The user has a to-do: call the plumber on Saturday', 'todo');
  const dentist = memory('T4', 'The user has a to-do: take the kids to the dentist on Friday', 'todo');
  const yao = memory('T1', '用户有待办事项：每天晚上十点吃药', 'todo');
  const nainai = memory('T2', '用户有待办事项：明天给奶奶打电话', 'todo');
  const shuiguan = memory('T3', '用户有待办事项：周六约水管工', 'todo');
  const todos = [pills, grandma, plumber, dentist];
  it.each([
    ['I took my pills', todos, ['update T1: The user has a to-do: take their pills every day at 8am (done)']],
    ['I already took my pills', todos, ['update T1: The user has a to-do: take their pills every day at 8am (done)']],
    ['I called grandma', todos, ['update T2: The user has a to-do: call grandma tomorrow (done)']],
    ['nevermind about the plumber, my husband fixed it', todos, ['delete T3']],
    // Said plainly, every word must be the todo's: the zoo is not the dentist.
    ['I took my kids to the zoo', todos, ['add event: The user took their kids to the zoo']],
    ['I took my pills', [], ['add event: The user took their pills']],
    ['我已经吃药了', [yao, nainai, shuiguan], ['update T1: 用户有待办事项：每天晚上十点吃药 (done)']],
    ['刚给奶奶打电话了', [yao, nainai, shuiguan], ['update T2: 用户有待办事项：明天给奶奶打电话 (done)']],
    ['水管工的事算了，我老公修好了', [yao, nainai, shuiguan], ['delete T3']],
    ['我已经打算换工作了', [yao], ['add plan: 用户已经打算换工作']],
  ] as const)('%s', (said, existing, expected) => {
    expect(brief(said, [...existing])).toEqual(expected);
  });
});

describe('a repeating task noted without "remind me" is a todo; a habit with its subject stays a habit', () => {
  it.each([
    ['每周一和周四晚上七点去健身', 'todo', '健身', '每周一和周四晚上七点'],
    ['每周一晚上七点去健身', 'todo', '健身', '每周一晚上七点'],
    ['每月15号交房租', 'todo', '交房租', '每月15号'],
    ['every weekday at 9am standup', 'todo', 'standup', 'every weekday at 9am'],
    ['pay rent on the 1st of every month', 'todo', 'pay rent', 'on the 1st of every month'],
    ['every monday and thursday at 7pm gym', 'todo', 'gym', 'every monday and thursday at 7pm'],
  ] as const)('%s', (said, kind, task, dueText) => {
    const op = ops(said).find((o) => o.op === 'add');
    expect(op?.op === 'add' && { kind: op.kind, task: op.todo?.content, dueText: op.todo?.dueText }).toEqual({ kind, task, dueText });
  });
  it.each([
    ['I go to the gym every Monday and Thursday at 7pm', ['add pattern: The user goes to the gym every Monday and Thursday at 7pm']],
    ['每天都很累', []],
    ['Every morning is a struggle', []],
    ['Every day on set is awesome and full of potential', []],
  ] as const)('%s', (said, expected) => {
    expect(brief(said)).toEqual(expected);
  });
});

describe('a single value that changes replaces the old one, and what went with it', () => {
  const nurse = memory('M1', 'The user is a nurse at Swedish hospital');
  const seattle = memory('M2', 'The user lives in Seattle with their husband and two kids');
  const ali = memory('M1', '用户在阿里巴巴做产品经理');
  const zhang = memory('M2', '用户叫张三，是后端工程师');
  it.each([
    ["I'm now a school nurse at Lincoln Elementary", [nurse], ['update M1: The user is a school nurse at Lincoln Elementary']],
    ["I'm a teacher", [nurse], ['update M1: The user is a teacher']],
    ['我最近换工作了，现在在拼多多做产品总监', [ali], ['update M1: 用户在拼多多做产品总监']],
    ['我跳槽到腾讯了', [ali], ['update M1: 用户在腾讯工作']],
    ['我是产品经理', [ali], ['reinforce M1']],
    // The rest of a combined memory stays.
    ['我是产品经理', [zhang], ['update M2: 用户叫张三，是产品经理']],
    ['我叫李四', [zhang], ['update M2: 用户叫李四，是后端工程师']],
    // Fewer details take nothing away.
    ['i live in seattle', [seattle], ['reinforce M2']],
    ['I live in Tacoma', [seattle], ['update M2: The user lives in Tacoma']],
    ['我住在上海', [memory('M1', '用户住在上海浦东')], ['reinforce M1']],
  ] as const)('%s', (said, existing, expected) => {
    expect(brief(said, [...existing])).toEqual(expected);
  });
  it('splits "I live in … and work as …" into the two facts it states', () => {
    expect(brief('I live in Seattle and work as a nurse at Swedish hospital')).toEqual(['add identity: The user lives in Seattle', 'add identity: The user works as a nurse at Swedish hospital']);
    expect(brief('I think not, this is just a chance to learn something new and work as a team')).toEqual([]);
  });
});

describe('a favourite of a kind is one value; "no longer" ends what a memory says', () => {
  const film = memory('M1', '用户最喜欢的电影是《星际穿越》', 'preference');
  const movie = memory('M2', "The user's favorite movie is Interstellar", 'preference');
  const diet = memory('M3', 'The user is vegetarian');
  const jianfei = memory('M4', '用户在减肥', 'fact');
  it.each([
    ['我最喜欢的电影现在是《奥本海默》', ['update M1: 用户最喜欢的电影是《奥本海默》']],
    ['我最喜欢的电影是《星际穿越》', ['reinforce M1']],
    ['我最喜欢的歌手是周杰伦', ['add preference: 用户最喜欢的歌手是周杰伦']],
    ['my favorite film is now Oppenheimer', ["update M2: The user's favorite movie is Oppenheimer"]],
    ['My favourite movie is Interstellar', ['reinforce M2']],
    ["I'm not vegetarian anymore", ['update M3: The user is no longer vegetarian']],
    ["actually i'm not vegetarian anymore, i eat fish now so pescatarian", ['update M3: The user is pescatarian']],
    ['我现在不减肥了', ['update M4: 用户不再减肥']],
    // Over, but nothing known was so.
    ['我现在不饿了', []],
    ["I'm not sure anymore", []],
  ] as const)('%s', (said, expected) => {
    expect(brief(said, [film, movie, diet, jianfei])).toEqual(expected);
  });
});

describe('junk kept out, and facts that were missed', () => {
  it.each([
    ['我平时每天早上都喝咖啡，不喝就没精神', ['add pattern: 用户通常每天早上都喝咖啡']],
    ['我喜欢吃火锅 but 我老公不能吃辣', ['add preference: 用户喜欢吃火锅', 'add person: 用户的老公不能吃辣']],
    ['我前男友叫刘强，他是个程序员', ['add person: 用户的前男友叫刘强', 'add person: 用户的前男友是个程序员']],
    ["i'm allergic to mornings lol", []],
    ['i love u', []],
    ['I like your answer', []],
    ['I hate when that happens', []],
    ['家里还养了一只叫豆豆的柯基', ['add fact: 用户养了一只柯基，名叫豆豆']],
    ['我女儿今年七岁，叫朵朵', ['add person: 用户的女儿今年七岁', 'add person: 用户的女儿叫朵朵']],
    ['还有点乳糖不耐受', ['add fact: 用户乳糖不耐受']],
    ['对了，还有点乳糖不耐受', ['add fact: 用户乳糖不耐受']],
    ["i'm lactose intolerant btw", ['add fact: The user is lactose intolerant']],
    ['we have two kids, Lily who is 7 and Ben who is 4', ['add person: The user has two kids, Lily who is 7 and Ben who is 4']],
    ['我爸有高血压', ['add person: 用户的爸爸有高血压']],
    ['我不怎么吃辣', ['add preference: 用户不怎么吃辣']],
  ] as const)('%s', (said, expected) => {
    expect(brief(said)).toEqual(expected);
  });
});

describe('how chat says when, and whose', () => {
  it.each([
    ['remind me tmrw at 9 to call grandma', ['add todo: The user has a to-do: call grandma tomorrow at 9 (2026-11-28)']],
    ['tmrw at 9 remind me to call grandma', ['add todo: The user has a to-do: call grandma tomorrow at 9 (2026-11-28)']],
    ['In two weeks I need to renew my passport', ['add plan: The user needs to renew their passport in two weeks (the week of 2026-12-07)']],
    ['Tonite I need to pack', ['add plan: The user needs to pack tonight (2026-11-27)']],
    // The user's relative in a todo is named as the memory names them, not "自己妈".
    ['提醒我明天给我妈打电话', ['add todo: 用户有待办事项：明天（2026年11月28日）给妈妈打电话']],
    ['我明天要去机场接我老公', ['add plan: 用户明天（2026年11月28日）要去机场接老公']],
  ] as const)('%s', (said, expected) => {
    expect(brief(said)).toEqual(expected);
  });
});

describe('a job quit and the new workplace said after it: the new one replaces the job memory', () => {
  const nurse = memory('M1', 'The user is a nurse at Swedish hospital');
  const ali = memory('M1', '用户在阿里巴巴做产品经理');
  const hushi = memory('M1', '用户是护士');
  it.each([
    ['I quit my job, now I work at Costco', [nurse], ['update M1: The user works at Costco']],
    ['I quit my job and now I work at Costco', [nurse], ['update M1: The user works at Costco']],
    ['I quit my job, now at Costco', [nurse], ['update M1: The user works at Costco']],
    ['我辞职了，现在在Costco上班', [ali], ['update M1: 用户在Costco上班']],
    ['我辞职了，现在在Costco上班', [hushi], ['update M1: 用户在Costco上班']],
    // With no job memory, both are kept.
    ['I quit my job, now I work at Costco', [], ['add event: The user quit their job', 'add identity: The user works at Costco']],
    ['我辞职了，现在在Costco上班', [], ['add event: 用户辞职了', 'add identity: 用户在Costco上班']],
    // No job over: the job memory stays ("now I…" is still a statement of its own).
    ['I moved to Seattle, now I work at Amazon', [nurse], ['add identity: The user lives in Seattle', 'add identity: The user works at Amazon']],
    ['I quit smoking, now I feel great', [nurse], ['add fact: The user quit smoking']],
    ['我搬到了杭州，现在在阿里上班', [hushi], ['add identity: 用户住在杭州', 'add identity: 用户在阿里上班']],
  ] as const)('%s', (said, existing, expected) => {
    expect(brief(said, [...existing])).toEqual(expected);
  });
});
