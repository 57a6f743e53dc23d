import type { WordLookup } from './compact-dictionary.js';

const HAN = /\p{Script=Han}/u;
const MAX_WORD = 6;

/**
 * Function words whose dictionary gloss misleads: CEDICT lists 在 as "exist" and 了 as "finish",
 * but in a sentence they are "at" and a particle. An empty gloss drops the word.
 */
export const FUNCTION_WORDS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    的: '', 地: '', 得: '', 了: '', 着: '', 过: '', 吗: '', 呢: '', 吧: '', 啊: '', 呀: '', 哦: '', 嗯: '',
    么: '', 嘛: '', 啦: '', 呗: '', 之: '', 把: '', 所: '',
    在: 'at', 对: 'to', 是: 'is', 很: 'very', 也: 'also', 都: 'all', 就: 'then', 还: 'still', 和: 'and',
    与: 'and', 跟: 'with', 从: 'from', 向: 'towards', 到: 'to', 给: 'give', 被: 'by', 会: 'will',
    要: 'want', 想: 'want', 能: 'can', 可以: 'can', 不: 'not', 没: 'not', 没有: 'not have', 有: 'have',
    这: 'this', 那: 'that', 这个: 'this', 那个: 'that', 个: '', 点: "o'clock", 上: 'on', 下: 'under',
    里: 'in', 打: 'play', 去: 'go', 来: 'come', 说: 'say', 做: 'do', 让: 'let', 为: 'for',
  }),
);

/**
 * Common content words whose CC-CEDICT pick misleads an English sentence encoder: a rare first
 * sense (年 "grain", 月 "moon", 日 "sun", 店 "inn", 带 "band", 钱 "coin"), a reading that is not
 * the everyday one (哪 "how", 第 "but"), a phrase where one word is meant (宠物 "house pet"), or a
 * gloss the encoder reads as another part of speech: 喜欢 "like" reads as the preposition, so
 * "user like cat" came out no nearer to questions about pets than to a request for Python code
 * (seed 000's own example; `bench/pet-questions.ts`, `bench/zh-recall.ts`).
 */
export const COMMON_WORDS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    喜欢: 'love', 宠物: 'pet', 年: 'year', 月: 'month', 日: 'day', 店: 'shop', 哪: 'where', 带: 'take', 钱: 'money', 第: '',
  }),
);

/** Turns Chinese text into English word glosses, leaving every non-Chinese part as it was. */
export type Glosser = (text: string) => string;

/**
 * Builds a glosser over a word -> gloss dictionary. Intl.Segmenter splits the text into words;
 * a word the dictionary lacks is split again by longest dictionary match, and a character with
 * no gloss at all is dropped (an English-only encoder would read it as unknown anyway).
 */
export function createGlosser(dict: WordLookup): Glosser {
  const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

  const lookup = (word: string): string | undefined => FUNCTION_WORDS.get(word) ?? COMMON_WORDS.get(word) ?? dict.get(word);

  function glossWord(word: string): string[] {
    const known = lookup(word);
    if (known !== undefined) return [known];
    const out: string[] = [];
    const chars = [...word];
    let i = 0;
    while (i < chars.length) {
      let matched = false;
      for (let len = Math.min(MAX_WORD, chars.length - i); len >= 1; len--) {
        const gloss = lookup(chars.slice(i, i + len).join(''));
        if (gloss !== undefined) {
          out.push(gloss);
          i += len;
          matched = true;
          break;
        }
      }
      if (!matched) i++;
    }
    return out;
  }

  return (text: string): string => {
    if (!HAN.test(text)) return text;
    const parts: string[] = [];
    for (const { segment } of segmenter.segment(text.normalize('NFKC'))) {
      if (HAN.test(segment)) parts.push(...glossWord(segment).filter((g) => g !== '').map((g) => ` ${g} `));
      else parts.push(segment);
    }
    return parts.join('').replace(/\s+/g, ' ').trim();
  };
}
