import { APPOINTMENT_EN, moveTarget, namesTime, thirdPerson, thirdSingular, type Pattern } from './candidate.js';

/**
 * English statements, one clause at a time ("my name is Bob", "I don't like cilantro"). The first
 * row that matches wins, so narrower rows ("no longer like") come before wider ones ("like").
 * Names must be capitalised, which keeps "call me tomorrow" from naming anyone "tomorrow".
 */

const END = '[.!~]*$';
const NAME = "([A-Z][\\p{L}'-]*(?: [A-Z][\\p{L}'-]*){0,2}|\\p{Script=Han}{1,4})";
const IM = "I(?:'m| am|m)";
/** Words after "my name is" in lower case that are no name ("my name is not important"). */
const NOT_LOWER_NAMES = /^(?:not|on|in|at|the|a|an|too|so|very|really|still|also|just|actually|kind|hard|long|weird|spelled|pronounced|written|unusual|common|private|secret|irrelevant|important|fine|what|mine|yours)\b/;
const JOB =
  '(.{0,30}?(?:engineer|developer|programmer|designer|doctor|nurse|teacher|professor|lawyer|accountant|manager|student|researcher|scientist|writer|journalist|editor|analyst|architect|consultant|founder|entrepreneur|chef|driver|artist|photographer|freelancer|director|officer|intern|dev|CTO|CEO|CFO|COO|SWE|SDE|(?<![\\d ]{2})PM(?= at | in | for |$)))';
const REL =
  '(wife|husband|partner|boyfriend|girlfriend|fianc[ée]e?|son|daughter|kids|children|mom|mum|mother|dad|father|brother|sister|grandma|grandmother|grandpa|grandfather)';
