import { stemmer } from 'stemmer';
import { HAN_ONLY, words } from './segment.js';
import { CHINESE_STOPWORDS, ENGLISH_STOPWORDS } from './stopwords.js';

const LATIN_ONLY = /^[\p{Script=Latin}]+$/u;

/**
 * What a conversation asks with or is polite with, never what it is about: question words and the
 * words that frame a question, and pleasantries.
 */
const NOT_TOPICS = new Set([
  ...['什么', '什么样', '什么时候', '时候', '哪里', '哪儿', '哪个', '哪些', '怎么', '怎么样', '怎样', '为什么', '多少', '几个', '是不是', '有没有', '知道', '告诉', '一下', '请问', '最好', '应该'],
  ...['谢谢', '好的', '你好', '再见', '不错', '可以'],
  ...['thanks', 'thank', 'please', 'hello', 'bye', 'sure', 'great', 'nice', 'good', 'know', 'tell'],
]);

/**
 * The words a text is about, most frequent first (ties: the first said first), at most `limit`:
 * whole words as written, unlike index terms (no character bigrams such as 么时 cut out of
 * 什么时候, no Porter stems such as "us" for "use"). Stop words, question words, pleasantries and
 * words of one character (Chinese) or under three letters (Latin) are left out; English inflections count as one
 * word ("cat", "cats") shown as first written.
 */
export function topicWords(texts: readonly string[], limit: number): string[] {
  const found = new Map<string, { shown: string; count: number; first: number }>();
  let position = 0;
  for (const text of texts) {
    for (const word of words(text)) {
      const lower = word.toLowerCase();
      let key: string;
      if (HAN_ONLY.test(word)) {
        // 我在 (Intl's word in 我在学日语) is two stop words, not a topic.
        if (word.length < 2 || CHINESE_STOPWORDS.has(word) || NOT_TOPICS.has(word) || [...word].every((c) => CHINESE_STOPWORDS.has(c))) continue;
        key = word;
      } else if (LATIN_ONLY.test(word)) {
        if (word.length < 3 || ENGLISH_STOPWORDS.has(lower) || NOT_TOPICS.has(lower)) continue;
        key = stemmer(lower);
      } else continue;
      const seen = found.get(key);
      if (seen) seen.count++;
      else found.set(key, { shown: word, count: 1, first: position++ });
    }
  }
  return [...found.values()]
    .sort((a, b) => b.count - a.count || a.first - b.first)
    .slice(0, limit)
    .map((t) => t.shown);
}
