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
 * Builds a glosser over a word -> gloss dictionary. Intl.Segmenter finds the runs of Chinese and
 * proposes word boundaries; each run is then split into dictionary words (`splitRun`), and a
 * character with no gloss at all is dropped (an English-only encoder would read it as unknown
 * anyway).
 */
export function createGlosser(dict: WordLookup): Glosser {
  const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

  const lookup = (word: string): string | undefined => FUNCTION_WORDS.get(word) ?? COMMON_WORDS.get(word) ?? dict.get(word);

  const glossRun = (chars: readonly string[], cuts: ReadonlySet<number>): string[] =>
    splitRun(chars, cuts, (word) => lookup(word) !== undefined).flatMap((word) => {
      const gloss = lookup(word);
      return gloss === undefined || gloss === '' ? [] : [gloss];
    });

  return (text: string): string => {
    if (!HAN.test(text)) return text;
    const parts: string[] = [];
    let run: string[] = [];
    const cuts = new Set<number>();
    const flush = (): void => {
      if (run.length > 0) parts.push(...glossRun(run, cuts).map((g) => ` ${g} `));
      run = [];
      cuts.clear();
    };
    for (const { segment } of segmenter.segment(text.normalize('NFKC'))) {
      if (!HAN.test(segment)) {
        flush();
        parts.push(segment);
        continue;
      }
      run.push(...segment);
      cuts.add(run.length);
    }
    flush();
    return parts.join('').replace(/\s+/g, ' ').trim();
  };
}

/**
 * Splits a run of Chinese characters into words the dictionary knows: the fewest characters left
 * without a gloss, then the fewest words, then the most of Intl.Segmenter's boundaries kept (`cuts`,
 * positions after a character). Intl.Segmenter's own dictionary is not CC-CEDICT's: it split 程序员
 * "programmer" into 程序 "procedures" and 员 "member", and 素食者 "vegetarian" into 素食 and 者
 * "one who"; where both splits have as many words, its boundaries decide (研究 / 生命, not 研究生 / 命).
 */
export function splitRun(chars: readonly string[], cuts: ReadonlySet<number>, known: (word: string) => boolean): string[] {
  const n = chars.length;
  // best[i]: the best split of the first i characters, as [unknown characters, words, boundaries not Intl's], and where its last word starts.
  const best: Array<{ cost: [number, number, number]; from: number } | undefined> = [{ cost: [0, 0, 0], from: -1 }];
  for (let i = 0; i < n; i++) {
    const here = best[i];
    if (!here) continue;
    for (let len = 1; len <= Math.min(MAX_WORD, n - i); len++) {
      const word = chars.slice(i, i + len).join('');
      const isWord = known(word);
      if (!isWord && len > 1) continue;
      const cost: [number, number, number] = [here.cost[0] + (isWord ? 0 : 1), here.cost[1] + 1, here.cost[2] + (cuts.has(i + len) ? 0 : 1)];
      const there = best[i + len];
      if (!there || lexLess(cost, there.cost)) best[i + len] = { cost, from: i };
    }
  }
  const words: string[] = [];
  for (let end = n; end > 0; end = best[end]!.from) words.push(chars.slice(best[end]!.from, end).join(''));
  return words.reverse();
}

const lexLess = (a: readonly number[], b: readonly number[]): boolean => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
};
