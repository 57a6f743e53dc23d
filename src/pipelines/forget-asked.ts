import { z } from 'zod';
import type { Message } from '../domain/conversation.js';
import type { ForgetAsk } from '../domain/operations.js';
import { forgetAliases, forgottenByAliasesOnly } from '../extraction/forget-aliases.js';
import { namesATime, readForgetRequest, requestLabel, type ForgetRequest } from '../extraction/forget-request.js';
import type { Rejected } from '../extraction/plan-operations.js';
import { kinSaid } from '../text/whose.js';
import type { ModelDeps } from './deps.js';
import { forgetTopic, topicFootprint, type FootprintOptions } from './forget.js';
import { forgetSaidWhen } from './forget-said-when.js';
import { forgetTrash } from './forget-trash.js';
import { namedIn } from './topic-names.js';

/** A topic forgotten because the user asked for it in conversation. */
export interface ForgottenOnRequest {
  /** The user's message that asked; it is erased too. */
  messageId: string;
  topic: string;
  /** Who the memories name the topic ("小美" for 前女友), forgotten with it. */
  names?: string[];
  /** Memories and episodes deleted (restorable: status "deleted", with the request in their history). */
  memories: number;
  /** Raw messages erased, the request itself included (kept in the request's trash to be undone, `forget-undo.ts`). */
  messages: number;
}

/** What a stored message asks to be forgotten: only the user's own messages can ask. */
export function forgetAskedIn(message: Message): ForgetRequest | undefined {
  return message.role === 'user' ? readForgetRequest(message.content) : undefined;
}

/**
 * Forgets what a user's message asks to be forgotten ("忘掉我前女友的事", "forget what I told you
 * about my ex"), as `forgetTopic` does for the page and the CLI, except that the memories are
 * deleted, not purged: gone from every block, restorable from the page, in case the request was an
 * idiom misread. The messages about it go into the request's trash (out of every search, undone
 * with the rest for `FORGET_UNDO_DAYS`), and the profile's sentences go; so does whoever
 * the memories name the topic ("用户的前女友叫小美": 小美 too). The asking message names the topic,
 * so it goes as well (and with it anything the extractor could have drawn from it).
 */
export async function forgetAsked(deps: ModelDeps, message: Message, request: ForgetRequest): Promise<ForgottenOnRequest | undefined> {
  const when = request.when;
  if (when) return forgetSaidWhen(deps, message, { ...request, when });
  if (request.bareName && !(await namesSomeoneRemembered(deps, message, request.topic))) {
    deps.logger.info('a bare "forget <name>" names no one remembered: read as "never mind", nothing forgotten', { userId: message.userId, messageId: message.id });
    return undefined;
  }
  const topics = [request.topic, ...(request.alsoTopics ?? [])];
  const topic = requestLabel(request);
  const trash = forgetTrash(deps, message, topic);
  const restorable = { reason: `the user asked in conversation to forget "${topic}"`, trash };
  const names: string[] = [];
  const forgotten = new Set<string>();
  let messages = 0;
  // Whoever the memories name it and the words they use for it go too (`topicFootprint`); the user's own
  // address or phone only by the words that name the user ("delete my address" must leave the mother's).
  for (const t of topics) {
    const report = await forgetTopic(deps, message.userId, t, { restorable, ...reach(request, t) });
    for (const id of report.forgotten) forgotten.add(id);
    for (const name of report.names ?? []) if (!names.includes(name)) names.push(name);
    messages += report.messages;
  }
  const memories = forgotten.size;
  // The request names the topic, so the topic's search has found it unless it was phrased apart
  // ("forget about my ex" asks about "ex"); it goes regardless.
  messages += await trash.messages([message.id]);
  deps.logger.info('forgot a topic the user asked to forget', { userId: message.userId, messageId: message.id, memories });
  return { messageId: message.id, topic, ...(names.length > 0 ? { names } : {}), memories, messages };
}

/**
 * How far one topic of a request reaches: the user's own, someone else's ("my wife's birthday":
 * hers alone), or the user's own address or phone by the words that name the user.
 */
function reach(request: ForgetRequest, topic: string): FootprintOptions {
  if (request.of !== undefined) return { of: request.of };
  return { own: request.own === true, aliasesOnly: forgottenByAliasesOnly(topic) };
}

/** `MemoryEngine.forgetRequest`'s input: a message not yet recorded (its session: whose last turns may name someone). */
export const ForgetRequestInput = z.object({ userId: z.string().min(1), sessionId: z.string().default(''), content: z.string().max(100_000) });

