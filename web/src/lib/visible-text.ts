/**
 * Characters that change how stored text is shown while being invisible themselves: C0 and C1
 * controls (not tab, line feed, carriage return), bidi embeddings and overrides (U+202A–U+202E)
 * and isolates (U+2066–U+2069), zero-width space, word joiner and invisible operators, BOM, and
 * interlinear annotation marks. An override makes the page show "京北在住户用" for what is stored
 * as "\u202E用户住在北京": shown as markers instead, the page shows what is stored.
 * Left alone, because scripts and emoji need them and none reorders text: ZWJ and ZWNJ (U+200C,
 * U+200D), the directional marks LRM, RLM and ALM, and tag characters (flag emoji).
 */
const HIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFF9-\uFFFB]/g;

/** Names of the ones a reader may meet, for the marker's tooltip. */
const NAMES: Record<string, string> = {
  '\u0000': 'NULL',
  '\u200B': 'ZERO WIDTH SPACE',
  '\u202A': 'LEFT-TO-RIGHT EMBEDDING',
  '\u202B': 'RIGHT-TO-LEFT EMBEDDING',
  '\u202C': 'POP DIRECTIONAL FORMATTING',
  '\u202D': 'LEFT-TO-RIGHT OVERRIDE',
  '\u202E': 'RIGHT-TO-LEFT OVERRIDE',
  '\u2060': 'WORD JOINER',
  '\u2066': 'LEFT-TO-RIGHT ISOLATE',
  '\u2067': 'RIGHT-TO-LEFT ISOLATE',
  '\u2068': 'FIRST STRONG ISOLATE',
  '\u2069': 'POP DIRECTIONAL ISOLATE',
  '\uFEFF': 'ZERO WIDTH NO-BREAK SPACE (BOM)',
};

/** One hidden character, as a marker shows it. */
export interface HiddenChar {
  /** "U+202E" */
  code: string;
  /** "RIGHT-TO-LEFT OVERRIDE", where known. */
  name?: string;
}

const codeOf = (c: string): string => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
export const markerOf = (h: HiddenChar): string => `⟨${h.code}⟩`;

/** The text cut into the runs that show as they are and the hidden characters between them. */
export function splitHidden(text: string): Array<string | HiddenChar> {
  const pieces: Array<string | HiddenChar> = [];
  let last = 0;
  for (const m of text.matchAll(HIDDEN)) {
    if (m.index > last) pieces.push(text.slice(last, m.index));
    const name = NAMES[m[0]];
    pieces.push({ code: codeOf(m[0]), ...(name ? { name } : {}) });
    last = m.index + 1;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}

/** The text with every hidden character as its marker ("⟨U+202E⟩用户住在北京"): for attributes, titles and dialogs. */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, (c) => markerOf({ code: codeOf(c) }));
}
