import { describe, expect, it } from 'vitest';
import { forgetAliases } from './forget-aliases.js';
import { readForgetRequest } from './forget-request.js';

/** The request as read, without whether the topic was the user's own (tested on its own below). */
function topicRead(text: string): ReturnType<typeof readForgetRequest> {
  const read = readForgetRequest(text);
  if (!read) return read;
  const { own: _own, ...rest } = read;
  return rest;
}

describe('readForgetRequest: a user asking in conversation that a topic be forgotten', () => {
  it.each([
    ['忘掉我前女友的事', '前女友'],
    ['把刘强的事都忘了吧', '刘强'],
    ['别记住我前女友的事', '前女友'],
    ['请忘记我跟你说过的关于前女友的一切', '前女友'],
    ['忘记我前女友吧', '前女友'],
    ['删除关于我旧工作的记忆', '旧工作'],
    ['好的谢谢。另外，忘掉我前女友的事。', '前女友'],
    ['你把我前男友刘强的事忘了吧', '前男友刘强'],
    ['forget what I told you about my ex', 'ex'],
    ['please don\'t remember anything about sarah', 'sarah'],
    ['can you forget my ex, please?', 'ex'],
    ['delete everything you know about my old job', 'old job'],
    ['Don’t save anything about my health', 'health'],
    ['thanks! also, forget what I said about my divorce', 'divorce'],
    ['我不想再提起前女友了，把她的事从你的记忆里删了吧', '前女友'],
    ['我和前男友分手了。忘掉他吧', '前男友'],
    ['你能不能忘了我前女友的事', '前女友'],
    ['从现在起别再记住我的住址', '住址'],
    ['I broke up with my ex. Please forget everything about her.', 'ex'],
    ['my girlfriend and I split up, forget about her', 'girlfriend'],
    ['Please delete my address from your memory', 'address'],
    ['forget I ever mentioned Sarah', 'Sarah'],
    ['以后别再提了，忘掉我喜欢猫的事吧', '喜欢猫'],
    ['请删除关于我前女友的所有记忆', '前女友'],
    ['清除所有关于小美的记录', '小美'],
    ['帮我把住址信息清除掉', '住址'],
    ['把我住址那条记忆删了', '住址'],
    ['删掉你记得的关于我工作的事', '工作'],
    ['把我的手机号码删了', '手机号码'],
    ['can you forget my ex?', 'ex'],
    ['Please forget my address', 'address'],
    ['请忘记我的地址', '地址'],
    ['Delete all memories about Tom', 'Tom'],
    ['Sarah and I broke up. Forget about her.', 'Sarah'],
    ['我和小美分手了，把她忘了吧', '小美'],
    ['忘记刘强这个人', '刘强'],
    ['能把我前女友的事情忘掉吗', '前女友'],
    ['Pretend I never told you about Sarah', 'Sarah'],
    // taking back what was told, of a thing named as such
    ['刘强的事你就当没听过吧', '刘强'],
    ['刘强的事，你就当没听过吧', '刘强'],
    ['就当我没说过刘强的事', '刘强'],
    ['当我没说过刘强这个人', '刘强'],
    // 他/她 for someone named by surname and title
    ['我老板王总被开除了，忘了他吧', '王总'],
    ['李老师调走了，把她的事都忘了吧', '李老师'],
    // 记得, and "I don't want you to remember"
    ['请不要再记得我前男友了', '前男友'],
    ['以后不要再记得我的生日了', '生日'],
    ['我不想让你记住我的住址', '住址'],
    ['我不希望你再记着我前女友的事', '前女友'],
    ['把我的手机号从记忆里删掉', '手机号'],
    ['把我的银行卡号从记忆里删掉', '银行卡号'],
    // the user's own data
    ['Forget where I live', 'where I live'],
    ['forget my address', 'address'],
    ["I don't want you to remember my address anymore", 'address'],
    ['I no longer want you to remember my address', 'address'],
    ["Don't remember my phone number anymore", 'phone number'],
    ["I don't want you to remember anything about my divorce", 'divorce'],
    ['erase everything you know about my ex-husband', 'ex-husband'],
    ['Can you stop remembering stuff about my ex-wife?', 'ex-wife'],
    ['Please wipe my ex from your memory', 'ex'],
    // phrasings a tester found missed
    ['忘记掉刘强吧', '刘强'],
    ['前女友的事忘了吧', '前女友'],
    ['刘强的事都删掉', '刘强'],
    ['前女友的事就别记着了', '前女友'],
    ['小美的事就不要记着了', '小美'],
    ['Erase my ex from your memory please', 'ex'],
    ["I'd like you to forget my ex", 'ex'],
    ['delete my number', 'number'],
    ['Delete my phone number please', 'phone number'],
    ['erase my address', 'address'],
    // traditional characters: read as simplified, the topic as written
    ['別記住我前女友的事', '前女友'],
    ['刪掉關於我前女友的記憶', '前女友'],
    ['忘記掉劉強吧', '劉強'],
  ])('%s → %s', (text, topic) => {
    expect(topicRead(text)).toEqual({ topic });
  });

  // A bare name that is the whole message, as written ("sarah" finds "Sarah": topics match ignoring
  // case); marked, since "forget X" is also "never mind X": acted on only for someone remembered.
  it.each([
    ['forget sarah', 'sarah'],
    ['Forget Sarah.', 'Sarah'],
    ['please forget Sarah', 'Sarah'],
    ['Forget Sarah, please.', 'Sarah'],
    // in capitals, read as its writer's lowercase
    ['FORGET SARAH', 'sarah'],
  ])('%s → %s (a bare name)', (text, topic) => {
    expect(readForgetRequest(text)).toEqual({ topic, bareName: true });
  });

  it.each([
    ['忘掉我的生日', '生日', true],
    ['忘掉我前女友的事', '前女友', true],
    ['别记住我的手机号', '手机号', true],
    ['把刘强的事都忘了吧', '刘强', false],
    ['请忘记我跟你说过的关于前女友的一切', '前女友', false],
    ['我和前男友分手了。忘掉他吧', '前男友', false],
    ['forget my birthday', 'birthday', true],
    ['Please forget everything about my ex', 'ex', true],
    ["Don't remember my phone number anymore", 'phone number', true],
    ['forget what I told you about the party', 'party', false],
    ['My ex and I split up, forget about him', 'ex', false],
  ])('%s → %s, the user\'s own: %s', (text, topic, own) => {
    const read = readForgetRequest(text);
    expect(read?.topic).toBe(topic);
    expect(read?.own === true).toBe(own);
  });

  // Someone else's thing: only the topic as theirs is forgotten (`of`), not the user's own.
  it.each([
    ["forget my wife's birthday", { topic: 'birthday', of: 'wife' }],
    ["Forget my wife’s birthday please", { topic: 'birthday', of: 'wife' }],
    ["delete my mom's phone number", { topic: 'phone number', of: 'mom' }],
    ["forget what I told you about my wife's birthday", { topic: 'birthday', of: 'wife' }],
    ["don't remember my ex's number", { topic: 'number', of: 'ex' }],
    ["forget my mom's birthday and her address", { topic: 'birthday', alsoTopics: ['address'], of: 'mom' }],
    ["My wife's birthday is May 5. Forget my wife's birthday.", { topic: 'birthday', of: 'wife' }],
    ['忘掉我老婆的生日', { topic: '生日', of: '老婆' }],
    ['忘掉我老婆生日吧', { topic: '生日', of: '老婆' }],
    ['删掉我妈的电话', { topic: '电话', of: '妈' }],
    ['别记住我女儿的学校', { topic: '学校', of: '女儿' }],
    ['把我老婆的生日忘了吧', { topic: '生日', of: '老婆' }],
    ['忘掉我老婆的生日和她的电话', { topic: '生日', alsoTopics: ['电话'], of: '老婆' }],
  ])("%s → someone else's thing", (text, expected) => {
    expect(readForgetRequest(text)).toEqual(expected);
  });

  it.each([
    // someone named by kin alone, or by kin and name, is still the person ("我前男友刘强的事": 刘强)
    ['忘掉我老婆的事', { topic: '老婆', own: true }],
    ['刪掉關於我前女友的記憶', { topic: '前女友', own: true }],
  ])('%s → the person, not a thing of theirs', (text, expected) => {
    expect(readForgetRequest(text)).toMatchObject(expected);
  });

  it.each([
    // forgetting as something that happened, a reminder, a wish, or no topic of its own
    '我忘了我老婆的生日',
    '忘了我老婆的生日',
    '别忘了我老婆的生日',
    '忘掉我老婆的话',
    "I always forget my wife's birthday",
    "don't forget my wife's birthday",
    "forget my wife's cooking",
    '我忘了带钥匙',
    '别忘了周五还信用卡',
    '忘记带伞了',
    '算了，忘了吧',
    '我想忘掉他',
    '不用记了',
    '删掉这个文件',
    '忘掉刚才说的',
    'Forget it',
    // letting something go, not naming someone (a tester's findings, session 27)
    '忘了昨天吧',
    '算了，忘了爬山吧',
    '忘了火锅吧',
    '忘掉上海吧',
    '忘了今晚的约会吧',
    '忘掉失恋的痛苦吧',
    // someone else's (the possessor is not who 他 / him is, nor is the one possessed)
    '我妹妹的男朋友刘强劈腿了，忘掉他吧',
    '我哥哥的前女友，忘掉她吧',
    '我爸的朋友张叔叔去世了，忘了他吧',
    '我妈的意思是，忘了他吧',
    "My sister's boyfriend cheated on her. Forget about him.",
    "My dad's old coworker was rude to me, forget about him",
    // nothing in particular, a thing left somewhere, "for now"
    'stop remembering things',
    'stop storing my data',
    'forget my ex for now',
    'forget my phone at home',
    'forget everything',
    'forget about it',
    'I always forget to call mom',
    "don't forget the milk",
    'forget to buy milk',
    "I don't want you to forget my birthday",
    "don't remember the name of that place",
    "I don't remember anything about it",
    // "把作业忘了" is the user forgetting their homework; a pronoun no one was named for before
    '把作业忘了',
    '我把钥匙忘了',
    '忘掉他吧',
    'forget about her',
    // "never mind": forgetting what was told is said so, or is about someone of the past
    '忘掉那个会吧，取消了',
    // h6's findings: a correction, "let it go", deleting an app, a reproach, a question, a condition
    "Forget what I told you about the party, it's moved to Sunday at 7pm",
    '忘掉我之前说的住址，我搬家了，现在住在杭州西湖区',
    '把吉他的事忘了吧，我改学钢琴了',
    '我搬到杭州了。另外，忘掉我前女友的事吧。',
    'Forget what I told you earlier, the party is on Sunday not Saturday',
    '忘掉工作吧，周末就该好好玩',
    '忘掉减肥吧，今天放开吃',
    '别记着减肥了，过年嘛',
    '把抖音删了，我要专心学习',
    '把照片删了吧',
    '把刘强从群里删了',
    '你忘了刘强吧，他是我大学同学啊',
    '忘掉前女友最好的办法是什么',
    'How do I forget my ex?',
    "Don't remember anything about the surprise party if Anna asks you!",
    'Delete everything about Sarah from my phone',
    'Just forget everything about the party, it\'s cancelled',
    '忘掉烦恼，开心一点！',
    '忘掉不开心的事吧',
    // every memory is "用户…" / "The user…": forgetting "the user" is forgetting everything
    'forget everything about the user',
    '忘掉关于用户的一切',
    'Forget about Sarah.',
    "forget about the party, let's talk about work",
    "forget the meeting, it's cancelled",
    // a bare name asks only as the whole message, written as a name, and no "never mind" word is one
    "Forget Sarah, she's not coming anyway",
    "Forget Sarah. It's too painful.",
    'Forget Sarah?',
    'Forget sarah',
    'Forget the meeting',
    'forget it',
    'Forget Monday.',
    'forget lunch',
    'forget mom',
    'forget topic',
    'Forget The Beatles',
    // taking back the last words, not forgetting a topic ("forget what I said" read "I said")
    'Forget what I said',
    'forget I said anything',
    '忘了我说过的话吧',
    '忘记我说过的事吧',
    '就当我没说过',
    '就当我没说过这句话',
    '你就当没听过吧',
    // keeping a secret, a question, or a clause that is about something else
    '刘强的事你就当不知道吧',
    '刘强的事你听说了吗',
    '刘强的事你就当没听过吧，反正他也不在乎',
    // someone named by title, but not asked to be forgotten: a reminder, a reproach asked, advice to ignore
    '我都忘了王总是谁了',
    '王总说忘了这件事吧',
    '王总被开除了，你别忘了他',
    '我老板王总被开除了，你忘了他吧？',
    '张医生说我要少吃糖，忘了他吧',
    '我老板总是骂我，忘了他吧',
    // remembering asked about, wished for, or an errand; data that is not said to be the user's own
    '你还记得我的住址吗',
    '你不记得我的住址了吗',
    '不用记得带伞',
    "don't forget my address when you ship it",
    "I don't want you to forget my address",
    'Do you remember my address?',
    'Forget where I live?',
    "I don't want you to keep asking me",
    "I don't want you to remember this conversation",
    "don't remember my name",
    '帮我把前女友的照片删了',
    // a time is no topic (the word would erase every turn that says it, not what was said then;
    // what was said at a time is asked otherwise: see forget-when.test.ts)
    '忘掉昨天的事吧',
    '把昨天的事忘了吧',
    '昨天的事就别记着了',
    '忘掉上周的事吧',
    'delete everything about last night',
    "don't remember anything about today",
    // the thing first: 忘了 alone may say the user forgot it; a feeling let go; a pronoun
    '刘强的事忘了',
    '工作的事就别记着了',
    '考试的事都忘了吧',
    '这件事别记着了',
    '前女友的事你还记得吗',
    // "delete my number" only as a whole request; the writer's own forgetting in capitals
    'delete my number from the group chat',
    'remove my number from the list',
    'I FORGOT MY KEYS',
    'FORGET IT',
    'FORGET THE MEETING',
    '我忘記帶傘了',
    '別忘了明天開會',
  ])('%s → no request', (text) => {
    expect(readForgetRequest(text)).toBeUndefined();
  });

  it.each(['Forget where I live', "Don't remember my phone number anymore", "I don't want you to remember my address anymore", '把我的手机号从记忆里删掉', '我不想让你记住我的住址'])(
    '%s → a topic the address and phone aliases know (the memories say "the user lives at", "用户的手机号")',
    (text) => {
      expect(forgetAliases(readForgetRequest(text)?.topic ?? '')).not.toEqual([]);
    },
  );
});
