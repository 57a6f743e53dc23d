/**
 * A long text in the pieces an encoder is given, so that its cost has a bound. Universal Sentence
 * Encoder lite's time grew much faster than a text's length (16,000 Chinese characters took about
 * 16 s, one 200,000-character import held the embedder for minutes), and one text cannot share
 * the embedder's thread: every other user's query waited behind it. A text of at most
 * `PIECE_CHARS` is one piece, itself (its vector is what it always was); a longer one is cut at a
 * sentence or word end near every `PIECE_CHARS`, and at most `MAX_PIECES` of the pieces, spread
 * from its start to its end, stand for it (their vectors are averaged).
 */
export const PIECE_CHARS = 1_200;
export const MAX_PIECES = 4;

/** Where a piece ends best: after a sentence's or a clause's mark; else at a space. */
const SENTENCE_END = /[。！？!?.;；\n]/u;
const SPACE = /\s/u;

export function textPieces(text: string): string[] {
  if (text.length <= PIECE_CHARS) return [text];
  const pieces: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + PIECE_CHARS);
    if (end < text.length) {
      // Back to the last sentence end in the piece's final third, else its last space; a hard cut if neither.
      const floor = start + Math.floor((PIECE_CHARS * 2) / 3);
      end = lastBreak(text, floor, end, SENTENCE_END) ?? lastBreak(text, floor, end, SPACE) ?? end;
      // Never between the two halves of a surrogate pair.
      if (/[\uD800-\uDBFF]/u.test(text[end - 1]!)) end--;
    }
    const piece = text.slice(start, end).trim();
    if (piece.length > 0) pieces.push(piece);
    start = end;
  }
  if (pieces.length <= MAX_PIECES) return pieces;
  return Array.from({ length: MAX_PIECES }, (_, k) => pieces[Math.round((k * (pieces.length - 1)) / (MAX_PIECES - 1))]!);
}

/** The end of the last character in (floor, end] that `mark` matches, as a cut position. */
function lastBreak(text: string, floor: number, end: number, mark: RegExp): number | undefined {
  for (let at = end; at > floor; at--) if (mark.test(text[at - 1]!)) return at;
  return undefined;
}
