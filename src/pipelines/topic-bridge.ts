import type { Embedder } from '../embedders/embedder.js';
import { indexTerms } from '../text/segment.js';
import { holdsTerms } from '../text/topic-terms.js';

const HAN = /\p{Script=Han}/u;

/** How a topic is found in a text, built for the topic as said in the text's language. */
export type TopicTest = (topic: string) => (text: string) => boolean;

/** A topic as itself: every one of its words (however they end) in the text. */
export const holdsTopic: TopicTest = (topic) => {
  const words = indexTerms(topic).filter((w) => !HAN.test(w));
  return (text) => holdsTerms(words, new Set(indexTerms(text)));
};

/**
 * Which texts of the other language say a topic, through the embedder's bridge (`Embedder.bridge`):
 * a Chinese topic is glossed and tested in the texts without Chinese ("花生" finds "The user is
 * allergic to peanuts"), an English topic is tested in the glosses of the Chinese texts ("peanut
 * allergy" finds "用户对花生和芒果过敏"; with `someone`, only those that name them are glossed: "forget
 * my wife's birthday" finds "用户老婆的生日是5月5日"). Only across languages: two Chinese words that share
 * a gloss are not the same word. All false without a bridge (an embedder that reads both languages
 * itself: its vectors find the other language's texts).
 */
export async function acrossLanguages(embedder: Pick<Embedder, 'bridge'>, topic: string, texts: readonly string[], test: TopicTest = holdsTopic, someone?: RegExp): Promise<boolean[]> {
  if (!embedder.bridge || texts.length === 0) return texts.map(() => false);
  if (HAN.test(topic)) {
    const [gloss = ''] = await embedder.bridge([topic]);
    const says = test(gloss);
    return texts.map((t) => !HAN.test(t) && says(t));
  }
  const chinese = texts.flatMap((t, i) => (HAN.test(t) && (someone?.test(t) ?? true) ? [i] : []));
  const glosses = await embedder.bridge(chinese.map((i) => texts[i]!));
  const says = test(topic);
  const out = texts.map(() => false);
  chinese.forEach((i, j) => (out[i] = says(glosses[j] ?? '')));
  return out;
}
