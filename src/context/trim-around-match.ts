import { decode, encode } from 'gpt-tokenizer';
import { indexTerms } from '../text/segment.js';
import { countTokens } from '../text/tokens.js';

const sentences = new Intl.Segmenter('zh', { granularity: 'sentence' });

/** Cuts text to at most `tokens` tokens from its start, marking the cut. */
export function trimToTokens(text: string, tokens: number): string {
  const ids = encode(text);
  if (ids.length <= tokens) return text;
  if (tokens <= 1) return '…';
  return `${decode(ids.slice(0, tokens - 1)).replace(/\uFFFD+$/u, '').trimEnd()}…`;
}

/**
 * Cuts a long turn to at most `tokens` tokens around the sentence that shares the most index terms
 * with the query, instead of keeping only its start: the detail a question asks about ("what did
 * she paint") often sits in the middle of a long turn. Sentences next to it are added, nearest
 * first, while they fit; cuts are marked with "…". Text that fits, or that shares no term with the
 * query, is cut from its start as before.
 */
export function trimAroundMatch(text: string, query: string, tokens: number): string {
  if (countTokens(text) <= tokens) return text;
  const parts = [...sentences.segment(text)].map((s) => s.segment).filter((s) => s.trim().length > 0);
  const wanted = new Set(indexTerms(query));
  const overlap = parts.map((s) => new Set(indexTerms(s).filter((t) => wanted.has(t))).size);
  const best = overlap.indexOf(Math.max(...overlap));
  if (parts.length < 2 || overlap[best]! === 0 || best === 0) return trimToTokens(text, tokens);
  // Room for the two cut marks.
  let left = tokens - 2 - countTokens(parts[best]!);
  if (left < 0) return `…${trimToTokens(parts[best]!.trimStart(), tokens - 1)}`;
  let from = best;
  let to = best;
  for (let grew = true; grew; ) {
    grew = false;
    for (const i of [to + 1, from - 1]) {
      if (i < 0 || i >= parts.length) continue;
      const cost = countTokens(parts[i]!);
      if (cost > left) continue;
      left -= cost;
      if (i > to) to = i;
      else from = i;
      grew = true;
      break;
    }
  }
  const body = parts.slice(from, to + 1).join('').trim();
  const cut = `${from > 0 ? '…' : ''}${body}${to < parts.length - 1 ? '…' : ''}`;
  // Sentence counts can be off by a token where sentences meet.
  return countTokens(cut) <= tokens ? cut : trimToTokens(cut, tokens);
}
