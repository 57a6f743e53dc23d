import { cutAtBreaks } from '../text/cut.js';

/**
 * A long text in the pieces an encoder is given, so that its cost has a bound. Universal Sentence
 * Encoder lite's time grew much faster than a text's length (16,000 Chinese characters took about
 * 16 s, one 200,000-character import held the embedder for minutes), and one text cannot share
 * the embedder's thread: every other user's query waited behind it. A text of at most
 * `PIECE_CHARS` is one piece, itself (its vector is what it always was); a longer one is cut at a
 * sentence or word end near every `PIECE_CHARS` (`cutAtBreaks`), and at most `MAX_PIECES` of the
 * pieces, spread from its start to its end, stand for it (their vectors are averaged).
 */
export const PIECE_CHARS = 1_200;
export const MAX_PIECES = 4;

export function textPieces(text: string): string[] {
  if (text.length <= PIECE_CHARS) return [text];
  const pieces = cutAtBreaks(text, PIECE_CHARS)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (pieces.length <= MAX_PIECES) return pieces;
  return Array.from({ length: MAX_PIECES }, (_, k) => pieces[Math.round((k * (pieces.length - 1)) / (MAX_PIECES - 1))]!);
}
