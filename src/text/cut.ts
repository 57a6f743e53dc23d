/** Where a piece ends best: after a sentence's or a clause's mark; else at a space. */
const SENTENCE_END = /[。！？!?.;；，,、\n]/u;
const SPACE = /\s/u;

/**
 * A text cut into pieces of at most `size` characters, each ending at the last sentence or clause
 * mark in its final third, else its last space, else wherever it must (never between the two
 * halves of a surrogate pair). Joined, the pieces are the text. A text of at most `size` is itself.
 */
export function cutAtBreaks(text: string, size: number): string[] {
  if (text.length <= size) return [text];
  const pieces: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const floor = start + Math.floor((size * 2) / 3);
      end = lastBreak(text, floor, end, SENTENCE_END) ?? lastBreak(text, floor, end, SPACE) ?? end;
      if (/[\uD800-\uDBFF]/u.test(text[end - 1]!)) end--;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/** The end of the last character in (floor, end] that `mark` matches, as a cut position. */
function lastBreak(text: string, floor: number, end: number, mark: RegExp): number | undefined {
  for (let at = end; at > floor; at--) if (mark.test(text[at - 1]!)) return at;
  return undefined;
}
