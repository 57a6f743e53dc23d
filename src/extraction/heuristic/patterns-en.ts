import { APPOINTMENT_EN, type Pattern } from './candidate.js';
import { EN_CHANGES } from './patterns-en-changes.js';
import { EN_PEOPLE } from './patterns-en-people.js';
import { EN_TODO_ACTIONS, EN_TODO_REQUESTS } from './patterns-en-todos.js';
import { BIRTH_DATE, IM, NAME, NOT_LOWER_NAMES, NOT_NAMES_EN, NOT_OBJECTS, re, tail } from './patterns-en-words.js';

/**
 * English statements, one clause at a time ("my name is Bob", "I don't like cilantro"). The first
 * row that matches wins, so narrower rows ("no longer like") come before wider ones ("like").
 * Names must be capitalised, which keeps "call me tomorrow" from naming anyone "tomorrow".
 */

const JOB =
  '(.{0,30}?(?:engineer|developer|programmer|designer|doctor|nurse|teacher|professor|lawyer|accountant|manager|student|researcher|scientist|writer|journalist|editor|analyst|architect|consultant|founder|entrepreneur|chef|driver|artist|photographer|freelancer|director|officer|intern|dev|CTO|CEO|CFO|COO|SWE|SDE|(?<![\\d ]{2})PM(?= at | in | for |$)))';
/** What one is "allergic to" in jest: a time, a chore, people ("allergic to mornings lol"). */
const NOT_ALLERGENS = /^(?:mornings?|mondays?|early mornings?|work|working|people|humans|adulting|exercise|effort|math|responsibilit(?:y|ies)|commitment|you|u|it|this|that|everything|life|stupidity|drama|cardio|chores|homework|meetings?|alarms?)\b/i;
const LANGUAGE_EN = '(?:English|Chinese|Mandarin|Cantonese|Japanese|Korean|French|German|Spanish|Italian|Portuguese|Russian|Arabic|Hindi|Dutch|Swedish|Norwegian|Danish|Finnish|Polish|Greek|Turkish|Hebrew|Vietnamese|Thai|Indonesian|Malay|Tagalog|Swahili)';
/** Who tells the user what to eat. */
const DOCTOR_EN = 'doctor|doc|GP|physician|dentist|dietitian|dietician|nutritionist|cardiologist|allergist|endocrinologist|specialist';
/** What a doctor's limit says ("cut down on salt"; said with "not", only "eat" and "drink": "told me not to eat sugar"). */
const LIMIT_EN = 'cut down on|cut back on|cut out|avoid|stay away from|limit|reduce|stop eating|stop drinking|eat less|drink less|give up|quit|lay off';
const CANNOT_NOW = /\b(?:now|today|tonight|right|anymore|any ?more|it|this|that|these|those|anything|much|more|enough|without|yet|there|here)\b/i;
const ADV = '((?:really |absolutely |just |truly |also |totally |do |still )*)';
/** Third-person singular of the verbs the like and dislike rows know. */
const THIRD: Record<string, string> = {
  love: 'loves', like: 'likes', enjoy: 'enjoys', adore: 'adores', prefer: 'prefers', hate: 'hates', dislike: 'dislikes',
  "can't stand": "can't stand", 'cannot stand': 'cannot stand', "don't like": "doesn't like", 'do not like': 'does not like',
  "don't enjoy": "doesn't enjoy", "don't eat": "doesn't eat", 'never eat': 'never eats', "don't drink": "doesn't drink",
};
const verb = (v: string | undefined): string => THIRD[(v ?? '').toLowerCase()] ?? v ?? '';
const adverbs = (a: string | undefined): string => (a ?? '').replace(/\b(?:also|do|still) /gi, '').toLowerCase();

