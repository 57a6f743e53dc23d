/**
 * "I have a son named Leo, he's 5 and allergic to eggs": what "he" says next is the son's, not the
 * user's. A relative the user names opens a run of clauses about them; "he" or "she" there is that
 * relative, written out in full so the family rows read it ("my son Leo is 5 and allergic to eggs").
 * (The Chinese clauses carry their relative in clauses.ts: "我儿子叫乐乐，今年五岁".)
 */

/** A relative the user named, as a clause can open on them ("my son Leo"), and what they are called. */
export interface Kin {
  said: string;
  pronoun: 'he' | 'she' | 'either';
}

const HE = new Set(['son', 'boy', 'brother', 'dad', 'father', 'husband', 'boyfriend', 'grandpa', 'grandfather']);
const SHE = new Set(['daughter', 'girl', 'sister', 'mom', 'mum', 'mother', 'wife', 'girlfriend', 'grandma', 'grandmother']);
const KIN = `(${[...HE, ...SHE, 'kid', 'child'].join('|')})`;
/** A capitalised name after the relative ("my son Leo"); not "I" ("my son I think…"). */
const NAME = "(?!I\\b)([A-Z][a-z'-]+)";

/** "I have a son named Leo", "my daughter Lily", "my mom", "Emma is my daughter": a clause that opens on a relative of the user's. */
const KIN_OPENING = new RegExp(`^(?:I have (?:a|an|one) ${KIN},? (?:named|called) ${NAME}|[Mm]y ${KIN}(?:,? ${NAME}(?=[,\\s]))?|${NAME} is my ${KIN}(?=,|\\s+and\\b|$))`, 'u');
/** Not a name before "is my daughter": a pointer ("She is my daughter", "This is my son"). */
const NOT_A_NAME = /^(?:He|She|It|This|That|There|Here|Who|What|Which|Mine)$/u;
/** Where a clause about the relative goes on with a pronoun: "…, he's 5", "… and she loves drawing". */
const PRONOUN_BREAK = /,\s+(?:and\s+)?(?=(?:he|she)\b)|\s+and\s+(?=(?:he|she)\b)/iu;
const PRONOUN = /^(he|she)(?:'s\b|\b)/iu;

/** The relative a clause opens on, if it opens on one. */
export function kinOpening(clause: string): Kin | undefined {
  const m = KIN_OPENING.exec(clause);
  if (!m) return undefined;
  const relation = (m[1] ?? m[3] ?? m[6])!.toLowerCase();
  const name = m[2] ?? m[4] ?? m[5];
  if (m[5] && NOT_A_NAME.test(m[5])) return undefined;
  return { said: `my ${relation}${name ? ` ${name}` : ''}`, pronoun: HE.has(relation) ? 'he' : SHE.has(relation) ? 'she' : 'either' };
}

/**
 * Splits "I have a son named Leo, he's 5" and "Emma is my daughter, she's 12" in two: the
 * introduction says nothing of them but their name. "My son fell, he broke his arm" stays whole:
 * the family rows keep it as said.
 */
export function splitAtKinPronoun(parts: readonly string[]): string[] {
  return parts.flatMap((part) => (!/^[Mm]y /u.test(part.trim()) && kinOpening(part.trim()) ? part.split(PRONOUN_BREAK) : [part]));
}

/** "he's 5" about "my son Leo" reads "my son Leo is 5"; a pronoun that is not the relative's stays. */
export function resolveKinPronoun(clause: string, kin: Kin | undefined): string {
  const m = PRONOUN.exec(clause);
  if (!kin || !m) return clause;
  const pronoun = m[1]!.toLowerCase();
  if (kin.pronoun !== 'either' && kin.pronoun !== pronoun) return clause;
  const rest = clause.slice(m[0].length);
  // "he's been", "she's got": has; "he's 5": is.
  const verb = m[0].endsWith("'s") ? (/^ (?:been|got|gotten|gone|had)\b/u.test(rest) ? ' has' : ' is') : '';
  return `${kin.said}${verb}${rest}`;
}
