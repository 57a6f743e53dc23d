/**
 * Renders stored text as a quoted data literal: JSON string escaping keeps it on one line and
 * inside its quotes, and angle brackets are escaped so no memory can close the <memories> block
 * or open a tag of its own. Line and paragraph separators (U+2028/U+2029), NEL and the bidi
 * controls (U+200E/F, U+202A–U+202E, U+2066–U+2069) are escaped too: JSON.stringify leaves them
 * raw, and they would break the line for a model or reorder the text for a reader.
 */
export function quoteData(text: string): string {
  return JSON.stringify(text)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/[\u0085\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