/**
 * What a user's message, once recorded, will ask to be forgotten (`appendMessages` acts on it with
 * `forgetAsked`): its request, or undefined. A bare name ("forget tacos") asks only of someone
 * remembered, as `forgetAsked` decides, and a topic only when something about it is kept: a door that
 * keeps a turn's memories out of its prompt and tells the model a topic goes asks this, not the
 * patterns alone.
 */
export async function forgetRequestOf(deps: ModelDeps, message: Pick<Message, 'userId' | 'sessionId' | 'content'> & { id?: string }): Promise<ForgetRequest | undefined> {
  const request = readForgetRequest(message.content);
  if (!request) return undefined;
  if (request.bareName && !(await namesSomeoneRemembered(deps, { userId: message.userId, sessionId: message.sessionId, id: message.id }, request.topic))) return undefined;
  if (request.when) return request;
  // A topic nothing is known about: no notice that it is being forgotten (the model would say it forgot).
  for (const topic of [request.topic, ...(request.alsoTopics ?? [])]) {
    const footprint = await topicFootprint(deps, message.userId, topic, reach(request, topic));
    if (footprint.memories.length > 0 || footprint.messageIds.size > 0) return request;
  }
  return undefined;
}

/** The user's own turns before a bare-name request that may name the person (the session's last ones, not yet extracted). */
const NAMING_TURNS = 50;

/**
 * Whether an active memory or one of the user's last turns of the session (said before extraction
 * ran) names `topic` as someone, capitalised ("The user's ex is Sarah", "My ex is Sarah", "Sarah
 * and I…"), and nothing uses it as a common word ("I will call" for "forget will"): "forget tacos",
 * "forget tesla", "Forget Paris." after "The user's hometown is Paris" find no one.
 */
async function namesSomeoneRemembered(deps: ModelDeps, request: Pick<Message, 'userId' | 'sessionId'> & { id?: string | undefined }, topic: string): Promise<boolean> {
  const userId = request.userId;
  const name = topic
    .split(/\s+/u)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
  const n = name.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  const end = '(?![\\p{L}\\p{N}])';
  // As someone: "The user's ex is Sarah", "my friend Sarah", "Sarah is the user's sister", "Sarah and I" ("The user's hometown is Paris", "I miss Paris" are not).
  const asSomeone = new RegExp(`\\b(?:[Mm]y|[Tt]he user's)\\s+(?:(?:best|old|new|ex-?|former|older|younger|little|big)\\s*)?${PERSON_WORDS}\\s+(?:is\\s+|was\\s+|named\\s+|called\\s+)?${n}${end}|(?<![\\p{L}\\p{N}])${n}\\s+(?:is|was)\\s+(?:the user's|my)\\s+(?:\\S+\\s+)?${PERSON_WORDS}\\b|(?<![\\p{L}\\p{N}])${n}\\s+and\\s+I\\b`, 'u');
  // Used as a common word anywhere ("I will call", "mark the exams"): "forget will" is too ambiguous to erase by.
  const common = new RegExp(`(?<![\\p{L}\\p{N}])${n.toLowerCase()}${end}`, 'u');
  const memories = await deps.store.listMemories({ userId, statuses: ['active'] });
  const turns = (await deps.store.listMessages({ userId, sessionId: request.sessionId, order: 'desc', limit: NAMING_TURNS })).filter((m) => m.role === 'user' && m.id !== request.id);
  const texts = [...memories.map((m) => m.content), ...turns.map((m) => m.content)];
  if (name.toLowerCase() !== name && texts.some((t) => common.test(t))) return false;
  return texts.some((t) => asSomeone.test(t));
}

/** Who a name may be of, in a memory or a turn that names them as someone. */
const PERSON_WORDS = '(?:ex|girlfriend|boyfriend|wife|husband|partner|fianc[ée]e?|friend|coworker|co-worker|colleague|boss|manager|brother|sister|mom|mum|mother|dad|father|son|daughter|cousin|aunt|uncle|niece|nephew|grandma|grandpa|grandmother|grandfather|neighbou?r|roommate|classmate|teacher|doctor|therapist|crush|date)';

