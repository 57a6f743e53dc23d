import { describe, expect, it } from 'vitest';
import type { ExtractionMessage, MemoryOperation } from '../../domain/operations.js';
import { extractHeuristically } from './heuristic-extractor.js';

// Wednesday 2025-03-12, 10:00 in Shanghai.
const createdAt = new Date('2025-03-12T02:00:00Z');
const ops = (content: string): MemoryOperation[] =>
  extractHeuristically({ messages: [{ id: 'm1', role: 'user', content, createdAt } satisfies ExtractionMessage], existing: [], timeZone: 'Asia/Shanghai' }).operations;
const adds = (content: string) => ops(content).flatMap((o) => (o.op === 'add' ? [{ kind: o.kind, content: o.content }] : []));

describe('self-disclosure, Chinese (patterns-zh-disclosure.ts)', () => {
  it.each([
    ['我今天感冒了，嗓子很疼', 'fact', '用户今天感冒'],
    ['我有糖尿病', 'fact', '用户有糖尿病'],
    ['我膝盖一直不太好', 'fact', '用户的膝盖不太好'],
    ['我最近在准备考研', 'fact', '用户在准备考研'],
    ['我最近在减肥', 'fact', '用户在减肥'],
    ['我是中文系的', 'fact', '用户是中文系的'],
    ['我在读研二', 'fact', '用户在读研二'],
    ['我每周三晚上去打羽毛球', 'pattern', '用户每周三晚上去打羽毛球'],
    ['我一直想学钢琴', 'plan', '用户想学钢琴'],
    ['我的梦想是开一家书店', 'plan', '用户的梦想是开一家书店'],
    ['我昨天买了一台新的咖啡机', 'fact', '用户昨天（2025年3月11日）买了一台新的咖啡机'],
    ['我在一家医院当护士', 'identity', '用户在医院当护士'],
    ['我是做前端开发的', 'identity', '用户是做前端开发的'],
    ['我是素食主义者', 'identity', '用户是素食主义者'],
    ['我今年三十岁了', 'identity', '用户今年三十岁'],
    ['我上周去杭州出差了', 'event', '用户上周（2025年3月3日那一周）去杭州出差'],
    ['我以前在新加坡工作过两年', 'event', '用户以前在新加坡工作过两年'],
    ['我去年结婚了', 'event', '用户去年（2024年）结婚了'],
    ['我周末和朋友去爬了香山', 'event', '用户周末和朋友去爬了香山'],
    ['我哥哥在深圳开了一家奶茶店', 'person', '用户的哥哥在深圳开了一家奶茶店'],
    ['我朋友下周结婚', 'person', '用户的朋友下周结婚'],
    ['我爷爷九十岁了', 'person', '用户的爷爷九十岁'],
    ['我最喜欢的电影是《千与千寻》', 'preference', '用户最喜欢的电影是《千与千寻》'],
    ['火锅是我的最爱', 'preference', '火锅是用户的最爱'],
    ['我们上周去了一趟长城', 'event', '用户和身边的人上周（2025年3月3日那一周）去了一趟长城'],
    ['我最近在筹备自己的舞蹈工作室', 'fact', '用户在筹备自己的舞蹈工作室'],
    ['我和小王昨天去看了电影', 'event', '用户和小王昨天（2025年3月11日）去看了电影'],
    ['我以前经常和爸爸去骑马', 'pattern', '用户以前经常和爸爸去骑马'],
    // A day with its part ("昨天晚上"), a weekday of last week, and "去…了".
    ['我昨天晚上看了电影', 'event', '用户昨天晚上（2025年3月11日）看了电影'],
    ['我上周五去了医院', 'event', '用户上周五（2025年3月7日）去了医院'],
    ['上周末我去爬山了', 'event', '用户上周末（2025年3月8日）去爬山了'],
    ['我上个星期去了北京', 'event', '用户上个星期（2025年3月3日那一周）去了北京'],
    ['我去年去了日本', 'event', '用户去年（2024年）去了日本'],
    ['我上上周去了北京', 'event', '用户上上周（2025年2月24日那一周）去了北京'],
    ['我昨天去游泳了', 'event', '用户昨天（2025年3月11日）去游泳了'],
    // "也", "还" before the verb, as in reply to someone ("我也是程序员").
    ['我也打算去温哥华', 'plan', '用户打算去温哥华'],
    ['我还打算下个月学游泳', 'plan', '用户打算下个月（2025年4月）学游泳'],
    ['我也是程序员', 'identity', '用户是程序员'],
    // What keeps the user busy, a pet adopted, news told as news, what the user and their people like.
    ['我最近一直在忙写作的项目', 'fact', '用户在忙写作的项目'],
    ['跟你说一下，我领养了一只小狗', 'fact', '用户养了一只小狗'],
    ['告诉你个好消息，我考上研究生了', 'event', '用户考上了研究生'],
    ['我们喜欢周末去露营', 'preference', '用户和身边的人喜欢周末去露营'],
    // 把 and what it did, a move, a prize, the household's pet, where the user lives now.
    ['我昨天把头发剪短了', 'event', '用户昨天（2025年3月11日）把头发剪短了'],
    ['我上周把猫送去绝育了', 'event', '用户上周（2025年3月3日那一周）把猫送去绝育了'],
    ['我把钥匙弄丢了', 'event', '用户把钥匙弄丢了'],
    ['我刚搬家，现在住在望京', 'identity', '用户住在望京'],
    ['我参加了公司的年会，还抽到了一个奖', 'event', '用户抽到了一个奖'],
    ['我们家有一只金毛叫旺财', 'fact', '用户养了一只金毛，名叫旺财'],
  ])('%s → %s "%s"', (text, kind, content) => {
    expect(adds(text)).toContainEqual({ kind, content });
  });

  it('dates a past event by its time word, else by the message', () => {
    for (const text of ['我昨天去杭州出差了', 'Yesterday I went hiking with my kids']) {
      const [past] = ops(text);
      expect(past).toMatchObject({ op: 'add', kind: 'event' });
      expect(past?.op === 'add' && new Date(past.happenedAt!).getTime()).toBeLessThan(createdAt.getTime() - 6 * 3_600_000);
    }
    const [now] = ops('我刚跑完了人生第一个半马');
    expect(now).toMatchObject({ op: 'add', happenedAt: createdAt.toISOString() });
  });

  it.each(['我们去了你说的那家店', '我们看了那个', '我们公司最近在裁员', '如果有时间的话，我想去冰岛看极光', '嗯嗯，我知道了', '我觉得这家餐厅一般般', '你最近在学什么？', '我在考虑那个', '我去爬山', '我去爬山了吗', '我也准备好了', '我都决定了', '我们喜欢你', '我在忙', '告诉你吧', '我把你当朋友了', '我把这事忘了', '我很累，现在要睡了'])('remembers nothing from "%s"', (text) => {
    expect(adds(text)).toEqual([]);
  });
});

