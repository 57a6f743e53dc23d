import { describe, expect, it } from 'vitest';
import { readForgetRequest } from './forget-request.js';

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
    ['把作业忘了吧', '作业'],
    ['I broke up with my ex. Please forget everything about her.', 'ex'],
    ['my girlfriend and I split up, forget about her', 'girlfriend'],
    ['Please delete my address from your memory', 'address'],
    ['forget I ever mentioned Sarah', 'Sarah'],
  ])('%s → %s', (text, topic) => {
    expect(readForgetRequest(text)).toEqual({ topic });
  });

  it.each([
    // forgetting as something that happened, a reminder, a wish, or no topic of its own
    '我忘了带钥匙',
    '别忘了周五还信用卡',
    '忘记带伞了',
    '算了，忘了吧',
    '我想忘掉他',
    '不用记了',
    '删掉这个文件',
    '忘掉刚才说的',
    'Forget it',
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
    '忘掉烦恼，开心一点！',
    '忘掉不开心的事吧',
    // every memory is "用户…" / "The user…": forgetting "the user" is forgetting everything
    'forget everything about the user',
    '忘掉关于用户的一切',
    'Forget about Sarah.',
    "forget about the party, let's talk about work",
    "forget the meeting, it's cancelled",
  ])('%s → no request', (text) => {
    expect(readForgetRequest(text)).toBeUndefined();
  });
});
