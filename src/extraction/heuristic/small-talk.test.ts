import { describe, expect, it } from 'vitest';
import { isSmallTalk, isSmallTalkBatch } from './small-talk.js';

describe('isSmallTalk', () => {
  it.each(['你好', '您好！', '谢谢', '谢谢啦~', '好的', '好的好的', '嗯嗯', '哈哈', '哈哈哈哈哈', '早上好', '晚安', '收到，谢谢！', '好的谢谢', '666', '哦哦知道了', '辛苦了'])(
    'Chinese small talk: %s',
    (text) => expect(isSmallTalk(text)).toBe(true),
  );

  it.each(['hi', 'Hello!', 'thanks!', 'Thank you so much', 'ok', 'OK cool', 'lol', 'hahaha', 'good night', 'Good morning :)', 'got it', 'no problem', 'sounds good', 'I see', "you're welcome"])(
    'English small talk: %s',
    (text) => expect(isSmallTalk(text)).toBe(true),
  );

  it.each(['👍', '😂😂', '❤️', '🙏🏻', '...', 'ok 👌', '好的👍'])('emoji and punctuation only: %s', (text) => expect(isSmallTalk(text)).toBe(true));

  it.each(['我喜欢猫', '谢谢，我明天要去东京', '你好，我叫李明', '好的，提醒我明天开会', '我决定用 Redis 了'])(
    'Chinese with content is not small talk: %s',
    (text) => expect(isSmallTalk(text)).toBe(false),
  );

  it.each(['I love cats', 'thanks, my name is Bob', 'ok remind me to call mom', 'hello, I live in Paris', 'Good morning, I moved to Berlin'])(
    'English with content is not small talk: %s',
    (text) => expect(isSmallTalk(text)).toBe(false),
  );
});

describe('isSmallTalkBatch', () => {
  const user = (content: string) => ({ role: 'user' as const, content });
  const assistant = (content: string) => ({ role: 'assistant' as const, content });

  it('is true when every user message is small talk', () => {
    expect(isSmallTalkBatch([user('你好'), user('谢谢'), user('ok'), user('哈哈')])).toBe(true);
  });

  it('ignores assistant messages, however much they say', () => {
    expect(isSmallTalkBatch([user('hi'), assistant('Hello! I remember you love cats and live in Paris.'), user('thanks!')])).toBe(true);
  });

  it('is false when one user message says something', () => {
    expect(isSmallTalkBatch([user('你好'), user('我叫李明')])).toBe(false);
    expect(isSmallTalkBatch([user('hi'), user('I love cats')])).toBe(false);
  });
});
