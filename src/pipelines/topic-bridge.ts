import type { Embedder } from '../embedders/embedder.js';
import { indexTerms } from '../text/segment.js';
import { holdsTerms } from '../text/topic-terms.js';

const HAN = /\p{Script=Han}/u;

/**
 * Which texts of the other language hold every word of a topic, through the embedder's bridge
 * (`Embedder.bridge`): "花生" finds "The user is allergic to peanuts", "peanut allergy" finds
 * "用户对花生和芒果过敏". Only across languages (a Chinese topic's glosses in texts without Chinese,
 * an English topic in the glosses of Chinese texts): two Chinese words that share a gloss are not
 * the same word. All false without a bridge (an embedder that reads both languages itself: its
 * vectors find the other language's texts).
 */
export async function acrossLanguages(embedder: Pick<Embedder, 'bridge'>, topic: string, texts: readonly string[]): Promise<boolean[]> {
  if (!embedder.bridge || texts.length === 0) return texts.map(() => false);
  if (HAN.test(topic)) {
    const [gloss] = await embedder.bridge([topic]);
    const words = indexTerms(gloss ?? '').filter((w) => !HAN.test(w));
    return texts.map((t) => !HAN.test(t) && holdsTerms(words, new Set(indexTerms(t))));
  }
  const terms = indexTerms(topic);
  const chinese = texts.flatMap((t, i) => (HAN.test(t) ? [i] : []));
  const glosses = await embedder.bridge(chinese.map((i) => texts[i]!));
  const out = texts.map(() => false);
  chinese.forEach((i, j) => (out[i] = holdsTerms(terms, new Set(indexTerms(glosses[j] ?? '')))));
  return out;
}

/**
 * Which texts of the other language say a topic as someone's (`matches` builds the test for a topic
 * in the texts' language), through the bridge: "forget my wife's birthday" finds "用户老婆的生日是5月5日"
 * by its glosses ("user wife birthday…"), "忘掉我老婆的生日" finds "The user's wife's birthday is May 5"
 * by the topic's ("birthday"). Only texts that name them (`names`: their words and names) are glossed.
 */
export async function theirsAcrossLanguages(embedder: Pick<Embedder, 'bridge'>, topic: string, texts: readonly string[], names: RegExp, matches: (topic: string) => (text: string) => boolean): Promise<boolean[]> {
  if (!embedder.bridge || texts.length === 0) return texts.map(() => false);
  if (HAN.test(topic)) {
    const [gloss] = await embedder.bridge([topic]);
    const theirs = matches(gloss ?? '');
    return texts.map((t) => gloss !== undefined && gloss !== '' && !HAN.test(gloss) && !HAN.test(t) && theirs(t));
  }
  const chinese = texts.flatMap((t, i) => (HAN.test(t) && names.test(t) ? [i] : []));
  const glosses = await embedder.bridge(chinese.map((i) => texts[i]!));
  const theirs = matches(topic);
  const out = texts.map(() => false);
  chinese.forEach((i, j) => (out[i] = theirs(glosses[j] ?? '')));
  return out;
}
