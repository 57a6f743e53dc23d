import { type Pattern } from './candidate.js';
import { BIRTH_DATE, IM, NAME, NOT_LOWER_NAMES, NOT_NAMES_EN, PET, re, REL, tail } from './patterns-en-words.js';

/** English rows about the user's people and pets: family, a relative's age or name, a pet and its name. */

const COUNT = '(a|an|one|two|three|four|five|\\d+)';
/** An age said alone ("7", "7 years old"). */
const AGE_EN = '(\\d{1,2})(?: years old| yrs old| y/?o)?';
/** A child's age after their name: "Lily who is 7", "Ben (4)", "Lily, 7". */
const AGED = '(?:,? who(?:\'s| is) \\d{1,2}(?: years old)?| \\(\\d{1,2}\\)|, \\d{1,2}(?= and|,|$))?';
/** Someone named outright, in one or two capitalised words ("Emma", "Aunt May"); not a pointer, a day or the user's own. */
const SOMEONE = "(?!(?:It|He|She|They|This|That|There|Here|Who|What|Which|Mine|Today|Tomorrow|Yesterday|Everyone|Everybody|Someone|Somebody|Nobody|My|Our|Your|His|Her|Their|The)\\b)([A-Z][a-z'-]+(?: [A-Z][a-z'-]+)?)";
const named = (said: string): boolean => said.split(' ').every((w) => /^\p{Lu}/u.test(w) && !NOT_NAMES_EN.test(w));

