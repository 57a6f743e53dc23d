import { thirdPerson, thirdSingular, type Pattern } from './candidate.js';

/**
 * First-person self-disclosure in English, after the core table (patterns-en.ts) found nothing:
 * what the user did, is doing or means to do, their people, work and study, health and
 * possessions. Precision first: the clause must start with the user ("I …", "my …") and say one
 * thing outright; questions, hypotheticals, and clauses about the listener never match (see
 * clauses.ts). Memories keep the user's own words in the third person.
 */

const END = '[.!~]*$';
const re = (source: string): RegExp => new RegExp(`^${source}${END}`, 'iu');
const tail = (text: string | undefined): string => thirdPerson(text ?? '', 'en');
/** Longer clauses are usually stories with several claims: left to a model. */
const MAX_WORDS = 28;
const words = (text: string): number => text.trim().split(/\s+/).length;
const ADV = '((?:just |recently |finally |actually |also |even |really |already |first |once |totally )*)';
const adverbs = (a: string | undefined): string => (a ?? '').replace(/\b(?:actually|also|even|really|totally) /gi, '').toLowerCase();
/** Objects that make a clause about the conversation, not the user's life. */
const VAGUE_WORDS = /^(?:it|them|you|your|so|a lot|lots|a ton|so much|a bit|to say|no idea|a question|an idea|the feeling|a feeling|fun|time|enough|something|anything|nothing|what|how|why)\b/i;
/**
 * "this", "that place", "these ones" point at the conversation; "this cool rainbow sidewalk for
 * Pride Month" names a thing of its own (two words or more after the demonstrative).
 */
const VAGUE = { test: (what: string): boolean => VAGUE_WORDS.test(what) || /^(?:this|that|these|those)(?:\s+\S+)?[\s.!,]*$/i.test(what) || /^(?:this|that|these|those)\s+(?:place|one|ones|thing|things|stuff|pic|photo|picture|way|time|day|week|moment|moments|idea)\b/i.test(what) };

/** Past-tense verbs of things a person does: each is an event in the user's life. */
const DID =
  '(went|visited|joined|started|finished|bought|adopted|took|made|painted|drew|ran|met|won|volunteered|attended|traveled|travelled|moved|graduated|quit|launched|opened|built|wrote|read|watched|played|tried|learned|learnt|hosted|organized|organised|completed|received|passed|lost|signed up for|got into|got back from|came back from|went back to|baked|cooked|planted|hiked|camped|climbed|danced|performed|sang|recorded|published|applied for|applied to|enrolled in|donated|raised|fixed|repaired|sold|rented|booked|found|picked up|gave|taught|helped|spoke at|competed in|participated in|celebrated|decorated|renovated|redid|set up|submitted|pitched|created|designed|came across|discovered|shut down|wore|earned|had a blast (?:at|with|on)|got)';
const WEEKDAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
/** Verbs of going, the ones after which "to" names a place. */
const GOING = /^(?:went|moved|traveled|travelled|went back)$/i;
const REL =
  "(friends?|best friend|family|kids|children|son|daughter|husband|wife|partner|boyfriend|girlfriend|mom|mum|mother|dad|father|parents|brother|sister|siblings|grandma|grandmother|grandpa|grandfather|aunt|uncle|cousin|boss|coworkers?|colleagues?|roommate|neighbou?r|team|students?|dog|cat|pets?)";
/** What a relative or friend did or does, said outright. */
const RELATION_VERB = /^(?:\w{3,}ed|went|got|made|took|had|came|gave|won|ran|began|taught|bought|built|loves?|likes?|enjoys?|lives?|works?|plays?|goes|wants?|studies|teaches|just)$/;
const HEALTH = '(a cold|the flu|covid|a fever|surgery|an injury|a broken \\w+|a sprained \\w+|asthma|diabetes|migraines?|anxiety|depression|insomnia|back pain|high blood pressure|allergies)';

