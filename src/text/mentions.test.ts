import { describe, expect, it } from 'vitest';
import { mentionsOwn, mentionsTopic } from './mentions.js';

describe('mentionsTopic', () => {
  it.each([
    ['The user broke up with their ex, Sarah', 'ex', true],
    ['The user has a dentist appointment next week', 'ex', false],
    ['Alice is the user\'s sister', 'Al', false],
    ['The user\'s friend Al lives in Boston', 'al', true],
    ['The user moved to Tacoma.', 'tacoma', true],
    ['The user likes C++ and C#', 'C#', true],
    ['用户的前女友叫小美', '前女友', true],
    ['用户的前女友叫Sarah', 'sarah', true],
    ['用户喜欢猫', '前女友', false],
    ['用户的Alice是同事', 'al', false],
  ])('%s / %s → %s', (text, topic, expected) => {
    expect(mentionsTopic(text, topic)).toBe(expected);
  });
});

describe('mentionsOwn: the topic as the user\'s own, or nobody\'s in particular ("forget my birthday")', () => {
  it.each([
    ["The user's birthday is March 3", 'birthday'],
    ['my birthday is March 3', 'birthday'],
    ["My wife's birthday is May 5, my birthday is in March", 'birthday'],
    ['I am planning my birthday party for my friends', 'birthday'],
    ["The user's ex, Sarah, is a nurse", 'ex'],
    ['用户的生日是3月3日', '生日'],
    ['用户生日是3月3日', '生日'],
    ['我的生日是3月3号', '生日'],
    ['用户的前女友叫小美', '前女友'],
    ['用戶的生日是3月3日', '生日'],
    ["The user's birthday is March 3, same as his dad's", 'birthday'],
  ])('%s: the user\'s own %s', (text, topic) => {
    expect(mentionsOwn(text, topic)).toBe(true);
  });

  it.each([
    ["The user's wife's birthday is May 5", 'birthday'],
    ["Sarah's birthday is next week", 'birthday'],
    ["The user's mom's upcoming birthday", 'birthday'],
    ['the birthday of my wife is in May', 'birthday'],
    ["My sister's ex is Tom", 'ex'],
    ['用户妻子的生日是5月5日', '生日'],
    ['小美的生日是5月5日', '生日'],
    ['用户妈妈生日是5月5日', '生日'],
    ['他的生日是下周', '生日'],
    ['我朋友的前女友叫小丽', '前女友'],
    ['用戶妻子的生日是5月5日', '生日'],
    // someone else is who the clause is about
    ["The user's wife Anna has a birthday on May 5", 'birthday'],
    ["Anna, the user's wife, celebrates her birthday on May 5", 'birthday'],
    ['用户给妈妈过生日', '生日'],
    // what the mention is part of is for someone else
    ['The user is planning a birthday party for his dad', 'birthday'],
    ['I need a birthday gift for my wife', 'birthday'],
    ['我在给我爸准备生日派对', '生日'],
  ])('%s: someone else\'s %s', (text, topic) => {
    expect(mentionsOwn(text, topic)).toBe(false);
  });

  it('a text that does not mention the topic mentions no own one', () => {
    expect(mentionsOwn('The user likes cats', 'birthday')).toBe(false);
  });
});
