/**
 * The English half of `readForgetRequest` (forget-request.ts): whether one clause asks the
 * assistant to forget something, and what. "forget X" is mostly "never mind X" in English ("forget
 * the meeting", "forget about the party, let's talk about work"), so "forget" alone asks only of
 * what was told ("forget what I told you about the party"), of someone of the past or the user's
 * own data ("forget my ex", "forget my address"), of someone just named ("Sarah and I broke up.
 * Forget about her."), or of a bare name that is the whole message ("Forget Sarah."). Deleting,
 * "don't remember" and "stop remembering" ask in any case.
 */
import { LEAD } from './forget-leads.js';

const SAID = String.raw`(?:(?:everything|anything|all|what|whatever|the (?:stuff|things?)|all (?:the )?(?:stuff|things))\s+(?:(?:that\s+)?i(?:'ve| have)?\s+(?:told|said to|mentioned to|shared with|said)(?:\s+you)?\s+)?)`;
/** What "don't remember" / "stop remembering" may be said of before "about X": "anything", "the stuff I told you". */
const KEPT = String.raw`(?:anything|everything|what i (?:said|told you)|(?:all )?(?:the )?(?:stuff|things)(?: i (?:said|told you))?)`;
const KEEP = String.raw`(?:remember|keep|store|save)`;
/** "don't", or "I don't want you to" ("I don't want you to forget my birthday" asks the opposite: it takes "remember"). */
const DONT = String.raw`(?:don'?t|do not|never|i (?:don'?t|do not|no longer) want you to)`;
/** Someone of the user's whose things may be asked about: "my wife's birthday", "my mom's number". */
const KIN = String.raw`(?:wife|husband|mom|mum|mother|dad|father|son|daughter|sister|brother|girlfriend|boyfriend|partner|fianc[ée]e?|boss|grandma|grandmother|grandpa|grandfather|ex)`;
/** What of theirs a bare "forget my wife's …" asks about: their data, not "forget my mom's cooking". */
const THEIR_THINGS = String.raw`(?:birthday|(?:home |email |work )?address|(?:phone|cell|mobile)(?: number)?|number|email|anniversary|allerg(?:y|ies)|job|salary|health|illness|diagnosis|medications?|surgery|pregnancy|age|weight|password)`;
/** "my wife's birthday" → wife, birthday: someone else's thing (`ForgetRequest.of`). */
const THEIRS = new RegExp(String.raw`^(?:(?:about|that|this)\s+)*my\s+(?<of>${KIN})['’]s\s+(?<thing>.+)$`, 'iu');
/** The user's own data, and someone of their past: "my address", "my phone number", "my ex". */
const MY_OWN = String.raw`my\s+(?:ex\b|ex-|former\b|(?:home |email |work )?address\b|(?:phone|cell|mobile)(?: number)?\b|number\b|email\b|birthday\b|password\b|salary\b|${KIN}['’]s\s+${THEIR_THINGS}\b)`;
const REQUESTS: readonly RegExp[] = [
  // delete my address from your memory
  new RegExp(String.raw`^${LEAD}(?:delete|erase|remove|wipe|forget)\s+(?<topic>.+?)\s+from\s+(?:your\s+)?(?:memory|memories|records?|notes|database)(?:[\s,]+(?:please|pls|plz|now|thanks|thank you))*$`, 'iu'),
  // forget what I told you about X / forget everything about X / forget my ex ("forget about the party" alone is "never mind": BARE_ASKS)
  new RegExp(String.raw`^${LEAD}forget\s+(?<said>${SAID})?(?<about>(?:about|regarding|of)\s+)?(?<topic>.+)$`, 'iu'),
  // don't remember anything about X / I don't want you to keep anything about X
  new RegExp(String.raw`^${LEAD}${DONT}\s+${KEEP}\s+(?:(?<said>${KEPT})\s+(?<about>(?:about|regarding|on)\s+)?|(?:about|regarding)\s+)(?<topic>.+)$`, 'iu'),
  // don't remember my phone number anymore / I don't want you to remember my address: only the user's own
  // data ("don't remember the name of that place" is the user's own memory, "… to remember my name" names nothing)
  new RegExp(String.raw`^${LEAD}${DONT}\s+(?:remember|store|memorize)\s+(?<topic>${MY_OWN}.*)$`, 'iu'),
  // stop remembering X
  new RegExp(String.raw`^${LEAD}stop\s+(?:remembering|keeping|storing|saving)\s+(?:${KEPT}\s+)?(?:(?:about|regarding|on)\s+)?(?<topic>.+)$`, 'iu'),
  // pretend I never told you about X
  new RegExp(String.raw`^${LEAD}pretend (?:that )?i never (?:told you|said|mentioned)(?:\s+anything)?\s+(?<said>about\s+)(?<topic>.+)$`, 'iu'),
  // delete everything you know about X / erase your memories of X
  new RegExp(String.raw`^${LEAD}(?:delete|erase|remove|wipe|purge|clear)\s+(?<said>(?:everything|anything|all|what|whatever)(?:\s+(?:you know|you remember|you have|you've got|you saved|you stored|i told you|i said))?|(?:all\s+)?(?:of\s+)?(?:(?:your|the|my)\s+)?(?:memories|memory|info|information|notes|data))\s+(?<about>(?:about|of|on|regarding)\s+)(?<topic>.+)$`, 'iu'),
  // delete my number / erase my address: the user's own number or address, said to the assistant that keeps it
  new RegExp(String.raw`^${LEAD}(?:delete|erase|remove|wipe)\s+(?<topic>my\s+(?:${KIN}['’]s\s+)?(?:(?:home\s+)?address|(?:phone|cell|mobile)(?:\s+number)?|number|email|birthday))(?:[\s,]+(?:please|pls|plz|now|too|as well))*$`, 'iu'),
];
const FORGET = REQUESTS[1];
const TOPIC_TAIL = /(?:[\s,]+(?:please|pls|plz|too|as well|for me|from (?:your )?memory|anymore|any more|ok|okay|thanks|thank you|right now|now|forever|completely|entirely))+$/iu;
const TOPIC_HEAD = /^(?:(?:my|our|the|about|that|this)\s+)+/iu;
/** A topic that points instead of naming, the user, everything, or what was just said ("forget what I said" takes it back). */
const PRONOUN =
  /^(?:.|it|that|this|them|him|her|those|these|me|myself|us|you|(?:the |a )?users?|(?:(?:this|that|the|our|whole) )*(?:conversations?|chats?|sessions?)|everything|all|anything|something|stuff|all that|all of it|all of that|what i said|(?:what |that )?i (?:ever |once |just |have |'ve )?(?:said|told you|mentioned|wrote|typed)(?: (?:it|that|this|anything|something|earlier|before|just now))?|to\b.*|about it|about that|that i said\b.*)$/iu;
/**
 * What a bare "forget X" asks about: what was said ("forget I ever mentioned Sarah"), someone of
 * the past ("forget my ex") or the user's own data ("forget my address", "forget where I live").
 */
const BARE_ASKS = new RegExp(String.raw`^(?:about\s+)?(?:(?:that\s+)?i\s+(?:ever\s+|once\s+)?(?:said|told you|mentioned|talked)\b|where i live$|${MY_OWN})`, 'iu');
// "forget my phone at home", "forget my ex for now" (never mind), "stop remembering things": a thing left somewhere, a "for now", or nothing in
// particular; "forget what I told you yesterday" names a time (forgetting the word would erase every turn that says it, not what was said then).
const NOT_A_TOPIC = /^(?:to|how|what|where(?! i live$)|why|when|whether|if|i)\b|\b(?:if|when|unless|because|until|so that|from my|on my|in my)\b|—|--|\s(?:for|at|in|on|again)(?:\s+\S+)?$|^(?:things|data|info|information|details|memories|everything about me|my data)$/iu;
/** A time, not a topic: "yesterday", "what I said last night". */
export const EN_TIME =
  /^(?:what (?:i said|happened) )?(?:yesterday|today|tonight|earlier|recently|the other day|(?:(?:last|this|yesterday|on|on the|every) )?(?:night|morning|afternoon|evening|week|weekend|month|year|time|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|\d+ (?:minutes?|hours?|days?|weeks?|months?|years?) ago|(?:a|an|one|two|three|a few|a couple of) (?:minutes?|hours?|days?|weeks?|months?|years?) ago|(?:earlier|later) (?:today|this week))$/iu;
/**
 * Where or when something was said, not a topic: "at lunch", "on the phone", "in the car", "over
 * dinner" ("forget what I told you at lunch" erased the lunch habit and "on the phone" the phone number).
 */
const SAID_WHERE = /^(?:at|on|in|over|during|by|via|through|from|since) /iu;
/** "Forget Sarah.": a name, capitalized as names are, or in a request its writer types all in lowercase ("forget sarah"). */
const NAME = /^\p{Lu}[\p{L}'-]*\p{Ll}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*\p{Ll}[\p{L}'-]*){0,2}$/u;
const LOWER_NAME = /^\p{Ll}{2,}$/u;
/**
 * Words "forget X" is "never mind X" of, even capitalized: times, meals, plans, chores, family
 * ("forget mom" alone is not "forget my mother"), apps, talk itself ("forget topic"). An everyday
 * word not listed here, typed in lowercase, would be misread as a name: the list is what keeps the
 * bare reading safe, so it errs long.
 */
const NOT_A_NAME = new Set(
  [
    'today tonight tomorrow yesterday later morning afternoon evening night weekend week month year',
    'monday tuesday wednesday thursday friday saturday sunday christmas xmas easter thanksgiving halloween',
    'january february march april may june july august september october november december',
    'breakfast brunch lunch dinner supper dessert coffee tea drink drinks beer wine pizza food snack snacks',
    'work job school class classes college homework gym practice training shopping groceries dishes laundry chores',
    'rent bills taxes plan plans trip party meeting appointment movie movies game games date dating exam exams test tests math',
    'sleep love life money people guys men women boys girls kids family friends politics news diet',
    'mom mum dad mother father sister brother grandma grandpa boss ex',
    'email emails instagram facebook twitter tiktok netflix youtube google amazon reddit whatsapp wechat',
    'topic subject question questions idea point thought thing things one list step part rest details',
    'name number password code file message messages text reminder alarm todo task tasks',
    'the a an my our your his their',
  ].flatMap((line) => line.split(' ')),
);

/**
 * The topic one English clause asks to forget. `alone` marks a bare name ("Forget Sarah."): it
 * asks only when it is the whole message, since "Forget Sarah, she's not coming anyway" is
 * "never mind Sarah". `before` is the message up to the clause, where a pronoun's person is named.
 */
export function enRequestTopic(clause: string, before: string): { topic: string; alone: boolean; own: boolean; of?: string } | undefined {
  for (const pattern of REQUESTS) {
    const m = pattern.exec(clause);
    if (!m?.groups) continue;
    let topic = (m.groups.topic ?? '').trim();
    const bare = pattern === FORGET && m.groups.said === undefined && !BARE_ASKS.test(`${m.groups.about ?? ''}${topic}`);
    // "forget what I said about X": the said-part may also come after the verb's object.
    topic = topic.replace(/^(?:(?:what|that|everything)\s+)?i\s+(?:ever\s+|once\s+|have\s+|'ve\s+)?(?:said|told you|mentioned|talked)\s+(?:about\s+)?/iu, '');
    // "forget what I told you yesterday about the party": the party, whenever it was said.
    topic = topic.replace(/^(?:yesterday|today|last night|this morning|earlier(?: today)?|the other day)\s+(?:about|regarding)\s+/iu, '');
    topic = topic.replace(TOPIC_TAIL, '').replace(/[,.;:!?\s]+$/u, '');
    // "Forget Sarah." asks; "Forget about Sarah." is "never mind Sarah".
    const name = bare && m.groups.about === undefined && namesSomeone(topic, clause) ? topic : undefined;
    // "forget my wife's birthday": hers (`ForgetRequest.of`), not the user's own.
    const theirs = THEIRS.exec(topic)?.groups;
    if (theirs && !bare) {
      const thing = (theirs.thing ?? '').replace(TOPIC_HEAD, '').trim();
      if (thing === '' || PRONOUN.test(thing) || NOT_A_TOPIC.test(thing) || EN_TIME.test(thing) || thing.split(/\s+/u).length > 4) continue;
      return { topic: thing, alone: false, own: false, of: (theirs.of ?? '').toLowerCase() };
    }
    // "forget my birthday": the user's own, not the wife's (`mentionsOwn`).
    const mine = /^(?:(?:about|that|this)\s+)*my\s+/iu.test(topic);
    topic = topic.replace(TOPIC_HEAD, '').replace(/^["'“‘]|["'”’]$/gu, '').trim();
    // "my girlfriend and I split up, forget about her": someone just named, not "never mind".
    const named = /^(?:him|her|them)$/iu.test(topic) ? enAntecedent(before) : undefined;
    if (bare && named === undefined && name === undefined) continue;
    topic = named ?? topic;
    if (topic === '' || PRONOUN.test(topic) || NOT_A_TOPIC.test(topic) || EN_TIME.test(topic) || SAID_WHERE.test(topic) || topic.split(/\s+/u).length > 6) continue;
    return { topic, alone: name !== undefined && named === undefined, own: mine && named === undefined };
  }
  return undefined;
}

/** Whether the object of a bare "forget" is a person's name: "Sarah", "Sarah Lee", or "sarah" from a writer who capitalizes nothing. */
function namesSomeone(topic: string, clause: string): boolean {
  const shaped = NAME.test(topic) || (LOWER_NAME.test(topic) && !/\p{Lu}/u.test(clause));
  return shaped && !topic.split(/\s+/u).some((word) => NOT_A_NAME.has(word.toLowerCase()) || PRONOUN.test(word));
}

/** Who "him" / "her" stands for: the last "my ex", "my sister", "my friend Tom" named before, or the one the user parted from. */
export function enAntecedent(before: string): string | undefined {
  // "my sister's boyfriend": someone else's, neither of them the one "him" is.
  const found = [...before.matchAll(/\bmy\s+((?:ex-?)?(?:girlfriend|boyfriend|wife|husband|partner|fiancée?)|ex|(?:mom|mother|dad|father|sister|brother|son|daughter|boss|coworker|friend)(?:\s+\p{Lu}\p{Ll}+)?)\b(?!['’]s\b)/giu)];
  // "Sarah and I broke up": the one the user parted from, by name.
  const parted = /\b(\p{Lu}\p{Ll}+) and I (?:broke up|split up|split|divorced|are done|are over|fell out)\b/u.exec(before);
  return found.at(-1)?.[1] ?? parted?.[1];
}