const PET = '(cat|dog|puppy|kitten|rabbit|bunny|hamster|parrot|bird|fish|turtle|guinea pig|golden retriever|retriever|labrador|poodle|corgi|husky|beagle|terrier)';
/** Not someone lost: a thing, a pointer, a relative (whose death the family rows read). */
const NOT_LOST = "(?:The|A|An|It|Him|Her|Them|My|Our|Some|Everything|All|Track|Weight|Touch|Grandpa|Grandma|Mom|Dad|Mum|Power|Game)\\b";
/** What opens a new job said as news: "I got a new job at", "I just started working for", "I've started at". */
const NEW_JOB_AT = "I(?:'ve| have)? (?:just |recently |finally |officially )?(?:(?:got|landed|accepted|took|started|began) (?:a |my |the )?new (?:job|position|role)|(?:got|landed|accepted|took) (?:a|the) (?:job|position|role)|(?:started|began|start) (?:working|to work|a (?:job|position|role))) (?:at|with|for)";
/** When, said after a job news ("last month", "yesterday"): kept in the memory, not in the workplace. */
const WHEN_EN = "((?:,? (?:last|this) (?:week|month|year|spring|summer|fall|autumn|winter)|,? yesterday|,? today|,? (?:a few|a couple of|two|three|\\d+) (?:days|weeks|months|years) ago))?";
/** A workplace is named: "Costco", "Google" (not "a place near me"). */
const startsName = (said: string): boolean => /^\p{Lu}|^\d/u.test(said.trim());
const COUNT = '(a|an|one|two|three|four|five|\\d+)';
/** An age said alone ("7", "7 years old"). */
const AGE_EN = '(\\d{1,2})(?: years old| yrs old| y/?o)?';
/** A child's age after their name: "Lily who is 7", "Ben (4)", "Lily, 7". */
const AGED = '(?:,? who(?:\'s| is) \\d{1,2}(?: years old)?| \\(\\d{1,2}\\)|, \\d{1,2}(?= and|,|$))?';
/** Not a thing liked or disliked: the listener ("love u", "like your answer"), a pointer, or a moment ("hate when that happens"). */
const NOT_OBJECTS = /^(?:you|u|ya|your|ur|yours|it|this|that|them|him|her|these|those|when|whenever)\b/i;
/** What one is "allergic to" in jest: a time, a chore, people ("allergic to mornings lol"). */
const NOT_ALLERGENS = /^(?:mornings?|mondays?|early mornings?|work|working|people|humans|adulting|exercise|effort|math|responsibilit(?:y|ies)|commitment|you|u|it|this|that|everything|life|stupidity|drama|cardio|chores|homework|meetings?|alarms?)\b/i;
const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
/** A day of the year: "May 3rd", "3 May", "the 3rd of May", "May 3, 1990". */
const BIRTH_DATE = `(${MONTH}\\.? \\d{1,2}(?:st|nd|rd|th)?(?:,? \\d{4})?|(?:the )?\\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH}(?:,? \\d{4})?)`;
const LANGUAGE_EN = '(?:English|Chinese|Mandarin|Cantonese|Japanese|Korean|French|German|Spanish|Italian|Portuguese|Russian|Arabic|Hindi|Dutch|Swedish|Norwegian|Danish|Finnish|Polish|Greek|Turkish|Hebrew|Vietnamese|Thai|Indonesian|Malay|Tagalog|Swahili)';
/** Capitalized words after "I'm" that are no name: states, peoples, faiths, politics. */
const NOT_NAMES_EN = new RegExp(
  `^(?:${[
    'Fine', 'Good', 'Great', 'Okay', 'Ok', 'Sorry', 'Back', 'Here', 'There', 'Home', 'Ready', 'Done', 'Sure', 'Glad', 'Happy', 'Sad', 'Tired', 'Busy', 'Free',
    'In', 'Out', 'Not', 'So', 'Just', 'Also', 'Still', 'The', 'Very', 'Really', 'Totally', 'Alright', 'All', 'Well', 'Sick', 'Late', 'Early', 'Excited',
    'Hungry', 'Bored', 'Cool', 'Awesome', 'Afraid', 'Scared', 'Lost', 'Stuck', 'Single', 'Married', 'Pregnant', 'Retired', 'Vegan', 'Vegetarian', 'Off',
    'On', 'Up', 'Down', 'Over', 'New', 'Old', 'Always', 'Never', 'Sometimes', 'Almost', 'Kinda', 'Pretty', 'Too', 'Bi', 'Gay', 'Straight', 'Trans',
    'American', 'Canadian', 'British', 'English', 'Chinese', 'Japanese', 'Korean', 'French', 'German', 'Italian', 'Spanish', 'Mexican', 'Indian',
    'Australian', 'Russian', 'Brazilian', 'Irish', 'Scottish', 'Welsh', 'Dutch', 'Swedish', 'Vietnamese', 'Thai', 'Filipino', 'Asian', 'European',
    'African', 'Latino', 'Latina', 'Hispanic', 'Christian', 'Muslim', 'Jewish', 'Buddhist', 'Catholic', 'Hindu', 'Atheist', 'Republican', 'Democrat',
    'Libertarian', 'Conservative', 'Liberal', 'Introverted', 'Extroverted', 'Introvert', 'Extrovert', 'Human',
  ].join('|')})$`,
);
const CANNOT_NOW = /\b(?:now|today|tonight|right|anymore|any ?more|it|this|that|these|those|anything|much|more|enough|without|yet|there|here)\b/i;
const ADV = '((?:really |absolutely |just |truly |also |totally |do |still )*)';