/** Some word of asking to forget, unremember or delete: a model reading "I keep forgetting Sarah's birthday" as a request is refused. */
const ASKING =
  /忘掉|忘了|忘记|删|清除|抹掉|别记|不要记|别再记|别留|别存|不要留|不要存|当没|当我没|\bforget\b|\bdelete\b|\berase\b|\bremove\b|\bwipe\b|\bpretend\b|\b(?:don'?t|do not|stop|no longer)\s+(?:remember|remembering|store|storing|keep|keeping|save|saving|track|tracking)\b|\bremember\b[^.]*\b(?:anymore|any more)\b/iu;

/** Topics one batch may forget: a user asks for one or two; a model listing more has misread. */
const MAX_ASKS = 3;

/** What a model may not name as a topic: the user, everything, or a pointer instead of a name. */
const NO_TOPIC = /^(?:the user|user|me|myself|i|you|everything|all|anything|it|this|that|him|her|them|用户|我|我自己|自己|你|一切|所有|全部|所有事|所有事情|所有东西|这个|那个|这些|那些|它|他|她)$/iu;
/** "my ex", "the user's address", "我的前女友", "用户的住址": the topic is what follows. */
const OWNER = /^(?:my|the user's|user's)\s+|^(?:我的|用户的)/iu;

/** A model-named topic as `forgetTopic` takes it, or undefined when it names nothing forgettable. */
function askedTopic(raw: string): ForgetRequest | undefined {
  const named = raw.trim().replace(/^["'“”‘’「『]+|["'“”‘’」』。.!！?？]+$/gu, '');
  const topic = named.replace(OWNER, '').trim();
  if (NO_TOPIC.test(topic) || namesATime(topic)) return undefined;
  const han = /\p{Script=Han}/u.test(topic);
  // One Han character ("王") would match inside every word that holds it (王总, 王者).
  if (!(han ? topic.length >= 2 : /\p{L}.*\p{L}/u.test(topic))) return undefined;
  // "my wife's birthday", "用户老婆的生日": hers (`ForgetRequest.of`).
  const theirs = /^(?<of>[\p{L}-]+?)(?:['’]s\s+|的)(?<thing>.+)$/u.exec(topic.replace(/^(?:用户|我)(?!的)/u, ''))?.groups;
  const of = theirs?.of === undefined ? undefined : kinSaid(theirs.of);
  if (of !== undefined && theirs?.thing !== undefined && !NO_TOPIC.test(theirs.thing.trim())) return { topic: theirs.thing.trim(), of };
  // "my birthday", "用户的生日": the user's own (`mentionsOwn`).
  return OWNER.test(named) ? { topic, own: true } : { topic };
}

/**
 * The model's forget requests (extract-memories' `forget`) that may be acted on: each must point
 * at a user message of the batch by its ref, and name a topic the conversation itself names (in
 * the batch or its context: "Sarah and I broke up, forget her" asks to forget Sarah), or one of
 * the user's own data with known aliases ("where I live", "my phone number"). Anything else (an
 * invented ref, the assistant's message, "the user", a topic nobody said) is rejected and recorded
 * with the run; nothing is forgotten for it.
 */
export function checkForgetAsks(asks: readonly ForgetAsk[], refs: ReadonlyMap<string, string>, batch: readonly Message[], context: readonly Message[]): { accepted: Array<{ message: Message; request: ForgetRequest }>; rejected: Rejected[] } {
  const accepted: Array<{ message: Message; request: ForgetRequest }> = [];
  const rejected: Rejected[] = [];
  const texts = [...context, ...batch].map((m) => m.content);
  for (const ask of asks) {
    const id = refs.get(ask.ref);
    const message = id === undefined ? undefined : batch.find((m) => m.id === id);
    if (!message || message.role !== 'user') {
      rejected.push({ op: 'forget', target: ask.ref, reason: message ? 'only a user message can ask to forget' : `unknown message ref "${ask.ref}"` });
      continue;
    }
    if (!ASKING.test(message.content)) {
      rejected.push({ op: 'forget', target: ask.ref, reason: 'the message asks nothing to be forgotten' });
      continue;
    }
    const request = askedTopic(ask.topic);
    const topic = request?.topic;
    if (!request || !topic) {
      rejected.push({ op: 'forget', target: ask.ref, reason: `"${ask.topic}" names nothing to forget (the user, everything, a pronoun, or a time)` });
      continue;
    }
    // As a name, itself: "刘强" is not named by "我在读刘强东的自传" (`namedIn`).
    if (forgetAliases(topic).length === 0 && !namedIn(texts, topic)) {
      rejected.push({ op: 'forget', target: ask.ref, reason: `"${topic}" is not named in the conversation` });
      continue;
    }
    if (accepted.some((a) => a.request.topic.toLowerCase() === topic.toLowerCase())) continue;
    if (accepted.length >= MAX_ASKS) {
      rejected.push({ op: 'forget', target: ask.ref, reason: `more than ${MAX_ASKS} topics asked to be forgotten in one batch` });
      continue;
    }
    accepted.push({ message, request });
  }
  return { accepted, rejected };
}
