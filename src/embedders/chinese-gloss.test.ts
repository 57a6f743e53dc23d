import { describe, it, expect } from 'vitest';
import { loadCedict } from './cedict.js';
import { createGlosser } from './chinese-gloss.js';

const dict = new Map(
  Object.entries({ 我: 'I', 喜欢: 'like', 猫: 'cat', 花生: 'peanut', 过敏: 'allergic', 用户: 'user', 宠物: 'pet', 店: 'shop' }),
);
const gloss = createGlosser(dict);

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
    const real = createGlosser(loadCedict());
    // CC-CEDICT alone: "user like cat", "house pet inn at where?", "weekend can band house pet go how play".
    expect(real('用户喜欢猫')).toBe('user love cat');
    expect(real('宠物店在哪里')).toBe('pet shop at where?');
    expect(real('周末能带宠物去哪玩')).toBe('weekend can take pet go where play');
    expect(real('今年第一次去日本')).toBe('this year the first time go Japan');
  });
});
