import { describe, it, expect } from 'vitest';
import { loadCedict } from './cedict.js';
import { createGlosser, splitRun } from './chinese-gloss.js';

const dict = new Map(
  Object.entries({ 我: 'I', 喜欢: 'like', 猫: 'cat', 花生: 'peanut', 过敏: 'allergic', 用户: 'user', 宠物: 'pet', 店: 'shop' }),
);
const gloss = createGlosser(dict);
/** Over the whole of CC-CEDICT, loaded once for the tests that need it (about 1.5 s). */
let cedict: ReturnType<typeof createGlosser> | undefined;
const real = (text: string): string => (cedict ??= createGlosser(loadCedict()))(text);

describe('createGlosser', () => {
  it('glosses Chinese word by word', () => {
    expect(gloss('我喜欢猫')).toBe('I love cat');
    expect(gloss('用户对花生过敏。')).toBe('user to peanut allergic 。');
  });

  it('leaves English untouched, including in mixed text', () => {
    expect(gloss('I love cats, really.')).toBe('I love cats, really.');
    expect(gloss('我喜欢 Python')).toBe('I love Python');
  });

  it('splits words the dictionary lacks by longest match, and drops unknown characters and particles', () => {
    expect(gloss('宠物店')).toBe('pet shop');
    expect(gloss('我的猫了')).toBe('I cat');
    expect(gloss('龘')).toBe('');
  });

  it('gives common words their everyday sense over the dictionary pick', () => {
    // CC-CEDICT alone: "user like cat", "house pet inn at where?", "weekend can band house pet go how play".
    expect(real('用户喜欢猫')).toBe('user love cat');
    expect(real('宠物店在哪里')).toBe('pet shop at where?');
    expect(real('周末能带宠物去哪玩')).toBe('weekend can take pet go where play');
    expect(real('今年第一次去日本')).toBe('this year the first time go Japan');
  });

  it('splits a run into the dictionary’s words, across Intl.Segmenter’s boundaries where that takes fewer words', () => {
    // Intl.Segmenter: 程序 / 员 ("procedures member"), 素食 / 者 ("vegetarian food one who ...").
    expect(real('用户在一家银行做程序员')).toContain('programmer');
    expect(real('用户是素食者')).toBe('user is vegetarian');
    expect(real('用户正在学日语')).toBe('user be currently learn Japanese language');
    expect(real('用户喜欢猫 and dogs')).toBe('user love cat and dogs');
  });
});

describe('splitRun', () => {
  const words = new Set(['研究', '研究生', '生命', '命', '起源', '程序', '程序员', '员', '我', '猫']);
  const known = (w: string): boolean => words.has(w);
  const split = (text: string, cuts: number[]): string[] => splitRun([...text], new Set(cuts), known);

  it('takes the fewest words, whatever Intl.Segmenter proposed', () => {
    expect(split('做程序员', [1, 3, 4])).toEqual(['做', '程序员']);
  });

  it('keeps Intl.Segmenter’s boundaries between splits of as many words', () => {
    expect(split('研究生命', [2, 4])).toEqual(['研究', '生命']);
    expect(split('研究生命', [3, 4])).toEqual(['研究生', '命']);
  });

  it('leaves characters it cannot place as single characters, as few as it can', () => {
    expect(split('我龘猫', [1, 2, 3])).toEqual(['我', '龘', '猫']);
    expect(split('', [])).toEqual([]);
  });
});

