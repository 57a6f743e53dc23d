/** One run of a word diff: kept, added or removed text. */
export interface DiffPart {
  type: 'same' | 'add' | 'del';
  text: string;
}

/** Words for any language: Intl.Segmenter splits Chinese into words, keeps spaces and punctuation as their own pieces. */
export function tokenize(text: string): string[] {
  const seg = new Intl.Segmenter(undefined, { granularity: 'word' });
  return Array.from(seg.segment(text), (s) => s.segment);
}

/**
 * A word-level diff of two texts (longest common subsequence). Texts are short (a profile
 * narrative), so the quadratic table is fine; above `maxCells` it falls back to whole-text replace.
 */
export function diffWords(before: string, after: string, maxCells = 4_000_000): DiffPart[] {
  const a = tokenize(before);
  const b = tokenize(after);
  if (a.length * b.length > maxCells) return merge([{ type: 'del', text: before }, { type: 'add', text: after }]);
  const rows = a.length + 1;
  const cols = b.length + 1;
  const lcs = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * cols + j] = a[i] === b[j] ? lcs[(i + 1) * cols + j + 1]! + 1 : Math.max(lcs[(i + 1) * cols + j]!, lcs[i * cols + j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      parts.push({ type: 'same', text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * cols + j]! >= lcs[i * cols + j + 1]!) {
      parts.push({ type: 'del', text: a[i++]! });
    } else {
      parts.push({ type: 'add', text: b[j++]! });
    }
  }
  while (i < a.length) parts.push({ type: 'del', text: a[i++]! });
  while (j < b.length) parts.push({ type: 'add', text: b[j++]! });
  return merge(parts);
}

function merge(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  for (const p of parts) {
    if (p.text === '') continue;
    const last = out[out.length - 1];
    if (last && last.type === p.type) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}
