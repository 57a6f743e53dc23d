import { namesTime, thirdSingular, type Pattern, type Statement } from './candidate.js';
import { IM, NOT_OBJECTS, PET, re, REL, tail } from './patterns-en-words.js';

/**
 * English rows for what is over or changed: a death, a new job, a job that ended, what the user
 * no longer likes or is. Read before the rows that state things (a new job is still a job).
 */

/** Not someone lost: a thing, a pointer, a relative (whose death the rows for relatives read). */
const NOT_LOST = "(?:The|A|An|It|Him|Her|Them|My|Our|Some|Everything|All|Track|Weight|Touch|Grandpa|Grandma|Mom|Dad|Mum|Power|Game)\\b";
/** What opens a new job said as news: "I got a new job at", "I just started working for", "I've started at". */
const NEW_JOB_AT = "I(?:'ve| have)? (?:just |recently |finally |officially )?(?:(?:got|landed|accepted|took|started|began) (?:a |my |the )?new (?:job|position|role)|(?:got|landed|accepted|took) (?:a|the) (?:job|position|role)|(?:started|began|start) (?:working|to work|a (?:job|position|role))) (?:at|with|for)";
/** When, said after a job news ("last month", "yesterday"): kept in the memory, not in the workplace. */
const WHEN_EN = "((?:,? (?:last|this) (?:week|month|year|spring|summer|fall|autumn|winter)|,? yesterday|,? today|,? (?:a few|a couple of|two|three|\\d+) (?:days|weeks|months|years) ago))?";
/** A time said first in what follows (" last year", " two weeks ago", " in 2019"). */
const WHEN_FIRST = /^ (?:last|this|yesterday|today|recently|earlier|a|an|one|two|three|four|five|six|\d+|in \d{4}|back in)\b/u;
/** A workplace is named: "Costco", "Google" (not "a place near me"). */
const startsName = (said: string): boolean => /^\p{Lu}|^\d/u.test(said.trim());

/** The death of the user's relative, as the memory says it: "The user's grandpa passed away last week". */
function relativeLost(relation: string, name: string | undefined, verb: string, rest: string): Statement {
  const kind = relation.toLowerCase();
  const subject = `The user's ${kind}${name ? ` ${name}` : ''}`;
  return { content: `${subject} ${verb}${rest}`, value: kind, past: true, lost: { pet: false, kind, ...(name ? { name } : {}), subject: subject.length } };
}

