import { describe, expect, it } from 'vitest';
import { asksForSuggestions } from './suggestion-request.js';

describe('asksForSuggestions', () => {
  it.each([
    'Any weekend ideas for me?',
    'Can you recommend a book?',
    'Suggest a gift for my sister',
    'Any suggestions for dinner?',
    'What should I cook tonight?',
    'Where could we go this weekend?',
    'Help me plan a trip',
    'Plan a weekend trip for me',
    'I need ideas for a birthday party',
    'Any ideas for tonight?',
    'Recommend some pet supplies',
  ])('an English request for suggestions: %s', (text) => expect(asksForSuggestions(text)).toBe(true));

  it.each(['给我推荐一个礼物', '周末有什么建议吗？', '推荐一些宠物用品', '我该看什么电影', '周末我们可以去哪儿玩？', '晚饭吃什么好呢', '帮我安排一下周末', '送朋友什么礼物好？', '出个主意吧'])(
    'a Chinese request for suggestions: %s',
    (text) => expect(asksForSuggestions(text)).toBe(true),
  );

  it.each([
    'What did I say about hiking?',
    'When did I go to the Alps?',
    'Did John recommend a book?',
    'What did you suggest last time?',
    'The movie you recommended was great',
    'I love hiking in the Alps',
    '',
    '你推荐过哪本书？',
    '上次你给我的建议很有用',
    '我昨天说了什么？',
    '我养了一只猫',
    '我什么时候去的日本？',
    '我们哪天见的面？',
    '我们去过哪些地方？',
    '他给了什么建议？',
    "What was grandma's gift to Caroline?",
    'Where did Maria get the idea for the castle shadow box in her home?',
    'What does Joanna recommend to make a living room comfy like hers?',
    'What recommendations has Nate received from Joanna?',
  ])('not a request for suggestions: %s', (text) => expect(asksForSuggestions(text)).toBe(false));
});
