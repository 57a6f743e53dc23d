import type { AliasedMemory } from '../../domain/operations.js';
import { detectLanguage } from '../../text/language.js';
import { REL_ZH, type Candidate, type Lang } from './candidate.js';

/**
 * A relative's death and the memory about them ("The user's grandpa lives in Ohio", "用户的爷爷住在
 * 山东"): found by the relative it opens on, and written to say that they died and, in the past,
 * what it said of them. Left as it was, it would speak of them as alive in every later answer.
 */

/** One relative, however said: "grandpa" and "grandfather", "妈" and "母亲". */
const SAME_KIN: ReadonlyArray<readonly string[]> = [
  ['grandpa', 'grandfather'], ['grandma', 'grandmother'], ['mom', 'mum', 'mother'], ['dad', 'father'],
  ['爸', '爸爸', '父亲'], ['妈', '妈妈', '母亲'], ['外婆', '姥姥'], ['外公', '姥爷'], ['老婆', '妻子', '太太'], ['老公', '丈夫'],
];
/** The words for the relative, longest first ("爸爸" before "爸"). */
const kinWords = (said: string): string => [...(SAME_KIN.find((g) => g.includes(said)) ?? [said])].sort((a, b) => b.length - a.length).join('|');

/** A memory that says the relative died already: another death said is no news to it. */
const DIED = /去世|过世|离世|病逝|passed away|\bdied\b/iu;
/** What follows the relative and is not said of them alone: another relative ("用户的爷爷奶奶"), "and grandma". */
const NOT_ALONE_ZH = new RegExp(`^(?:和|跟|与)?${REL_ZH}`, 'u');
const NOT_ALONE_EN = /^(?:and|&|or)\b/iu;

export interface RelativeMemory {
  memory: AliasedMemory;
  /** Who the memory opens on, as it says it ("The user's grandpa", "用户的爷爷"). */
  subject: string;
  /** What it says of them ("lives in Ohio", "住在山东"). */
  said: string;
  /** It says they died already. */
  died: boolean;
}

/** The first memory in the user's language that opens on the relative who died, with what it says of them. */
export function relativeMemory(existing: readonly AliasedMemory[], lost: NonNullable<Candidate['lost']>, lang: Lang): RelativeMemory | undefined {
  if (lost.kind === undefined) return undefined;
  const opening =
    lang === 'zh'
      ? new RegExp(`^(用户的?(?:${kinWords(lost.kind)}))(?!的)(\\p{Script=Han}.*)$`, 'u')
      : new RegExp(`^(The user's (?:${kinWords(lost.kind)})(?: ([A-Z][a-z'-]+))?),? (?!'s)(.+)$`, 'u');
  for (const memory of existing) {
    if (memory.kind === 'todo' || memory.kind === 'episode' || detectLanguage(memory.content) !== lang) continue;
    const m = opening.exec(memory.content.trim());
    if (!m) continue;
    const said = (m[3] ?? m[2]!).replace(/[。.!！\s]+$/u, '');
    // Another relative, or one of another name ("my grandpa Joe" is not the grandpa named Bill).
    if ((lang === 'zh' ? NOT_ALONE_ZH : NOT_ALONE_EN).test(said)) continue;
    if (lang === 'en' && m[2] && lost.name && m[2] !== lost.name) continue;
    return { memory, subject: m[1]!, said, died: DIED.test(memory.content) };
  }
  return undefined;
}

/**
 * The memory once the relative died: "用户的爷爷上周去世了，生前住在山东", "The user's grandpa, who
 * lived in Ohio, passed away last week". What cannot be put in the past plainly ("今年90岁", "can
 * cook") is kept as the memory said it, after the death.
 */
export function relativeDied(found: RelativeMemory, c: Candidate): string {
  const lost = c.lost!;
  if (c.lang === 'zh') {
    if (/^(?:今年|现在|目前|已经|还)/u.test(found.said)) return `${c.content}（此前：${found.memory.content.replace(/[。\s]+$/u, '')}）`;
    return `${c.content}，生前${found.said}`;
  }
  const past = pastTense(found.said);
  if (past === undefined) return `${c.content} (before: ${found.memory.content.replace(/[.\s]+$/u, '')})`;
  const subject = lost.name ? c.content.slice(0, lost.subject) : found.subject;
  return `${subject}, who ${past}, ${c.content.slice(lost.subject).trim()}`;
}

const IRREGULAR: Readonly<Record<string, string>> = {
  is: 'was', are: 'were', has: 'had', does: 'did', goes: 'went', teaches: 'taught', runs: 'ran', makes: 'made', says: 'said',
  takes: 'took', gives: 'gave', drives: 'drove', buys: 'bought', thinks: 'thought', keeps: 'kept', feels: 'felt', knows: 'knew',
  speaks: 'spoke', writes: 'wrote', reads: 'read', sings: 'sang', swims: 'swam', comes: 'came', sees: 'saw', gets: 'got', eats: 'ate',
  drinks: 'drank', wears: 'wore', grows: 'grew', spends: 'spent', builds: 'built', sends: 'sent', tells: 'told', holds: 'held',
  meets: 'met', pays: 'paid', sells: 'sold', finds: 'found', brings: 'brought', sleeps: 'slept',
};

/**
 * What a memory says of someone, put in the past at its first verb ("lives in Ohio" → "lived in
 * Ohio", "is 90" → "was 90"); undefined when the verb's past is not plain from its spelling ("plans").
 */
function pastTense(said: string): string | undefined {
  const m = /^([a-z]+)\b(.*)$/u.exec(said);
  if (!m) return undefined;
  const [, verb = '', rest = ''] = m;
  if (/^(?:was|were|had|used)$|ed$/u.test(verb)) return said;
  const irregular = IRREGULAR[verb];
  if (irregular) return `${irregular}${rest}`;
  if (!/s$/u.test(verb) || verb.length < 4) return undefined;
  const stem = verb.slice(0, -1);
  // "studies" → "studied"; "lives" → "lived"; "plays", "works" → "played", "worked". Not "plans" (planned), "visits".
  if (/ie$/u.test(stem)) return `${stem.slice(0, -2)}ied${rest}`;
  if (/(?:ch|sh|ss|x)e$/u.test(stem)) return `${stem.slice(0, -1)}ed${rest}`;
  if (/e$/u.test(stem)) return `${stem}d${rest}`;
  if (/[aeiou]y$|[^aeiou][^aeiouy]$/u.test(stem)) return `${stem}ed${rest}`;
  return undefined;
}