/** Who the user is: name, job, home, allergies, birthday, diet. */
const IDENTITY: readonly Pattern[] = [
  // Identity.
  {
    slot: 'name', kind: 'identity', importance: 0.9,
    re: re(`(?:[Mm]y name(?:'s| is)|${IM} called|${IM} named|(?:[Yy]ou can |[Pp]lease )?[Cc]all me|I go by) ${NAME}`, 'u'),
    build: (m) => ({ content: `The user's name is ${m[1]}`, value: m[1]! }),
  },
  // "my name is tom": typed in lower case, but said outright.
  {
    slot: 'name', kind: 'identity', importance: 0.9,
    re: re("[Mm]y name(?:'s| is) ([a-z][a-z'-]{1,20}(?: [a-z][a-z'-]{1,20})?)", 'u'),
    build: (m) => {
      if (NOT_LOWER_NAMES.test(m[1]!)) return undefined;
      const name = m[1]!.replace(/\b[a-z]/g, (c) => c.toUpperCase());
      return { content: `The user's name is ${name}`, value: name };
    },
  },
  // "Hi, I'm Amy": a capitalized word alone after "I'm", unless it is a state, a people or a faith.
  {
    slot: 'name', kind: 'identity', importance: 0.9,
    re: re(`${IM} ([A-Z][a-z'-]{1,20})`, 'u'),
    build: (m) => (NOT_NAMES_EN.test(m[1]!) ? undefined : { content: `The user's name is ${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'job', kind: 'identity', importance: 0.8,
    re: re('I work as (an? )?(.+?)'),
    build: (m) => ({ content: `The user works as ${m[1] ?? ''}${tail(m[2])}`, value: m[2]! }),
  },
  {
    slot: 'job', kind: 'identity', importance: 0.8,
    // "I'm now a software engineer at Stripe": a job that changed is still the job.
    re: re(`${IM} (?:now |currently |still )?(an? )${JOB}((?: at| for| in| from) .+?)?(?: now)?`),
    build: (m) => ({ content: `The user is ${m[1]}${m[2]}${tail(m[3])}`, value: m[2]! }),
  },
  {
    // "As a writer, my laptop is half my lifeline": the clause before the comma says what the user is.
    slot: 'job', kind: 'identity', importance: 0.8,
    re: re(`As (an? )${JOB}`),
    build: (m) => ({ content: `The user is ${m[1]}${m[2]}`, value: m[2]! }),
  },
  {
    slot: 'employer', kind: 'identity', importance: 0.8,
    re: re('I (?:currently |now )?work (at|for) (.+?)(?:,? (?:now|these days|currently))?'),
    build: (m) => ({ content: `The user works ${m[1]!.toLowerCase()} ${m[2]}`, value: m[2]! }),
  },
  {
    slot: 'home', kind: 'identity', importance: 0.8,
    // When the move was made says nothing against where the user lives now: "moved to Berlin last year" is a home in Berlin.
    re: re(`(?:I (?:currently |now )?live in|(?:I|[Ww]e)(?:'ve| have)? (?:just |recently )?moved to|${IM} (?:now )?based in) (.+?)(?:,? (?:last (?:year|month|week|summer|spring|fall|autumn|winter)|this (?:year|month|week)|in (?:\\d{4}|[A-Z][a-z]+(?: \\d{4})?)|(?:a|one|two|three|\\d+) (?:years?|months?|weeks?) ago))?`),
    build: (m) => ({ content: `The user lives in ${tail(m[1])}`, value: m[1]! }),
  },
  {
    slot: 'origin', kind: 'identity', importance: 0.7,
    re: re(`(?:${IM} (?:originally )?from|I come from|I grew up in) (.+?)`),
    build: (m) => ({ content: `The user is from ${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'allergy', kind: 'fact', importance: 0.8,
    re: re(`${IM} allergic to (.+?)`),
    build: (m) => (NOT_ALLERGENS.test(m[1]!) ? undefined : { content: `The user is allergic to ${tail(m[1])}`, value: m[1]! }),
  },
  {
    slot: 'allergy', kind: 'fact', importance: 0.8,
    re: re(`${IM} (lactose|gluten|fructose|alcohol) intolerant`),
    build: (m) => ({ content: `The user is ${m[1]!.toLowerCase()} intolerant`, value: m[1]!.toLowerCase() }),
  },
  {
    slot: 'allergy', kind: 'fact', importance: 0.8,
    re: re("I (?:can't|cannot|can not) (eat|have|drink) (.+?)"),
    // "I can't eat right now" is the moment, not the food.
    build: (m) => (CANNOT_NOW.test(m[2]!) ? undefined : { content: `The user can't ${m[1]!.toLowerCase()} ${tail(m[2])}`, value: m[2]! }),
  },
  {
    slot: 'allergy', kind: 'fact', importance: 0.8,
    re: re('I have (?:a |an )?([a-z][a-z -]{1,20}?) allergy'),
    build: (m) => ({ content: `The user has ${/^[aeiou]/i.test(m[1]!) ? 'an' : 'a'} ${m[1]!.toLowerCase()} allergy`, value: m[1]!.toLowerCase() }),
  },
  // "My doctor told me to cut down on salt": what the user must keep to, said by their doctor ("…to drink more water" is advice, not a limit).
  {
    slot: 'health', kind: 'fact', importance: 0.8,
    re: re(`(?:my|the) (${DOCTOR_EN}) (?:has |had )?((?:told|advised|asked|ordered|wants|wanted|recommended|said) (?:(?:me to|I (?:should|need to|have to|must)) (?:${LIMIT_EN})|(?:me not to|I (?:should not|shouldn't|must not|can't|cannot)) (?:eat|drink|have)) .+?)`),
    build: (m) => ({ content: `The user's ${m[1]!.toLowerCase()} ${tail(m[2])}`, value: m[2]!, limit: true }),
  },
  {
    slot: 'health', kind: 'fact', importance: 0.8,
    re: re(`${IM} (?:now )?(pregnant|expecting)`),
    build: (m) => ({ content: `The user is ${m[1]!.toLowerCase()}`, value: m[1]!.toLowerCase() }),
  },
  {
    slot: 'dislike', kind: 'preference', importance: 0.6,
    re: re(`${IM} ((?:really |so |very |a bit |kind of )?(?:afraid|scared|terrified|frightened)) of (.+?)`),
    build: (m) => (/^(?:it|that|this|you|them)\b/i.test(m[2]!) ? undefined : { content: `The user is ${m[1]!.toLowerCase()} of ${tail(m[2])}`, value: m[2]! }),
  },
  // The languages the user speaks: what to answer in, what to translate.
  {
    slot: 'study', kind: 'identity', importance: 0.7,
    re: re(`I (?:can )?(?:speak|am fluent in|'m fluent in) ((?:(?:a (?:little|bit of) )?${LANGUAGE_EN}(?:,? (?:and |a little |some )*)?)+)`),
    build: (m) => ({ content: `The user speaks ${m[1]!.trim()}`, value: m[1]!.trim() }),
  },
  {
    slot: 'bloodType', kind: 'identity', importance: 0.7,
    re: re('[Mm]y blood type(?:\'s| is) (AB|A|B|O)(?:[ -]?(positive|negative|\\+|-))?'),
    build: (m) => {
      const sign = m[2] === undefined ? '' : ` ${m[2] === '+' ? 'positive' : m[2] === '-' ? 'negative' : m[2].toLowerCase()}`;
      return { content: `The user's blood type is ${m[1]!.toUpperCase()}${sign}`, value: m[1]!.toUpperCase() };
    },
  },
  {
    slot: 'birthday', kind: 'identity', importance: 0.8,
    re: re(`(?:[Mm]y birthday(?:'s| is)(?: on)?|I was born on) ${BIRTH_DATE}`),
    build: (m) => ({ content: `The user's birthday is ${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'age', kind: 'identity', importance: 0.7,
    re: re(`${IM} ([1-9]\\d)(?: years old| yrs old| y/?o)?(?:,? (?:now|this year))?`),
    build: (m) => ({ content: `The user is ${m[1]} years old`, value: m[1]! }),
  },
  // The language the user wants replies in ("Please always answer me in English"; kept as "I want replies in English").
  {
    slot: 'replyLanguage', kind: 'preference', importance: 0.8,
    re: re(`(?:(?:please |can you |could you |pls )?(?:always |from now on,? )?(?:answer|reply|respond|talk|speak|write)(?: to)?(?: me)?(?: always)? in (${LANGUAGE_EN.slice(3, -1)})(?: from now on)?|I(?: want|'d like| would like| prefer)(?: you to (?:answer|reply|respond|talk|speak|write)| answers| replies| responses)? in (${LANGUAGE_EN.slice(3, -1)}))(?: please)?`),
    build: (m) => { const lang = (m[1] ?? m[2])!; return { content: `The user wants replies in ${lang.charAt(0).toUpperCase()}${lang.slice(1).toLowerCase()}`, value: lang.toLowerCase() }; },
  },
  // Diet: what every food suggestion has to respect.
  {
    slot: 'diet', kind: 'identity', importance: 0.8,
    // "i eat fish now so pescatarian": what the clause concludes is the diet.
    re: re(`(?:(?:${IM} (?:now |also |still )?|I (?:eat|have) [a-z ]{2,30},? so (?:I'm |now )?)(?:a |an )?(vegetarian|vegan|pescatarian)(?: now)?|I (?:don't|do not) eat (meat|animal products))`),
    build: (m) => ({ content: m[1] ? `The user is ${m[1].toLowerCase()}` : `The user doesn't eat ${m[2]!.toLowerCase()}`, value: (m[1] ?? m[2]!).toLowerCase() }),
  },
];

/** What the user likes and plans. */
const TASTES_AND_PLANS: readonly Pattern[] = [
  // Likes and dislikes.
  {
    slot: 'dislike', kind: 'preference', importance: 0.6,
    re: re(`I ${ADV}(hate|dislike|can't stand|cannot stand|don't like|do not like|don't enjoy|don't eat|never eat|don't drink) (.+?)`),
    build: (m) => (NOT_OBJECTS.test(m[3]!) ? undefined : { content: `The user ${adverbs(m[1])}${verb(m[2])} ${tail(m[3])}`, value: m[3]! }),
  },
  {
    slot: 'dislike', kind: 'preference', importance: 0.6,
    re: re(`${IM} not (?:a (?:big )?fan of|into) (.+?)`),
    build: (m) => ({ content: `The user is not a fan of ${tail(m[1])}`, value: m[1]! }),
  },
  // "I switched to tea": what the user has now instead of what they gave up.
  {
    slot: 'like', kind: 'preference', importance: 0.6,
    re: re("I(?:'ve| have)? (?:just |recently |now )?switched (?:over )?to (?!an? |the |my |it\\b|that\\b|this\\b)([a-z][a-z -]{1,24}?)(?: instead| now)?"),
    build: (m) => ({ content: `The user switched to ${m[1]}`, value: m[1]! }),
  },
  {
    slot: 'like', kind: 'preference', importance: 0.6,
    re: re(`I ${ADV}(love|like|enjoy|adore|prefer) (.+?)`),
    build: (m) => (NOT_OBJECTS.test(m[3]!) ? undefined : { content: `The user ${adverbs(m[1])}${verb(m[2])} ${tail(m[3])}`, value: m[3]! }),
  },
  {
    slot: 'like', kind: 'preference', importance: 0.6,
    re: re(`${IM} (?:a (?:big |huge )?fan of|into|passionate about|all about) (.+?)`),
    build: (m) => ({ content: `The user is a fan of ${tail(m[1])}`, value: m[1]! }),
  },
  // A favourite of a kind: one value for each kind ("my favorite movie is now Oppenheimer" replaces the one before).
  {
    slot: 'favorite', kind: 'preference', importance: 0.6,
    re: re('my fav(?:ou?rite)? (.+?) (?:is|has become|became)(?: now)? (.+?)(?:,? now)?'),
    build: (m) => {
      const what = m[1]!.toLowerCase().replace(/^film(?=s?$)/, 'movie');
      return { content: `The user's favorite ${tail(what)} is ${tail(m[2])}`, value: m[2]!, who: [what] };
    },
  },
  // Plans and decisions: "decided to" commits by itself, "going to" only with a time.
  {
    slot: 'plan', kind: 'plan', importance: 0.6,
    re: re(`I(?:'ve| have)? (?:also |still |finally |now )?(decided|plan|planned|am planning|'m planning) to (.+?)`),
    build: (m) => ({ content: `The user ${m[1]!.replace(/^'m|^am/, 'is').replace(/^plan$/, 'plans')} to ${tail(m[2])}`, value: m[2]! }),
  },
  {
    slot: 'plan', kind: 'plan', importance: 0.6,
    re: re(`${IM} (going to|gonna|about to|(?:\\w+ing)) (.+?)`),
    build: (m) => ({ content: `The user is ${m[1] === 'gonna' ? 'going to' : m[1]} ${tail(m[2])}`, value: m[2]!, needsTime: true }),
  },
  {
    slot: 'plan', kind: 'plan', importance: 0.6,
    re: re("I('ll| will| have to| need to) (.+?)"),
    build: (m) => ({ content: `The user ${/to$/.test(m[1]!) ? 'needs to' : 'will'} ${tail(m[2])}`, value: m[2]!, needsTime: true }),
  },
  // An appointment on a day: "I have a meeting at 3pm tomorrow" (and "Meeting at 3pm tomorrow", see clauses.ts).
  {
    slot: 'plan', kind: 'plan', importance: 0.6,
    re: re(`I(?:'ve| have)(?: got)? (an? (?:${APPOINTMENT_EN})) (.+?)`),
    build: (m) => ({ content: `The user has ${m[1]!.toLowerCase()} ${tail(m[2])}`, value: `${m[1]!.toLowerCase()} ${m[2]}`, needsTime: true }),
  },
];

export const EN_PATTERNS: readonly Pattern[] = [...EN_TODO_ACTIONS, ...EN_CHANGES, ...IDENTITY, ...EN_PEOPLE, ...TASTES_AND_PLANS, ...EN_TODO_REQUESTS];
