import { countTokens as count } from 'gpt-tokenizer';

/** Texts longer than this are counted afresh each time: keys stay small, and long texts are rare. */
const CACHED_CHARS = 2_000;
/** Counts kept; the oldest half is dropped when full. */
const CACHED_TEXTS = 20_000;
const cache = new Map<string, number>();

/**
 * Counts tokens with a real BPE tokenizer (o200k_base, the GPT-4o family), for prompt budgets.
 * Counts of short texts are kept: the context block counts the same memory lines and turns on
 * every query, and BPE encoding is most of what such a count costs.
 */
export function countTokens(text: string): number {
  if (!text.includes('\n')) return countLine(text);
  let n = 0;
  for (const part of text.split(LINE_START)) n += countLine(part);
  return n;
}

/**
 * Where a text can be cut into parts whose counts add up to the whole's: after a newline, before
 * a character that is neither whitespace nor "/". o200k's pre-tokenizer never joins across such a
 * point (no piece holds a newline and then a non-space, save punctuation's trailing `[\r\n/]*`,
 * hence the "/"), and BPE works within pieces. A prompt block is then counted line by line, each
 * line's count kept, instead of afresh on every build (tokens.test.ts checks the sums against the
 * tokenizer on random texts).
 */
const LINE_START = /(?<=\n)(?=[^\s/])/u;

function countLine(text: string): number {
  if (text.length > CACHED_CHARS) return count(text);
  const known = cache.get(text);
  if (known !== undefined) return known;
  const n = count(text);
  if (cache.size >= CACHED_TEXTS) {
    let drop = CACHED_TEXTS / 2;
    for (const key of cache.keys()) {
      if (drop-- <= 0) break;
      cache.delete(key);
    }
  }
  cache.set(text, n);
  return n;
}

/** Texts whose counts are kept (for tests). */
export const cachedTokenCounts = (): number => cache.size;
