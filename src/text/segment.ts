import { stemmer } from 'stemmer';
import { IRREGULAR_VERB_BASE } from './irregular-verbs.js';
import { cutAtBreaks } from './cut.js';
import { CHINESE_STOPWORDS, ENGLISH_STOPWORDS } from './stopwords.js';

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
/** A word of Chinese characters only. */
export const HAN_ONLY = /^\p{Script=Han}+$/u;
const WORDLIKE = /[\p{L}\p{N}]/u;

/**
 * Splits text into words without assuming spaces separate them: Intl.Segmenter's dictionary
 * handles Chinese, and Latin words come out as usual. Punctuation and spaces are dropped.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  // In pieces: ICU's dictionary segmentation of a long run of Chinese grows faster than its length
  // (32,000 characters took 0.3 s, 100,000 several seconds on the request's own thread).
  for (const piece of cutAtBreaks(text.normalize('NFKC'), SEGMENT_CHARS)) {
    for (const s of segmenter.segment(piece)) {
      if (s.isWordLike || WORDLIKE.test(s.segment)) out.push(s.segment);
    }
  }
  return out;
}

/** Characters segmented at a time: a text this long or shorter is segmented whole, as always. */
const SEGMENT_CHARS = 2_000;

/**
 * Index terms for keyword search: lowercase, English stop words dropped and Porter-stemmed,
 * Chinese stop words dropped, and Chinese words of 3+ characters also indexed as their
 * character bigrams, so "宠物用品" still meets a query for "宠物" however the dictionary split it.
 */
export function indexTerms(text: string): string[] {
  const terms: string[] = [];
  for (const raw of words(text)) {
    // Keep letters and digits only, so the FTS tokenizer and our own term counting agree.
    const w = raw.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
    if (w.length === 0) continue;
    if (HAN_ONLY.test(w)) {
      if (CHINESE_STOPWORDS.has(w)) continue;
      terms.push(w);
      if (w.length >= 3) for (let i = 0; i + 2 <= w.length; i++) terms.push(w.slice(i, i + 2));
    } else {
      if (ENGLISH_STOPWORDS.has(w)) continue;
      const stem = /^[a-z]+$/.test(w) ? stemmer(IRREGULAR_VERB_BASE.get(w) ?? w) : w;
      if (stem.length > 0) terms.push(stem);
    }
  }
  return terms;
}
