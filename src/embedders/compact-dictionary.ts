/** What glossing reads of a dictionary: one word's gloss, or undefined. */
export interface WordLookup {
  get(word: string): string | undefined;
}

/**
 * A read-only word -> gloss dictionary in a few flat arrays: the words sorted and joined into one
 * string, each distinct gloss once in another, and offsets between. CC-CEDICT's 172,712 entries
 * took 34 MB of heap as a Map of strings (an object header per string and per entry); this form
 * takes a tenth of that, and a lookup is a binary search over the sorted words.
 */
export function compactDictionary(entries: Iterable<readonly [string, string]>): WordLookup & { readonly size: number } {
  const pairs = [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const glossIndex = new Map<string, number>();
  const glossParts: string[] = [];
  const glossStarts: number[] = [0];
  const wordStarts = new Uint32Array(pairs.length + 1);
  const glossOf = new Uint32Array(pairs.length);
  let at = 0;
  for (let i = 0; i < pairs.length; i++) {
    const [word, gloss] = pairs[i]!;
    wordStarts[i] = at;
    at += word.length;
    let g = glossIndex.get(gloss);
    if (g === undefined) {
      glossIndex.set(gloss, (g = glossParts.length));
      glossParts.push(gloss);
      glossStarts.push(glossStarts[glossStarts.length - 1]! + gloss.length);
    }
    glossOf[i] = g;
  }
  wordStarts[pairs.length] = at;
  // Flattened (a joined string can be a rope that keeps its parts alive).
  const words = flat(pairs.map((p) => p[0]).join(''));
  const glosses = flat(glossParts.join(''));
  const glossAt = Uint32Array.from(glossStarts);
  // Only the flat arrays are kept: the closures below must not reach `pairs` or the gloss map.
  const count = pairs.length;

  /** word against the i-th stored word, in UTF-16 code unit order (as the sort above). */
  const compare = (word: string, i: number): number => {
    const start = wordStarts[i]!;
    const length = wordStarts[i + 1]! - start;
    const n = Math.min(word.length, length);
    for (let k = 0; k < n; k++) {
      const d = word.charCodeAt(k) - words.charCodeAt(start + k);
      if (d !== 0) return d;
    }
    return word.length - length;
  };

  return {
    size: count,
    get(word) {
      let lo = 0;
      let hi = count - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const c = compare(word, mid);
        if (c === 0) {
          const g = glossOf[mid]!;
          return glosses.slice(glossAt[g]!, glossAt[g + 1]!);
        }
        if (c < 0) hi = mid - 1;
        else lo = mid + 1;
      }
      return undefined;
    },
  };
}

/** A string's characters in one flat string (V8 flattens a rope on first indexed read; this does it once, here). */
function flat(s: string): string {
  if (s.length > 0) s.charCodeAt(0);
  return s;
}
