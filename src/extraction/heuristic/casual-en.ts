/**
 * English as chat types it ("im a teacher", "dont let me forget…", "my dogs name is max", "…btw"),
 * spelled out the standard way so the pattern tables read it as they read the rest.
 */

/** Contractions typed without their apostrophe, and "i" in lower case. "wont", "ill", "id", "were" are words of their own. */
const BARE_CONTRACTIONS: Readonly<Record<string, string>> = {
  im: "I'm", ive: "I've", dont: "don't", cant: "can't", doesnt: "doesn't", didnt: "didn't", isnt: "isn't", wasnt: "wasn't", havent: "haven't",
};
const BARE_CONTRACTION = /\b(im|ive|dont|cant|doesnt|didnt|isnt|wasnt|havent)\b(?!['-]\w)/giu;
/**
 * What chat misspells in the words the tables read most ("alergic", "fave", "bday"), and "I'm"
 * typed broken ("I'am"; "I;m" is mended in clauses.ts, before ";" ends a sentence). The user's own
 * words for things ("suhsi", "seatle") stay as said: no list here knows their spelling better.
 */
const MISSPELT: Readonly<Record<string, string>> = {
  alergic: 'allergic', allergick: 'allergic', alergy: 'allergy', alergies: 'allergies', fave: 'favorite', favorit: 'favorite', favourit: 'favourite',
  favrite: 'favorite', favorate: 'favorite', bday: 'birthday', 'b-day': 'birthday', birtday: 'birthday', bithday: 'birthday', "i'am": "I'm",
};
const MISSPELLING = new RegExp(`(?<![\\w'-])(${Object.keys(MISSPELT).join('|')})(?![\\w'-])`, 'giu');
/** "i" alone or before its contraction ("i'm"), not "i.e.". */
const LOWER_I = /\bi\b(?!\.\w)/gu;
/** "my dogs name is max": the possessive without its apostrophe. */
const BARE_POSSESSIVE = /\b([Mm]y [a-z]+?)s name(?= is\b)/gu;
/** What closes a chat line and says nothing: "btw", "lol", "pls remember that", an emoticon or emoji. */
const TRAILING_FILLER = /(?:^|[\s,.!~]+)(?:btw|by the way|lol|lmao|haha+|hehe+|fyi|tbh|xd|(?:pls |please )?remember (?:that|this)|(?:pls |please )?(?:note|keep in mind) (?:that|this)|[:;]-?[()DPp]|\p{Extended_Pictographic}\uFE0F?)[\s.!~]*$/iu;

/** Days as chat types them: "tmrw", "2nite", "nxt week". */
const CHAT_DAYS: Readonly<Record<string, string>> = { tmrw: 'tomorrow', tmr: 'tomorrow', tmrrw: 'tomorrow', tmrow: 'tomorrow', tomoz: 'tomorrow', '2morrow': 'tomorrow', '2day': 'today', tdy: 'today', '2nite': 'tonight', tonite: 'tonight', nxt: 'next', wknd: 'weekend' };
const CHAT_DAY = /(?<![\w'])(tmrw|tmr|tmrrw|tmrow|tomoz|2morrow|2day|tdy|2nite|tonite|nxt|wknd)(?![\w'])/giu;
/**
 * "In two weeks I need to renew my passport", "next week I have to finish the report": a time said
 * first, with no comma, before what the user needs or plans to do goes after it, where the pattern
 * tables read it ("I need to renew my passport in two weeks").
 */
const TIME_FIRST =
  /^((?:in (?:a|an|one|two|three|four|five|six|a few|\d+) (?:days?|weeks?|months?|hours?)|next (?:week|month|year|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|tomorrow(?: morning| afternoon| evening| night)?|tonight|later today|this (?:week|weekend|morning|afternoon|evening)|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))(?: (?:at|by) \d{1,2}(?::\d{2})? ?(?:am|pm)?)?) (I (?:need|have|must|gotta|got to|should|'m going|am going|'m gonna|plan|'ll|will)\b.+?)([.!]*)$/iu;

/** The sentence with its bare contractions, possessives and misspellings spelled out ("im" → "I'm", "dogs name" → "dog's name", "alergic" → "allergic"). */
export function spellOutCasual(sentence: string): string {
  return sentence
    .replace(MISSPELLING, (word: string) => MISSPELT[word.toLowerCase()] ?? word)
    .replace(LOWER_I, 'I')
    .replace(BARE_CONTRACTION, (word: string) => BARE_CONTRACTIONS[word.toLowerCase()] ?? word)
    .replace(BARE_POSSESSIVE, (_, owner: string) => `${owner}'s name`)
    .replace(CHAT_DAY, (word: string) => CHAT_DAYS[word.toLowerCase()] ?? word)
    .replace(TIME_FIRST, (_all, when: string, what: string, end: string) => `${what} ${when.charAt(0).toLowerCase()}${when.slice(1)}${end}`);
}

/** The clause without the filler that closes it ("i'm lactose intolerant btw"); a clause that is only filler stays. */
export function dropTrailingFiller(clause: string): string {
  for (let left = clause; ; ) {
    const m = TRAILING_FILLER.exec(left);
    if (!m || m.index === 0) return left;
    left = left.slice(0, m.index);
  }
}

/** A list the user goes on with in the next sentence ("allergic to penicillin. also shellfish"): its opening words. */
const LIST_HEAD = /^(?:I'm allergic to|I can't eat|I don't eat|I'm afraid of|I (?:really )?(?:love|like|hate))(?= )/iu;
/** "also shellfish", "and peanuts too": one to three words going on with that list. */
const GOES_ON =
  /^(?:(?:and |plus |oh and )?also |and |plus )((?!(?:I|me|my|you|it|that|this|so|very|really|not|the|a|an)\b)[a-z][a-z-]*(?: [a-z][a-z-]*){0,2}?)(?: too| as well)?[.!~]*$|^((?!(?:I|me|my|you|it|that|this|so|very|really|not|the|a|an)\b)[a-z][a-z-]*(?: [a-z][a-z-]*){0,2}?) (?:too|as well)[.!~]*$/iu;

/** The opening words of a list the clause starts, if it starts one. */
export function listHead(clause: string): string | undefined {
  return LIST_HEAD.exec(clause)?.[0];
}

/** "also shellfish" after "I'm allergic to penicillin" says "I'm allergic to shellfish"; undefined when it goes on with nothing. */
export function goOnWithList(clause: string, head: string | undefined): string | undefined {
  const m = head === undefined ? null : GOES_ON.exec(clause);
  return m ? `${head} ${m[1] ?? m[2]}` : undefined;
}