const re = (source: string, flags = 'iu'): RegExp => new RegExp(`^${source}${END}`, flags);
const tail = (text: string | undefined): string => thirdPerson(text ?? '', 'en');
/** Third-person singular of the verbs the like and dislike rows know. */
const THIRD: Record<string, string> = {
  love: 'loves', like: 'likes', enjoy: 'enjoys', adore: 'adores', prefer: 'prefers', hate: 'hates', dislike: 'dislikes',
  "can't stand": "can't stand", 'cannot stand': 'cannot stand', "don't like": "doesn't like", 'do not like': 'does not like',
  "don't enjoy": "doesn't enjoy", "don't eat": "doesn't eat", 'never eat': 'never eats', "don't drink": "doesn't drink",
};
const verb = (v: string | undefined): string => THIRD[(v ?? '').toLowerCase()] ?? v ?? '';
const adverbs = (a: string | undefined): string => (a ?? '').replace(/\b(?:also|do|still) /gi, '').toLowerCase();
/** Past forms of what one does about a todo, and their base form (the todo says "pay the rent"). */
const DONE_EN: Record<string, string> = {
  paid: 'pay', called: 'call', rang: 'call', took: 'take', taken: 'take', sent: 'send', submitted: 'submit', bought: 'buy', booked: 'book',
  renewed: 'renew', returned: 'return', 'picked up': 'pick', handed: 'hand', filed: 'file', mailed: 'mail', posted: 'post', emailed: 'email',
  texted: 'text', fed: 'feed', walked: 'walk', watered: 'water', cleaned: 'clean', fixed: 'fix', visited: 'visit', wrote: 'write',
  written: 'write', finished: '', did: '', done: '', completed: '', cancelled: 'cancel', canceled: 'cancel', scheduled: 'schedule', ordered: 'order',
};
const DONE_VERBS_EN = Object.keys(DONE_EN).join('|');
const baseVerb = (v: string): string => DONE_EN[v.toLowerCase()] ?? '';