/** "we"/"our" in the user's own sentence, about the user and their people. */
const ourTail = (text: string | undefined): string => tail(text).replace(/\bour\b/gi, 'their').replace(/\bus\b/gi, 'them').replace(/\bwe\b/gi, 'they');
/** -ing verbs that say how the conversation goes, not what the user does. */
const NOT_AN_ACTIVITY = /^(?:going|gonna|doing|feeling|thinking|trying|getting|looking|hoping|wondering|saying|telling|asking|talking|loving|kidding|guessing|having|missing|dying|sending|coming|being|living|glad|sorry|heading|counting|waiting|struggling|dealing|reading|checking|sharing|keeping|glowing|rooting|cheering|happy|curious|interested|excited|thrilled|stoked)$/i;
const LEAD = '(?:(?:recently|yesterday|today|last \\w+|this \\w+|lately),? )?';

export const EN_DISCLOSURE: readonly Pattern[] = [
  // Health.
  {
    slot: 'health', kind: 'fact', importance: 0.7,
    re: re(`I(?:'ve| have)? ${ADV}(have|had|got|caught|been diagnosed with|suffer from) ${HEALTH}(.*?)`),
    build: (m) => ({ content: `The user ${adverbs(m[1])}${m[2] === 'have' ? 'has' : m[2] === 'suffer from' ? 'suffers from' : m[2] === 'been diagnosed with' ? 'has been diagnosed with' : m[2]} ${m[3]}${tail(m[4])}`, value: m[3]!, past: m[2] !== 'have' && m[2] !== 'suffer from' }),
  },
  {
    slot: 'health', kind: 'fact', importance: 0.7,
    re: re(`I ${ADV}(hurt|broke|sprained|injured|twisted) my (.+?)`),
    build: (m) => ({ content: `The user ${adverbs(m[1])}${m[2]} their ${tail(m[3])}`, value: m[3]!, past: true }),
  },
  {
    slot: 'health', kind: 'fact', importance: 0.6,
    re: re(`I ${ADV}(wear glasses|wear contacts|wear contact lenses|don't smoke|do not smoke|quit smoking|quit drinking|stopped smoking|stopped drinking)`),
    build: (m) => ({ content: `The user ${adverbs(m[1])}${m[2]!.replace(/^wear/i, 'wears').replace(/^(?:don't|do not)/i, "doesn't")}`, value: m[2]!, past: /^(?:quit|stopped)/i.test(m[2]!) }),
  },
  {
    slot: 'health', kind: 'fact', importance: 0.6,
    re: re(`I(?:'m| am) ${ADV}(trying to lose weight|on a diet|trying to quit smoking|trying to gain weight)`),
    build: (m) => ({ content: `The user is ${adverbs(m[1])}${m[2]}`, value: m[2]! }),
  },
  // Traits: a sign, a hand, a place among siblings.
  {
    slot: 'trait', kind: 'identity', importance: 0.6,
    re: re(`I(?:'m| am) (?:a |an )?(Aries|Taurus|Gemini|Cancer|Leo|Virgo|Libra|Scorpio|Sagittarius|Capricorn|Aquarius|Pisces)`),
    build: (m) => ({ content: `The user is ${/^[AEIOU]/i.test(m[1]!) ? 'an' : 'a'} ${m[1]![0]!.toUpperCase()}${m[1]!.slice(1).toLowerCase()}`, value: m[1]! }),
  },
  {
    slot: 'trait', kind: 'identity', importance: 0.6,
    re: re(`I(?:'m| am) (left-handed|right-handed|ambidextrous|an only child|the oldest of \\w+|the youngest of \\w+|a twin)`),
    build: (m) => ({ content: `The user is ${m[1]!.toLowerCase()}`, value: m[1]! }),
  },
  {
    slot: 'height', kind: 'identity', importance: 0.5,
    re: re(`I(?:'m| am) (1\\d\\d ?cm|[4-7]'\\s?\\d{1,2}"?|[4-7] ?(?:ft|feet|foot)(?: ?\\d{1,2}(?: ?in(?:ches)?)?)?)(?: tall)?`),
    build: (m) => ({ content: `The user is ${m[1]} tall`, value: m[1]! }),
  },
  {
    slot: 'study', kind: 'fact', importance: 0.7,
    re: re(`I(?:'m| am) ${ADV}in (grad school|graduate school|med school|medical school|law school|college|high school|university|my (?:first|second|third|fourth|final|last) year (?:of|at) .+?)`),
    build: (m) => ({ content: `The user is ${adverbs(m[1])}in ${tail(m[2])}`, value: m[2]! }),
  },
  // Work and study.
  {
    slot: 'study', kind: 'fact', importance: 0.7,
    re: re(`I(?:'m| am) (?:currently |now )?(studying|learning|majoring in|taking (?:a |an )?(?:class|course|classes|courses) (?:in|on)|training (?:for|as)|working on|writing|building|saving (?:up )?for) (.+?)`),
    build: (m) => (VAGUE.test(m[2]!) || words(m[2]!) > 16 ? undefined : { content: `The user is ${m[1]!.toLowerCase()} ${tail(m[2])}`, value: m[2]! }),
  },
  {
    slot: 'study', kind: 'fact', importance: 0.7,
    re: re('I (study|teach|volunteer|coach|run|own|manage|play|practice|practise|write|paint|dance|sing|swim|cook|bake|knit) (.+?)'),
    build: (m) => (VAGUE.test(m[2]!) || words(m[2]!) > 14 ? undefined : { content: `The user ${thirdSingular(m[1]!.toLowerCase())} ${tail(m[2])}`, value: m[2]! }),
  },
  // Goals and wishes: the user's own intention, without a date.
  {
    slot: 'goal', kind: 'plan', importance: 0.6,
    re: re(`I(?:'m| am)? ${ADV}(want to|hope to|wanna|would love to|'d love to|aim to|intend to|'m hoping to|am hoping to|hoping to|'m thinking (?:about|of)|am thinking (?:about|of)|'m considering|am considering|'m looking forward to|am looking forward to|can't wait to) (.+?)`),
    build: (m) => {
      const what = m[3]!;
      if (VAGUE.test(what) || words(what) > 18 || /\b(?:you|your)\b/i.test(what)) return undefined;
      const verb = m[2]!.replace(/^'m |^am /, '').replace(/^wanna$/, 'want to').replace(/^'d love to$/, 'would love to');
      return { content: `The user ${/ing\b/.test(verb.split(' ')[0]!) ? `is ${verb}` : thirdSingular(verb)} ${tail(what)}`, value: what };
    },
  },
  {
    slot: 'goal', kind: 'plan', importance: 0.6,
    re: re('[Mm]y (goal|dream|plan) is to (.+?)'),
    build: (m) => (words(m[2]!) > 18 ? undefined : { content: `The user's ${m[1]!.toLowerCase()} is to ${tail(m[2])}`, value: m[2]! }),
  },
  // What the user has been doing.
  {
    slot: 'activity', kind: 'event', importance: 0.5,
    re: re(`I(?:'ve| have) ${ADV}been (\\w+ing) (.+?)`),
    build: (m) =>
      /^(?:thinking|feeling|wondering|meaning|trying|going through|dealing|looking)$/i.test(m[2]!) || VAGUE.test(m[3]!) || words(m[3]!) > 18
        ? undefined
        : { content: `The user has been ${m[2]!.toLowerCase()} ${tail(m[3])}`, value: `${m[2]} ${m[3]}` },
  },
  {
    // "I've been busy with writing projects and really going all out with it": what keeps them busy, without the comment.
    slot: 'activity', kind: 'event', importance: 0.5,
    re: re(`I(?:'ve| have) ${ADV}been (?:so |really |super )?busy with (.+?)(?: and (?:really |also |just |totally )?\\w+ing\\b.*)?`),
    build: (m) => (VAGUE.test(m[2]!) || words(m[2]!) > 10 || /\b(?:you|your|stuff|things)\b/i.test(m[2]!) ? undefined : { content: `The user has been busy with ${tail(m[2])}`, value: m[2]! }),
  },
  // What the user did: one event in their life.
  {
    slot: 'activity', kind: 'event', importance: 0.5,
    re: re(`(?:(?:last|this|yesterday|today|on)[\\w ]{0,20}?,? )?I ${ADV}${DID} (.+?)`),
    build: (m) => {
      const what = m[3]!;
      if (VAGUE.test(what) || words(what) > MAX_WORDS || /^(?:it|back|used|over|up|my point)\b/i.test(what) || /\byou(?:r)?\b/i.test(what)) return undefined;
      // "to" + a place after a verb of going ("went to a support group"); otherwise an infinitive ("tried to").
      if (/^to\b/i.test(what) && !GOING.test(m[2]!)) return undefined;
      // "got" alone is too loose ("got it", "got to say"); only "got" + a thing ("got a new job").
      if (m[2]!.toLowerCase() === 'got' && !/^(?:a|an|my|our|some|two|three|new|the chance|engaged|married|promoted|hired|accepted|mentored|into)\b/i.test(what)) return undefined;
      return { content: `The user ${adverbs(m[1])}${m[2]!.toLowerCase()} ${tail(what)}`, value: `${m[2]} ${what}`, past: true };
    },
  },
  // The user's people.
  {
    slot: 'relation', kind: 'person', importance: 0.6,
    re: re(`[Mm]y ${REL} (?:and I )?(\\w+) (.+?)`),
    build: (m) => {
      const verb = m[2]!.toLowerCase();
      if (!RELATION_VERB.test(verb) || VAGUE.test(m[3]!) || words(m[3]!) > 20) return undefined;
      return { content: `The user's ${m[1]!.toLowerCase()} ${verb} ${tail(m[3])}`, value: `${m[1]} ${verb} ${m[3]}`, past: /(?:ed|went|got|made|took|had|came|gave|won|ran|began|taught|bought|built)$/.test(verb) };
    },
  },
  // What the user and their people did together ("We went to a homeless shelter", "Anna and I were sitting by the sea").
  {
    slot: 'activity', kind: 'event', importance: 0.5,
    re: re(`${LEAD}[Ww]e ${ADV}${DID} (.+?)`),
    build: (m) => {
      const what = m[3]!;
      if (VAGUE.test(what) || words(what) > MAX_WORDS || /^(?:it|back|used|over|up|all|for|until|till|again|together|so)\b/i.test(what) || /\byou(?:r)?\b/i.test(what) || m[2]!.toLowerCase() === 'got') return undefined;
      if (/^to\b/i.test(what) && !GOING.test(m[2]!)) return undefined;
      return { content: `The user and others ${adverbs(m[1])}${m[2]!.toLowerCase()} ${ourTail(what)}`, value: `${m[2]} ${what}`, past: true };
    },
  },
  {
    slot: 'relation', kind: 'event', importance: 0.5,
    re: re(`${LEAD}((?:[Mm]y \\w+)|[A-Z][a-z]+) and I (?:were |are )?${ADV}(${DID.slice(1, -1)}|\\w+ing) (.+?)`),
    build: (m) => {
      const who = m[1]!;
      const what = m[4]!;
      if (/^(?:you|he|she|they|it|this|that)$/i.test(who) || VAGUE.test(what) || words(what) > 20 || /\byou(?:r)?\b/i.test(what)) return undefined;
      const verb = m[3]!.toLowerCase();
      const ing = /ing$/.test(verb);
      return { content: `The user and ${tail(who)} ${ing ? 'were ' : ''}${adverbs(m[2])}${verb} ${ourTail(what)}`, value: `${who} ${verb} ${what}`, past: true };
    },
  },
  // What the user is busy with now: "I'm prepping for my dance studio".
  {
    slot: 'activity', kind: 'fact', importance: 0.5,
    re: re(`${LEAD}I(?:'m| am) ${ADV}(?:busy )?(\\w+ing) (.+?)`),
    build: (m) => {
      const verb = m[2]!;
      const what = m[3]!;
      if (NOT_AN_ACTIVITY.test(verb) || VAGUE.test(what) || words(what) < 2 || words(what) > 16 || /\b(?:you|your)\b/i.test(what) || /^(?:myself|ourselves|hopeful|positive|strong|busy|well|good|great)\b/i.test(what)) return undefined;
      return { content: `The user is ${verb.toLowerCase()} ${tail(what)}`, value: `${verb} ${what}` };
    },
  },
  // Habits and the past: "I used to go horseback riding", "I stay in shape by hitting the gym".
  // A fixed slot of the user's week ("I have yoga every Tuesday evening", "I take piano lessons on Saturdays").
  {
    slot: 'habit', kind: 'pattern', importance: 0.6,
    // "I go to the gym every Monday and Thursday at 7pm": the days may be a list, and a time of day may follow.
    re: re(`I ${ADV}(have|do|go to|attend|take) (.+?) ((?:every (?:day|morning|afternoon|evening|night|week|weekend|month|${WEEKDAY}(?:(?:,| and| &|, and) ${WEEKDAY})*)(?: (?:morning|afternoon|evening|night))?|on ${WEEKDAY}s(?: (?:mornings?|afternoons?|evenings?|nights?))?)(?:,? at \\d{1,2}(?::\\d{2})? ?(?:am|pm)?)?)`),
    build: (m) => (VAGUE.test(m[3]!) ? undefined : { content: `The user ${adverbs(m[1])}${thirdSingular(m[2]!)} ${tail(m[3])} ${m[4]}`, value: m[3]! }),
  },
  {
    slot: 'habit', kind: 'fact', importance: 0.5,
    re: re(`I ${ADV}(used to|make sure to|always|usually|often|stay in shape by|unwind by|relax by) (.+?)`),
    build: (m) => {
      const what = m[3]!;
      if (VAGUE.test(what) || words(what) > 18 || /\b(?:you|your|something|anything|stuff)\b/i.test(what) || /^(?:be|feel|think|say|get)\b/i.test(what)) return undefined;
      const verb = m[2]!.toLowerCase();
      const said = verb === 'used to' ? 'used to' : verb.startsWith('make') ? 'makes sure to' : /^(?:always|usually|often)$/.test(verb) ? verb : thirdSingular(verb);
      return { content: `The user ${said} ${tail(what)}`, value: what };
    },
  },
  {
    slot: 'like', kind: 'preference', importance: 0.6,
    re: re(`I(?:'ve| have) ${ADV}been (?:into|passionate about|a fan of|obsessed with) (.+?)`),
    build: (m) => (VAGUE.test(m[2]!) || words(m[2]!) > 16 ? undefined : { content: `The user has been into ${tail(m[2])}`, value: m[2]! }),
  },
  // "I drive a Tesla": the car the user drives.
  {
    slot: 'possession', kind: 'fact', importance: 0.5,
    re: re(`I ${ADV}(drive|own) (a|an|two|three) (.+?)`),
    build: (m) => (VAGUE.test(m[4]!) || words(m[4]!) > 6 || /^(?:lot|bit|little|hard bargain|ton)\b|\b(?:you|your)\b/i.test(m[4]!) ? undefined : { content: `The user ${adverbs(m[1])}${m[2]!.toLowerCase() === 'drive' ? 'drives' : 'owns'} ${m[3]!.toLowerCase()} ${tail(m[4])}`, value: m[4]! }),
  },
  {
    slot: 'possession', kind: 'fact', importance: 0.5,
    re: re(`I(?:'ve| have) ${ADV}got (a|an|two|three|some|lots of|a lot of|a few|my own) (.+?)`),
    build: (m) => (VAGUE.test(m[3]!) || words(m[3]!) > 14 || /\b(?:you|your|question|feeling|point|idea|chance)\b/i.test(m[3]!) ? undefined : { content: `The user has ${m[2]!.toLowerCase()} ${tail(m[3])}`, value: m[3]! }),
  },
  {
    slot: 'goal', kind: 'plan', importance: 0.6,
    re: re(`I(?:'m| am) ${ADV}(planning|looking) (to|a|an|on) (.+?)`),
    build: (m) => {
      const what = `${m[3]} ${m[4]}`;
      if (VAGUE.test(m[4]!) || words(m[4]!) > 18 || /\b(?:you|your)\b/i.test(m[4]!) || (m[2] === 'looking' && m[3] !== 'to')) return undefined;
      return { content: `The user is ${m[2]!.toLowerCase()} ${tail(what)}`, value: what };
    },
  },
  // What the user and their people like: "We love having movie marathons with our friends".
  {
    slot: 'like', kind: 'preference', importance: 0.6,
    re: re(`[Ww]e ${ADV}(love|enjoy|like|adore) (.+?)`),
    build: (m) => (VAGUE.test(m[3]!) || words(m[3]!) > 14 || /\b(?:you|your|it|that|this)\b/i.test(m[3]!) ? undefined : { content: `The user and their people ${adverbs(m[1])}${m[2]!.toLowerCase()} ${ourTail(m[3])}`, value: m[3]! }),
  },
  // Likes said another way.
  {
    slot: 'like', kind: 'preference', importance: 0.6,
    re: re("([A-Za-z][\\w' -]{2,30}?) (?:is|are) what I live for"),
    build: (m) => ({ content: `The user lives for ${m[1]!.toLowerCase()}`, value: m[1]! }),
  },
  {
    slot: 'like', kind: 'preference', importance: 0.6,
    re: re(`I ${ADV}(loved|enjoyed|liked) (.+?)`),
    build: (m) => (VAGUE.test(m[3]!) || words(m[3]!) > 16 || /\b(?:you|your)\b/i.test(m[3]!) ? undefined : { content: `The user ${adverbs(m[1])}${m[2]!.toLowerCase()} ${tail(m[3])}`, value: m[3]!, past: true }),
  },
  {
    slot: 'study', kind: 'fact', importance: 0.6,
    re: re(`I(?:'m| am) (?:now |officially |finally )?(?:part of|a member of|a volunteer (?:at|for|with)|volunteering (?:at|for|with)|enrolled (?:in|at)) (.+?)`),
    build: (m) => (words(m[1]!) > 12 ? undefined : { content: `The user is ${m[0]!.replace(/^I(?:'m| am) /i, '').replace(/[.!~]+$/, '')}`, value: m[1]! }),
  },
  {
    slot: 'like', kind: 'preference', importance: 0.6,
    // What follows a comma comments on it ("Blue's my fave, it makes me feel relaxed"); the favourite stands.
    re: re("(.{2,40}?)(?: is| are|'s| was) (?:totally |definitely |really |also |mostly |one of )?my (?:fav(?:ou?rite)?|fave|favou?rite thing|passion|jam|thing)(?: ([^,]{1,20}))?(?:, .{1,80})?"),
    build: (m) => (/^(?:it|that|this|which|what|you)\b/i.test(m[1]!) ? undefined : { content: `The user's favorite${m[2] ? ` ${tail(m[2])}` : ''} is ${tail(m[1])}`, value: m[1]! }),
  },
  {
    slot: 'like', kind: 'preference', importance: 0.6,
    re: re('([A-Za-z][\\w\' -]{2,40}?) (makes|make|made|brings|bring|brought|gives|give) me (?:so |really |very |such |tons of |so much |a lot of |lots of )?(happy|joy|joyful|calm|relaxed|alive|peace)(?: and \\w+)?(?:, .{1,80})?'),
    build: (m) => {
      if (/^(?:it|that|this|you|which|what|they|he|she|seeing|hearing)\b/i.test(m[1]!)) return undefined;
      // The verb agrees with the user's own: "Video games give me joy" → "Video games bring the user joy".
      const plural = /^(?:make|bring|give)$/i.test(m[2]!);
      const verb = /^(?:joy|peace)$/i.test(m[3]!) ? (plural ? 'bring' : 'brings') : plural ? 'make' : 'makes';
      return { content: `${m[1]!.charAt(0).toUpperCase()}${m[1]!.slice(1)} ${verb} the user ${m[3]!.toLowerCase()}`, value: m[1]! };
    },
  },
];