export const EN_PEOPLE: readonly Pattern[] = [
  // Family and pets.
  {
    slot: 'family', kind: 'person', importance: 0.7,
    // Their names may follow ("I have two daughters, Emma and Lily").
    // With their ages too ("two kids, Lily who is 7 and Ben who is 4"), which stay theirs.
    re: re(`(?:I|[Ww]e) have ${COUNT} (kids?|children|child|sons?|daughters?|brothers?|sisters?|siblings?)(?:,? (?:named |called )?(${NAME}${AGED}(?:,? (?:and )?${NAME}${AGED})*))?`),
    build: (m) => ({ content: `The user has ${m[1]!.toLowerCase()} ${m[2]!.toLowerCase()}${m[3] ? `, ${m[3]}` : ''}`, value: m[2]!.toLowerCase().replace(/s$/, '') }),
  },
  {
    slot: 'family', kind: 'person', importance: 0.7,
    re: re(`${IM} (married|divorced|single|engaged)`),
    build: (m) => ({ content: `The user is ${m[1]!.toLowerCase()}`, value: 'marriage' }),
  },
  {
    slot: 'pet', kind: 'fact', importance: 0.7,
    // "We have a dog" in the user's own sentence: their household's pet.
    // A word or two may describe it ("an orange cat named Mochi").
    re: re(`(?:I|[Ww]e|[Oo]ur family) (?:have|has|own|owns|got|adopted) ${COUNT} ((?:[a-z]+ ){0,2}?)${PET}(s?)(?:,? (?:named|called) ${NAME})?`),
    build: (m) => ({ content: `The user has ${m[1]!.toLowerCase()} ${m[2]!.toLowerCase()}${m[3]!.toLowerCase()}${m[4]}${m[5] ? ` named ${m[5]}` : ''}`, value: `${m[3]!.toLowerCase()}:${m[5] ?? ''}` }),
  },
  {
    slot: 'pet', kind: 'fact', importance: 0.7,
    re: re(`[Mm]y ${PET}(?:'s name is| is named| is called) ${NAME}`, 'u'),
    build: (m) => ({ content: `The user's ${m[1]} is named ${m[2]}`, value: `${m[1]}:${m[2]}` }),
  },
  // "my dog's name is max": typed in lower case, but said outright.
  {
    slot: 'pet', kind: 'fact', importance: 0.7,
    re: re(`[Mm]y ${PET}(?:'s name is| is named| is called) ([a-z][a-z'-]{1,20})`, 'u'),
    build: (m) => {
      if (NOT_LOWER_NAMES.test(m[2]!)) return undefined;
      const name = m[2]!.charAt(0).toUpperCase() + m[2]!.slice(1);
      return { content: `The user's ${m[1]} is named ${name}`, value: `${m[1]}:${name}` };
    },
  },
  // "Emma is my daughter": a relative named (and "she's 12" after it is hers: kin-pronoun.ts).
  {
    slot: 'family', kind: 'person', importance: 0.7,
    re: re(`${SOMEONE} is my ${REL}`, 'u'),
    build: (m) => (named(m[1]!) ? { content: `${m[1]} is the user's ${m[2]}`, value: m[2]!, who: [m[2]!, m[1]!] } : undefined),
  },
  // "Mark's birthday is March 3rd": someone the user knows, one birthday each; no reminder is made of it (none was asked for).
  {
    slot: 'personBirthday', kind: 'person', importance: 0.7,
    re: re(`${SOMEONE}'s (?:birthday|bday)(?:'s| is)(?: on)? ${BIRTH_DATE}`),
    build: (m) => (named(m[1]!) ? { content: `${m[1]}'s birthday is ${m[2]}`, value: m[2]!, who: [m[1]!] } : undefined),
  },
  // A relative's age ("my daughter Lily is 7", "my son just turned 5"): one value for each relative, which a new one replaces.
  {
    slot: 'kinAge', kind: 'person', importance: 0.7,
    re: re(`[Mm]y ${REL}(?:,? ([A-Z][a-z'-]+),?)? (?:is|'s|just turned|turned|is now) ${AGE_EN}`, 'u'),
    build: (m) => {
      const relation = m[1]!.toLowerCase();
      return { content: `The user's ${relation}${m[2] ? ` ${m[2]}` : ''} is ${m[3]}`, value: m[3]!, who: m[2] ? [relation, m[2]] : [relation] };
    },
  },
  // "Lily is 8": someone named, who is only someone the user knows when a memory says so (see reconcile.ts).
  {
    slot: 'kinAge', kind: 'person', importance: 0.7,
    re: re(`(?!(?:It|That|This|He|She|There|Here|What|Who|Which|Mine|Today|Tomorrow)\\b)([A-Z][a-z'-]+) (?:is|'s|just turned|turned|is now) ${AGE_EN}`, 'u'),
    build: (m) => ({ content: `${m[1]} is ${m[2]}`, value: m[2]!, who: [m[1]!], quiet: true }),
  },
  {
    slot: 'family', kind: 'person', importance: 0.7,
    re: re(`my ${REL}(?:'s name is| is named| is called) (.+?)`),
    build: (m) => ({ content: `The user's ${m[1]!.toLowerCase()} is named ${m[2]}`, value: m[1]!.toLowerCase() }),
  },
  // "My daughter Emma loves drawing": a relative with their name (capitalised: "my son really likes…" names no one).
  {
    slot: 'family', kind: 'person', importance: 0.7,
    re: re(`my ${REL},? ([A-Za-z][a-z'-]+),? (is|works|lives|likes|loves|was|just|has|teaches|studies|starts|started|goes|turns|turned|plays|hates) (.+?)`),
    build: (m) => (/^[A-Z]/.test(m[2]!) && !NOT_NAMES_EN.test(m[2]!) ? { content: `The user's ${m[1]!.toLowerCase()} ${m[2]} ${m[3]} ${tail(m[4])}`, value: m[1]!.toLowerCase() } : undefined),
  },
  {
    slot: 'family', kind: 'person', importance: 0.7,
    re: re(`my ${REL}(?: (is|works|lives|likes|loves|was|just|has|teaches|studies|starts|started|goes|turns|turned|plays|hates)|('s)) (.+?)`),
    build: (m) => ({ content: `The user's ${m[1]!.toLowerCase()}${m[2] ? ` ${m[2]}` : "'s"} ${tail(m[4])}`, value: m[1]!.toLowerCase() }),
  },
];