export const EN_CHANGES: readonly Pattern[] = [
  // A pet's death ("my dog Biscuit died yesterday", "Biscuit passed away last week"): its memory is retired (reconcile.ts).
  // A name alone is only the user's pet when a memory says so. (A relative's death is read by the rows after these.)
  {
    slot: 'loss', kind: 'event', importance: 0.8,
    re: re(`(?:(?:[Mm]y|[Oo]ur) ${PET}(?:,? ([A-Z][a-z'-]+),?)?|(?!(?:It|He|She|That|This|They|Someone|Everyone|Nobody|Grandpa|Grandma|Mom|Dad|Mum)\\b)([A-Z][a-z'-]+)) (?:just |recently |sadly |unexpectedly |finally )?(passed away|passed|died|has died|has passed(?: away)?|crossed the rainbow bridge|had to be put (?:down|to sleep)|was put (?:down|to sleep))((?: .+?)?)`, 'u'),
    build: (m) => {
      const name = m[2] ?? m[3];
      const subject = m[1] ? `The user's ${m[1].toLowerCase()}${name ? ` ${name}` : ''}` : name!;
      const lost = { pet: true, ...(m[1] ? { kind: m[1].toLowerCase() } : {}), ...(name ? { name } : {}), subject: subject.length };
      return { content: `${subject} ${m[4]}${m[5]}`, value: name ?? m[1]!.toLowerCase(), past: true, ...(m[1] ? {} : { quiet: true }), lost };
    },
  },
  // "We had to put Biscuit down", "We lost Biscuit last week", "I lost my dog": said of those left. "Lost" is a death
  // only when when follows, or nothing ("we lost the game" names no pet; "I lost my dog at the park" may find it).
  {
    slot: 'loss', kind: 'event', importance: 0.8,
    re: re(`(?:[Ii]|[Ww]e)(?:'ve| have)? (?:just |recently |sadly |finally |unexpectedly )?(?:had to )?(put|lost|euthanized|euthanize) (?:(?:[Mm]y|[Oo]ur) ${PET}(?:,? ([A-Z][a-z'-]+),?)?|(?!${NOT_LOST})([A-Z][a-z'-]+))( down| to sleep)?((?: .+?)?)`, 'u'),
    build: (m) => {
      const rest = m[6]!;
      if ((m[1] === 'put') !== (m[5] !== undefined) || (m[1] === 'lost' && rest !== '' && !namesTime(rest))) return undefined;
      const name = m[3] ?? m[4];
      const subject = m[2] ? `The user's ${m[2].toLowerCase()}${name ? ` ${name}` : ''}` : name!;
      const lost = { pet: true, ...(m[2] ? { kind: m[2].toLowerCase() } : {}), ...(name ? { name } : {}), subject: subject.length };
      const verb = m[1] === 'lost' ? 'died' : `was put${m[5] ?? ' to sleep'}`;
      return { content: `${subject} ${verb}${rest}`, value: name ?? m[2]!.toLowerCase(), past: true, ...(m[2] ? {} : { quiet: true }), lost };
    },
  },
  // A relative's death ("my grandpa passed away last week", "Grandma died", "I lost my mom last year"): the memory
  // about them says so (relative-death.ts). "Passed" alone is a death only with when or nothing after it ("my son passed his exam").
  {
    slot: 'loss', kind: 'event', importance: 0.8,
    re: re(`(?:(?:[Mm]y|[Oo]ur) ${REL}(?:,? ([A-Z][a-z'-]+),?)?|(Grandpa|Grandma|Mom|Mum|Dad)) (?:just |recently |sadly |unexpectedly |finally )?(passed away|passed|died|has died|has passed(?: away)?)((?: .+?)?)`, 'u'),
    build: (m) => (m[4] === 'passed' && m[5] !== '' && !namesTime(m[5]!) ? undefined : relativeLost((m[1] ?? m[3])!, m[2], m[4]!, m[5]!)),
  },
  {
    slot: 'loss', kind: 'event', importance: 0.8,
    re: re(`(?:[Ii]|[Ww]e)(?:'ve| have)? (?:just |recently |sadly |unexpectedly )?lost (?:[Mm]y|[Oo]ur) ${REL}(?:,? ([A-Z][a-z'-]+),?)?((?: .+?)?)`, 'u'),
    // "I lost my sister at the mall last week" lost her only for a while: when must come right after.
    build: (m) => (m[3] !== '' && !(WHEN_FIRST.test(m[3]!) && namesTime(m[3]!)) ? undefined : relativeLost(m[1]!, m[2], 'died', m[3]!)),
  },
  // A new job ("I got a new job at Costco as a pharmacist", "I just started working at Google"): it replaces the job a
  // memory holds, whichever slot holds it (reconcile.ts).
  {
    slot: 'job', kind: 'identity', importance: 0.8,
    re: re(`${NEW_JOB_AT} (.+?) as (an? )?(.+?)${WHEN_EN}`),
    build: (m) => (startsName(m[1]!) ? { content: `The user works as ${m[2] ?? ''}${tail(m[3])} at ${m[1]}`, value: m[3]!, employer: m[1]!, jobChange: true } : undefined),
  },
  {
    slot: 'employer', kind: 'identity', importance: 0.8,
    re: re(`${NEW_JOB_AT} (.+?)${WHEN_EN}`),
    build: (m) => (startsName(m[1]!) ? { content: `The user works at ${tail(m[1])}`, value: m[1]!, jobChange: true } : undefined),
  },
  // The job over ("I quit my job at Swedish", "I got laid off", "I retired last year", "I'm now retired"): the job memory says so.
  {
    slot: 'job-end', kind: 'event', importance: 0.8,
    re: re(`I(?:'ve| have)? (?:just |finally |recently |officially |actually )?(quit|left|lost|resigned from|retired from) (?:my|the) (?:job|position|role|company)(?: (?:at|with) (.+?))?${WHEN_EN}`),
    build: (m) => ({ content: `The user ${m[1]!.toLowerCase()} their job${m[2] ? ` at ${tail(m[2])}` : ''}${m[3] ?? ''}`, value: m[2] ?? '', past: true }),
  },
  {
    slot: 'job-end', kind: 'event', importance: 0.8,
    re: re(`I(?:'ve| have)? (?:just |finally |recently |officially |actually )?(?:(resigned|retired)(?: from (.+?))?|(?:got|was|have been|'ve been) (laid off|let go|fired)(?: from (.+?))?|(?:got|have) a new job)${WHEN_EN}`),
    build: (m) => {
      const at = m[2] ?? m[4];
      const what = m[1] ? m[1].toLowerCase() : m[3] ? `was ${m[3].toLowerCase()}` : 'got a new job';
      return { content: `The user ${what}${at ? ` from ${tail(at)}` : ''}${m[5] ?? ''}`, value: at ?? '', past: true, ...(m[1] || m[3] ? {} : { jobChange: true }) };
    },
  },
  {
    slot: 'job-end', kind: 'fact', importance: 0.8,
    re: re(`${IM} (?:now |officially |finally |already )?(retired|unemployed|out of work|between jobs)(?: now)?`),
    build: (m) => ({ content: `The user is ${m[1]!.toLowerCase()}`, value: '' }),
  },
  // Corrections that take something back.
  {
    slot: 'no-longer-like', kind: 'preference', importance: 0.6,
    re: re("I (?:no longer|don't|do not) (?:like|love|enjoy) (.+?) ?(?:anymore|any more)?"),
    build: (m) => (/\b(?:no longer|anymore|any more)\b/i.test(m[0]) ? { content: `The user no longer likes ${tail(m[1])}`, value: m[1]! } : undefined),
  },
  // "I'm not vegetarian anymore": what a memory says the user is, is over.
  {
    slot: 'no-longer', kind: 'fact', importance: 0.6,
    re: re(`${IM} not (?:an? )?(.+?),? (?:anymore|any more|any longer)`),
    build: (m) => (NOT_OBJECTS.test(m[1]!) || /^(?:sure|going|gonna|able|allowed|sick|tired|mad|angry|upset|sad|scared|afraid|hungry|there|here|that|so|too|as)\b/i.test(m[1]!) ? undefined : { content: `The user is no longer ${tail(m[1])}`, value: m[1]! }),
  },
  {
    slot: 'no-longer', kind: 'fact', importance: 0.6,
    re: re(`${IM} no longer (.+?)`),
    build: (m) => ({ content: `The user is no longer ${tail(m[1])}`, value: m[1]!.replace(/^(?:an?|the) /i, '') }),
  },
  {
    slot: 'no-longer', kind: 'fact', importance: 0.6,
    re: re("I (?:no longer (.+?)|(?:don't|do not) (.+?) (?:anymore|any more))"),
    build: (m) => {
      const what = m[1] ?? m[2]!;
      const place = /^(?:work|live)s? (?:at|for|in) (.+)$/i.exec(what)?.[1];
      return { content: `The user no longer ${thirdSingular(tail(what))}`, value: place ?? what };
    },
  },
];