export const EN_PATTERNS: readonly Pattern[] = [
  // A reminder called off ("stop reminding me to take my pills"): before the todo rows, which would read it as a request.
  {
    slot: 'stop-reminder', kind: 'todo', importance: 0.7,
    re: re("(?:please |you can )?(?:stop reminding|don't remind|do not remind|no need to remind|you don't need to remind|you do not need to remind) me (?:to |about |of )?(.+?)(?: anymore| any more)?"),
    build: (m) => ({ content: '', value: tail(m[1]) }),
  },
  // A todo called off ("cancel the rent reminder", "the dentist call is cancelled"); said of the world with no such todo, it is let be.
  {
    slot: 'stop-reminder', kind: 'todo', importance: 0.7,
    re: re('(?:please |can you |could you )?cancel (.+?)'),
    build: (m) => ({ content: '', value: tail(m[1]) }),
  },
  {
    slot: 'stop-reminder', kind: 'todo', importance: 0.7,
    re: re("(.+?) (?:is|was|has been|got|'s) (?:cancelled|canceled|called off)"),
    build: (m) => ({ content: '', value: tail(m[1]), quiet: !/\breminders?\b/i.test(m[1]!) }),
  },
  // "nevermind about the plumber": the todo is called off; said of nothing the user has, it is let be.
  {
    slot: 'stop-reminder', kind: 'todo', importance: 0.7,
    re: re('(?:oh )?never ?mind (?:about |on |the )?(.+?)'),
    build: (m) => (NOT_OBJECTS.test(m[1]!) ? undefined : { content: '', value: tail(m[1]), quiet: true }),
  },
  // A todo moved ("move the standup to 10am", "my dentist appointment got pushed to Friday"): before the todo rows too.
  {
    slot: 'move-todo', kind: 'todo', importance: 0.7,
    re: re("(?:please |can you |could you |(?:I|we)(?: have|'ve)? )?(?:move|moved|push|pushed|reschedule|rescheduled|change|changed|shift|shifted|postpone|postponed|bump|bumped)(?: back| forward| up)? (.+?) to (.+?)(?: instead)?"),
    build: (m) => { const to = moveTarget(m[2]!); return to ? { content: '', value: tail(m[1]), ...to } : undefined; },
  },
  {
    slot: 'move-todo', kind: 'todo', importance: 0.7,
    re: re("(.+?) (?:is|has been|was|got|'s) (?:moved|rescheduled|pushed(?: back)?|postponed|changed|shifted|bumped)(?: back| forward| up)? to (.+?)(?: instead)?"),
    build: (m) => { const to = moveTarget(m[2]!); return to ? { content: '', value: tail(m[1]), ...to } : undefined; },
  },
  // A todo done ("I've paid the rent", "I already called the dentist", "the report is done"): the verb must be the todo's too.
  {
    slot: 'todo-done', kind: 'todo', importance: 0.7,
    re: re(`(?:I(?:'ve| have)? )?(?:already |just |finally )(${DONE_VERBS_EN})(?: off| in)? (.+?)(?: already)?`),
    build: (m) => ({ content: '', value: tail(m[2]), doneVerb: baseVerb(m[1]!) }),
  },
  {
    slot: 'todo-done', kind: 'todo', importance: 0.7,
    re: re(`I(?:'ve| have) (${DONE_VERBS_EN})(?: off| in)? (.+?)(?: already)?`),
    build: (m) => ({ content: '', value: tail(m[2]), doneVerb: baseVerb(m[1]!) }),
  },
  // "I took my pills", "I called grandma": said plainly, every word must be the todo's (reconcile.ts); else it is only what the user did.
  {
    slot: 'todo-done', kind: 'todo', importance: 0.7,
    re: re(`I (${DONE_VERBS_EN})(?: off| in)? (.+?)(?: today| this morning| tonight| just now)?`),
    build: (m) => (baseVerb(m[1]!) === '' ? undefined : { content: '', value: tail(m[2]), doneVerb: baseVerb(m[1]!), wholeTask: true }),
  },
  {
    slot: 'todo-done', kind: 'todo', importance: 0.7,
    re: re("(?:(?:(?:I'm|I am) )?(?:all )?done with (.+?)|(.+?) (?:is|are|has been|have been|got) (?:done|finished|taken care of|sorted(?: out)?|handled)(?: already)?)"),
    build: (m) => ({ content: '', value: tail(m[1] ?? m[2]) }),
  },
  // A pet's death ("my dog Biscuit died yesterday", "Biscuit passed away last week"): its memory is retired (reconcile.ts).
  // A name alone is only the user's pet when a memory says so. (A relative's death is read by the family rows.)
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
  // Todos: the task keeps its time phrase; the extractor parses it.
  // "Wake me up at 7 tomorrow": a reminder to get up then.
  {
    slot: 'todo', kind: 'todo', importance: 0.7,
    re: re('(?:please |can you |could you |pls )?wake me(?: up)? (.+?)'),
    build: (m) => (namesTime(m[1]!) ? { content: '', value: 'wake up', task: `wake up ${m[1]}` } : undefined),
  },
  // "Set a reminder to call mom at 6", "Set a reminder for Friday at noon: lunch with Sarah".
  {
    slot: 'todo', kind: 'todo', importance: 0.7,
    re: re("(?:please |can you |could you |pls )?set (?:a|an|me a|up a) reminder (?:to|that|about) (.+?)"),
    build: (m) => ({ content: '', value: m[1]!, task: m[1]! }),
  },
  {
    slot: 'todo', kind: 'todo', importance: 0.7,
    re: re("(?:please |can you |could you |pls )?set (?:a|an|me a|up a) reminder (?:for |on |at )?(.+?)(?::\\s*|,\\s*| to | about )(.+?)"),
    build: (m) => ({ content: '', value: m[2]!, task: `${m[2]} ${m[1]}` }),
  },
  {
    slot: 'todo', kind: 'todo', importance: 0.7,
    re: re("(?:please |can you |could you |pls )?(?:remind me|don't let me forget|help me remember)(?: to| that| about|:)? (.+?)(?: please)?\\??"),
    // "remind me what's their name?" asks to be told, not reminded later.
    build: (m) => (/^(?:what|who|where|which|how|why)\b/i.test(m[1]!) ? undefined : { content: '', value: m[1]!, task: m[1]! }),
  },
  {
    slot: 'todo', kind: 'todo', importance: 0.7,
    re: re("(?:please )?(?:don't forget|remember|I (?:need|have) to remember) to (.+?)"),
    // "Don't forget to take care of yourself" is advice to the listener, not the user's task.
    build: (m) => (/\b(?:you|your|yourself|yourselves)\b/i.test(m[1]!) ? undefined : { content: '', value: m[1]!, task: m[1]! }),
  },
];
