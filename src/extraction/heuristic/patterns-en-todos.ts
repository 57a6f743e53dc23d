import { moveTarget, namesTime, type Pattern } from './candidate.js';
import { NOT_OBJECTS, re, tail } from './patterns-en-words.js';

/**
 * English rows about the user's todos: what calls one off, moves it or says it is done (read before
 * every other row, which would take "stop reminding me to…" for a request), and the requests
 * themselves (read last).
 */

/** Past forms of what one does about a todo, and their base form (the todo says "pay the rent"). */
const DONE_EN: Record<string, string> = {
  paid: 'pay', called: 'call', rang: 'call', took: 'take', taken: 'take', sent: 'send', submitted: 'submit', bought: 'buy', booked: 'book',
  renewed: 'renew', returned: 'return', 'picked up': 'pick', handed: 'hand', filed: 'file', mailed: 'mail', posted: 'post', emailed: 'email',
  texted: 'text', fed: 'feed', walked: 'walk', watered: 'water', cleaned: 'clean', fixed: 'fix', visited: 'visit', wrote: 'write',
  written: 'write', finished: '', did: '', done: '', completed: '', cancelled: 'cancel', canceled: 'cancel', scheduled: 'schedule', ordered: 'order',
};
const DONE_VERBS_EN = Object.keys(DONE_EN).join('|');
const baseVerb = (v: string): string => DONE_EN[v.toLowerCase()] ?? '';

/** What is done to a todo: called off, moved, done. */
export const EN_TODO_ACTIONS: readonly Pattern[] = [
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
];

/** What asks for one: "remind me…", "set a reminder…", "wake me up at 7". */
export const EN_TODO_REQUESTS: readonly Pattern[] = [
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
