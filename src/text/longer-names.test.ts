import { describe, expect, it } from 'vitest';
import { continuesInto, longerNames, wordAt } from './longer-names.js';

describe('longerNames: the longer names a Chinese name begins, as the texts name someone', () => {
  it.each([
    ['用户在读刘强东的自传', '刘强东'],
    ['用户的同事叫刘强东。', '刘强东'],
    ['用户的同事叫刘强东', '刘强东'],
    ['刘强和刘强东是两个人', '刘强东'],
    ['刘强东说他要去美国', '刘强东'],
    ['我认识刘强华，', '刘强华'],
    ['刘强东创办了京东', '刘强东'],
    ['用户的同事叫刘强鑫。', '刘强鑫'],
    ['用户的同事名叫刘强淦', '刘强淦'],
    ['劉強東的自傳', '劉強東'],
  ])('"%s" names %s', (text, longer) => {
    expect(longerNames(longer.startsWith('劉') ? '劉強' : '刘强', [text])).toEqual([longer]);
  });

  it.each([
    // a character that stands after a name as a word of its own
    '刘强说他明天来',
    '刘强今天请用户吃饭',
    '刘强也喜欢打篮球',
    '刘强都三十岁了',
    '刘强在北京工作',
    '刘强是程序员',
    '刘强家在上海',
    '刘强的车是红色的',
    '刘强们都来了',
    '刘强买了一本书',
    '刘强打篮球的时候受伤了',
    // the character is part of the next word
    '刘强东西很多',
    // a character no name ends in: a verb ("刘强拍的照片" names no 刘强拍)
    '刘强养了一只猫',
    '这是刘强拍的照片',
    '刘强种的菜很好吃',
    '刘强松了一口气',
    '刘强拍，我剪辑',
    '我叫刘强拍一张合影',
  ])('"%s" names no longer name', (text) => {
    expect(longerNames('刘强', [text])).toEqual([]);
  });

  it('across texts: one text that names 刘强东 is enough, each run once', () => {
    expect(longerNames('刘强', ['刘强东创办了京东', '用户在读刘强东的自传', '我也读过刘强东的书', '刘强喜欢打篮球', '刘强和刘强华是兄弟'])).toEqual(['刘强东', '刘强华']);
  });

  it.each([
    ['Will', ['Willy is the user\'s dog.', 'The user\'s friend William, too']],
    ['Sam', ['Samantha is a nurse.']],
    ['刘强东', ['刘强东的自传']],
    ['', ['刘强东的自传']],
  ])('%s: none for a name in spaced script (a name is a word there), a Chinese name of the longest, or nothing', (name, texts) => {
    expect(longerNames(name, texts)).toEqual([]);
  });
});

describe('continuesInto: a mention is the beginning of a longer name', () => {
  it.each([
    ['刘强东创办了京东', 0, true],
    ['用户在读刘强东的自传', 4, true],
    ['刘强东说', 0, true],
    ['刘强和刘强东是两个人', 0, false],
    ['刘强和刘强东是两个人', 3, true],
    ['刘强东西很多', 0, false],
    ['刘强说', 0, false],
  ])('"%s" at %i → %s', (text, at, expected) => {
    expect(continuesInto(text, at, ['刘强东'])).toBe(expected);
  });

  it('no longer names: nothing continues', () => {
    expect(continuesInto('刘强东创办了京东', 0, [])).toBe(false);
  });
});

describe('wordAt', () => {
  it.each([
    ['用户的朋友叫小王', 6, 2, true],
    ['用户最喜欢的书是《小王子》', 9, 2, false],
    ['The user likes Will', 15, 4, true],
  ])('"%s" at %i (%i characters) → %s', (text, at, length, expected) => {
    expect(wordAt(text, at, length)).toBe(expected);
  });
});