describe('self-disclosure, English (patterns-en-disclosure.ts)', () => {
  it.each([
    ['I caught the flu last week', 'fact', 'The user caught the flu last week (the week of 2025-03-03)'],
    ['I broke my wrist', 'fact', 'The user broke their wrist'],
    ["I'm studying marine biology", 'fact', 'The user is studying marine biology'],
    ['I teach piano to kids', 'fact', 'The user teaches piano to kids'],
    ["I'm now part of the fire-fighting brigade", 'fact', 'The user is now part of the fire-fighting brigade'],
    ['I want to visit the Cliffs of Moher', 'plan', 'The user wants to visit the Cliffs of Moher'],
    ["I'm thinking of adopting a second dog", 'plan', 'The user is thinking of adopting a second dog'],
    ['My goal is to run a marathon', 'plan', "The user's goal is to run a marathon"],
    ["I've been learning Japanese for a year", 'event', 'The user has been learning Japanese for a year'],
    ['Last weekend I joined a mentorship program for LGBTQ youth', 'event', 'The user joined a mentorship program for LGBTQ youth'],
    ['I got a new job at the library', 'event', 'The user got a new job at the library'],
    ['My sister moved to Denver', 'person', "The user's sister moved to Denver"],
    ['I loved "Becoming Nicole" by Amy Ellis Nutt', 'preference', 'The user loved "Becoming Nicole" by Amy Ellis Nutt'],
    ["Blue's my fave", 'preference', "The user's favorite is Blue"],
    ['Dancing makes me so happy', 'preference', 'Dancing makes the user happy'],
    ['Concerts are what I live for', 'preference', 'The user lives for concerts'],
    ["I'm writing another movie script", 'fact', 'The user is writing another movie script'],
    ['I went to a LGBTQ support group yesterday and it was so powerful', 'event', 'The user went to a LGBTQ support group yesterday (2025-03-11)'],
    ['I painted this after I visited a LGBTQ center', 'event', 'The user visited a LGBTQ center'],
    ['I set up a 5K charity run in our neighborhood', 'event', 'The user set up a 5K charity run in our neighborhood'],
    ['We went to a homeless shelter to give out food and supplies', 'event', 'The user and others went to a homeless shelter to give out food and supplies'],
    ['Recently, Anna and I were sitting by the sea, watching the sunset', 'event', 'The user and Anna were sitting by the sea, watching the sunset'],
    ["I'm prepping for my dance studio", 'fact', 'The user is prepping for their dance studio'],
    ['I used to go horseback riding with my dad when I was a kid', 'fact', 'The user used to go horseback riding with their dad'],
    ['I stay in shape by hitting the gym', 'fact', 'The user stays in shape by hitting the gym'],
    ["I've been into dancing since I was a kid", 'preference', 'The user has been into dancing'],
    ["I've got lots of kids' books", 'fact', "The user has lots of kids' books"],
    ["I'm planning a trip to the East Coast", 'fact', 'The user is planning a trip to the East Coast'],
    ["I'm looking to add more vegetables to my meals", 'plan', 'The user is looking to add more vegetables to their meals'],
    ["Guitar's mostly my thing", 'preference', "The user's favorite is Guitar"],
    // The English side of the Chinese rows above: a night, a weekday of last week, a weekend.
    ['I watched a movie last night', 'event', 'The user watched a movie last night (2025-03-11)'],
    ['I went to the hospital last Friday', 'event', 'The user went to the hospital last Friday (2025-03-07)'],
    ['I went swimming yesterday', 'event', 'The user went swimming yesterday (2025-03-11)'],
    // An adverb before the plan, the job before a comma, a comment after the favourite, the verb's number kept.
    ['I also plan to visit Vancouver', 'plan', 'The user plans to visit Vancouver'],
    ['As a writer, my laptop is like half of my lifeline', 'identity', 'The user is a writer'],
    ["I'm all about dramas and romcoms", 'preference', 'The user is a fan of dramas and romcoms'],
    ["Blue's my fave, it makes me feel relaxed", 'preference', "The user's favorite is Blue"],
    ['Video games give me tons of joy and excitement, so they keep me motivated', 'preference', 'Video games bring the user joy'],
    ['Cats make me calm', 'preference', 'Cats make the user calm'],
    ["I've been busy with writing projects and really going all out with it", 'event', 'The user has been busy with writing projects'],
    ['Just wanted to tell you that I adopted a puppy', 'fact', 'The user has a puppy'],
    ["Wanted to let you know that I'm running for office again", 'fact', 'The user is running for office again'],
    ['We love having movie marathons with our friends', 'preference', 'The user and their people love having movie marathons with their friends'],
    ['I got my hair cut short yesterday', 'event', 'The user got their hair cut short yesterday (2025-03-11)'],
    ['We have a golden retriever named Wangcai', 'fact', 'The user has a golden retriever named Wangcai'],
    ['Our family has two cats', 'fact', 'The user has two cats'],
  ])('%s → %s "%s"', (text, kind, content) => {
    expect(adds(text)).toContainEqual({ kind, content });
  });

  it('keeps "for when I…" in one clause: no memory ends on a dangling preposition', () => {
    expect(adds("I'm creating a library for when I have kids")).toEqual([{ kind: 'fact', content: 'The user is creating a library for when they have kids' }]);
    expect(adds('我在筹备一个给孩子的图书角')).toEqual([{ kind: 'fact', content: '用户在筹备一个给孩子的图书角' }]);
  });

  it.each(['I just visited this place', "I'm staying hopeful", "I'm living my true self", 'We played all night', "Don't forget to take care of yourself", 'I tried to call you', "I've got a question", "I'm heading there next month", 'I love escaping to that world', 'I got it', 'I made you a cake', 'Did you go hiking?', 'As a kid, it was hard', "This is my fave, thanks", 'Seeing you makes me happy, and so on', 'We love you', 'We love it here', 'We have a question', "I've been so busy with stuff", 'If I won the lottery I would buy a boat', "I'm going to try making it tonight"])(
    'remembers nothing from "%s"',
    (text) => {
      expect(adds(text)).toEqual([]);
    },
  );
});
