import { rm } from 'node:fs/promises';
import { indexTerms } from '../text/segment.js';
import { holdsTerms } from '../text/topic-terms.js';
import { acrossLanguages } from './topic-bridge.js';
import type { LifecyclePort } from '../store/ports/lifecycle.js';
import type { ForgetTrash } from './forget-trash.js';
import type { MemoryDeps, ModelDeps } from './deps.js';
import { topicMessageIds } from './forget-messages.js';
import type { Memory } from '../domain/memory.js';
import { speaksOfSomeoneUnnamed } from '../text/unnamed-person.js';
import { recall } from './recall.js';
import { userFolder } from './sync-mirror.js';
import { updateProfile } from './update-profile.js';
import { mentionsAt, mentionsOwn, mentionsTopic } from '../text/mentions.js';
import { continuesInto, longerNames } from '../text/longer-names.js';
import { mentionedAsTheirs, namesOfKin, whoseOf, type Whose } from '../text/whose.js';
import { forgetAliases } from '../extraction/forget-aliases.js';
import { topicLabel } from '../extraction/forget-request.js';
import { chineseName, meantIn, namesOfTopic } from './topic-names.js';

/**
 * Forgets everything about a user (seed 003 "用户要求遗忘"): memories, vectors, keyword rows,
 * messages, sessions, episodes, profile versions, todos, history, settings. Really erased.
 */
export async function forgetUser(deps: Pick<MemoryDeps, 'logger'> & { store: Pick<LifecyclePort<unknown>, 'forgetUser'> }, userId: string, options: { workspace?: string } = {}): Promise<Record<string, number>> {
  const counts = await deps.store.forgetUser(userId);
  // The mirror folder holds memory.md, learnings.md and the merge base: all of it goes.
  if (options.workspace) await rm(userFolder(options.workspace, userId), { recursive: true, force: true });
  deps.logger.info('forgot a user', { counts });
  return counts;
}

export interface ForgetTopicReport {
  /** Ids of the memories and episodes erased. */
  forgotten: string[];
  /** Profile version written without the topic, when there was a profile. */
  profileVersion?: number;
  /** Raw messages about the topic erased (so no excerpt quotes them again). */
  messages: number;
  /** Whoever the memories name the topic ("小美" for 前女友), forgotten with it. */
  names?: string[];
}

/** What forgetting a topic erases. */
export interface TopicFootprint {
  /** Memories and episodes about it, and those drawn only from its messages that point at someone unnamed. */
  memories: Memory[];
  /** Raw messages about it. */
  messageIds: Set<string>;
  /** Whoever its memories name the topic ("小美" for 前女友), forgotten with it. */
  names: string[];
  /** Someone else's (`FootprintOptions.of`): how they are written, for the todos and profile sentences that go with it. */
  whose?: Whose;
  /** The longer names the topic and its names begin that are someone else's ("刘强东" of "刘强": `longerNames`), for the todos and profile sentences. */
  others: ReadonlyMap<string, readonly string[]>;
}

/**
 * What forgetting a topic erases, at every door alike (the page, the API, MCP, the CLI, a request
 * in chat; the dry run shows exactly this): the footprint of the topic itself (`footprintOf`), of
 * whoever its memories name it ("用户的前女友叫小美": 小美 too), and of the words memories use for a
 * few kinds of it, as written (`forgetAliases`: 前任 is also 前女友, "ex" also "ex-wife"). With
 * `aliasesOnly` (the user's own address or phone asked in chat) only the aliases, which name the user.
 */
export async function topicFootprint(deps: MemoryDeps, userId: string, topic: string, options: FootprintOptions = {}): Promise<TopicFootprint> {
  const memories = new Map<string, Memory>();
  const messageIds = new Set<string>();
  const add = (f: { memories: Memory[]; messageIds: Set<string> }): void => {
    for (const m of f.memories) memories.set(m.id, m);
    for (const id of f.messageIds) messageIds.add(id);
  };
  if (options.of !== undefined) return theirFootprint(deps, userId, topic, options.of);
  // Someone else whose name begins with this one ("刘强东" of "刘强"), as the user's memories and messages name them.
  const texts = userTexts(deps, userId);
  const others = new Map<string, readonly string[]>();
  // Only a Chinese name has any, a name the memories give the topic even when no common surname begins it ("欧阳娜娜").
  const othersOf = async (term: string, asName: boolean): Promise<readonly string[]> => {
    const found = (asName && /\p{Script=Han}/u.test(term)) || chineseName(term) ? longerNames(term, await texts()) : [];
    others.set(term, found);
    return found;
  };
  const own = options.aliasesOnly ? { memories: [], messageIds: new Set<string>() } : await footprintOf(deps, userId, topic, options, await othersOf(topic, false));
  add(own);
  const names = options.literal ? [] : namesOfTopic(topic, own.memories.map((m) => m.content));
  for (const name of names) add(await footprintOf(deps, userId, name, { minSimilarity: options.minSimilarity, nameOf: topic }, await othersOf(name, true)));
  // The user's own stays the user's own in its other words ("my ex": not "my sister's ex-husband").
  if (!options.literal) for (const alias of forgetAliases(topic)) add(await footprintOf(deps, userId, alias, { literal: true, ...(options.own ? { own: true } : {}) }));
  return { memories: [...memories.values()], messageIds, names, others };
}

/** Every memory (deleted ones included) and message of the user, read once and only when asked for. */
function userTexts(deps: MemoryDeps, userId: string): () => Promise<readonly string[]> {
  let read: Promise<readonly string[]> | undefined;
  return () =>
    (read ??= (async () => {
      const memories = await deps.store.listMemories({ userId, statuses: ['active', 'archived', 'deleted'] });
      const messages = await deps.store.listMessages({ userId });
      return [...memories.map((m) => m.content), ...messages.map((m) => m.content)];
    })());
}

/**
 * One term's footprint: memories and episodes about it (a mention, an episode tagged with it, every
 * topic term, or a close vector match), the raw messages about it, and the memories whose every
 * source is one of those messages and which speak of someone without naming them: "我前男友叫刘强，他
 * 是个程序员" may have left "用户提到的他是程序员" beside the memory that names 刘强. A memory drawn from
 * such a message that stands on its own ("用户下周要去上海出差") stays. What mentions the term only as
 * something else ("ex-colleague", "前任老板": `mentionsAsMeant`) or, for the user's own, only as
 * someone else's ("The user's wife's birthday") is left.
 */
async function footprintOf(deps: MemoryDeps, userId: string, topic: string, options: FootprintOptions, others: readonly string[] = []): Promise<{ memories: Memory[]; messageIds: Set<string> }> {
  const terms = indexTerms(topic);
  const meant = (m: Memory): boolean => !mentionsTopic(m.content, topic) || meantIn(m.content, topic, options, others);
  const statuses = ['active', 'archived', 'deleted'] as const;
  // A phrase taken as written ("用户住在", "my address"): what says it, and nothing merely like it.
  if (options.literal) {
    const memories = (await deps.store.listMemories({ userId, statuses: [...statuses] })).filter((m) => mentionsTopic(m.content, topic) && meant(m));
    return { memories, messageIds: await topicMessageIds(deps, userId, topic, options, others) };
  }
  const found = await recall(deps, { userId, query: topic, limit: 200, statuses: [...statuses], touch: false, includeExpired: true });
  // In the other language ("花生": "The user is allergic to peanuts"), for a topic taken as itself: the user's
  // own or someone's is told by the words around a mention, which a gloss does not keep.
  const across = plainTopic(options) ? await acrossLanguages(deps.embedder, topic, found.map((r) => r.memory.content)) : [];
  const about = found
    .filter(({ memory, score }, i) => {
      const tags = (memory.structuredData?.topics as string[] | undefined) ?? [];
      const own = new Set(indexTerms(memory.content));
      return (
        mentionsTopic(memory.content, topic) ||
        tags.some((t) => mentionsTopic(t, topic)) ||
        holdsTerms(terms, own) ||
        across[i] === true ||
        (score.vector ?? 0) >= (options.minSimilarity ?? 0.75)
      );
    })
    .map((r) => r.memory)
    .filter(meant);
  const messageIds = await topicMessageIds(deps, userId, topic, options, others);
  const taken = new Set(about.map((m) => m.id));
  const derived =
    messageIds.size === 0
      ? []
      : (await deps.store.listMemories({ userId, statuses: [...statuses] })).filter(
          (m) => !taken.has(m.id) && m.provenance.messageIds.length > 0 && m.provenance.messageIds.every((id) => messageIds.has(id)) && speaksOfSomeoneUnnamed(m.content),
        );
  return { memories: [...about, ...derived], messageIds };
}

/**
 * Someone else's thing ("forget my wife's birthday"): what mentions the topic, or a word memories say
 * it by ("lives in" for an address), as theirs (`mentionedAsTheirs`): by the words for them or the
 * names memories give them ("The user's wife is named Anna": "Anna's birthday"). Nothing merely like
 * it, and nothing of the user's own: "The user's birthday is March 3" stays, and so does Anna.
 */
async function theirFootprint(deps: MemoryDeps, userId: string, topic: string, of: string): Promise<TopicFootprint> {
  const all = await deps.store.listMemories({ userId, statuses: ['active', 'archived', 'deleted'] });
  const messages = await deps.store.listMessages({ userId });
  const whose = whoseAmong(of, all);
  const theirs = theirMatcher(topic, whose);
  // And in the other language, through the embedder's glosses ("my wife's birthday": "用户老婆的生日是5月5日").
  const texts = [...all.map((m) => m.content), ...messages.map((m) => m.content)];
  // A gloss that kept Chinese (a word CC-CEDICT lacks) is no English topic.
  const across = await acrossLanguages(deps.embedder, topic, texts, (t) => (/\p{Script=Han}/u.test(t) ? () => false : theirMatcher(t, whose)), new RegExp(whose.source, 'iu'));
  const taken = (text: string, i: number): boolean => theirs(text) || across[i] === true;
  return { memories: all.filter((m, i) => taken(m.content, i)), messageIds: new Set(messages.filter((m, i) => taken(m.content, all.length + i)).map((m) => m.id)), names: [], whose, others: new Map() };
}

/** Someone of the user's by the words for them and the names the user's memories give them. */
const whoseAmong = (of: string, memories: readonly Memory[]): Whose => whoseOf(of, namesOfKin(of, memories.map((m) => m.content)));

/** Whether a text says `topic` (or a word for it) as theirs. */
function theirMatcher(topic: string, whose: Whose): (text: string) => boolean {
  const phrases = [topic, ...theirAliases(topic)];
  return (text) => phrases.some((p) => mentionsAt(text, p).some((at) => mentionedAsTheirs(text, at, p.length, whose)));
}

/** The words someone's address or number is said by besides the word itself ("The user's mom lives in Hangzhou", "用户妈妈住在杭州"). */
function theirAliases(topic: string): string[] {
  const t = topic.trim();
  if (/^(?:(?:home |mailing )?address|where (?:she|he|they) lives?)$/iu.test(t)) return ['lives in', 'lives at', 'moved to', 'live in', 'live at'];
  if (/^(?:家庭)?(?:住址|地址|家的地址|家庭住址|住哪儿?|住在哪里?)$/u.test(t)) return ['住在', '家住', '家在', '搬到', '地址', '住址'];
  if (/^(?:(?:cell|mobile|phone|telephone)(?: number)?|number)$/iu.test(t)) return ['phone number', 'cell number', 'mobile number', 'number', 'can be reached at', 'telephone'];
  if (/^(?:手机号码?|电话(?:号码)?|手机|号码)$/u.test(t)) return ['手机号', '电话', '号码'];
  if (/^birthday$/iu.test(t)) return ['birthday', 'born on', 'was born'];
  if (/^生日$/u.test(t)) return ['生日', '出生'];
  return [];
}

/**
 * Whether a text mentions a term as a footprint of these options takes it: the user's own, theirs, or
 * at all, and not only as the beginning of someone else's longer name (`others`: "刘强东" of "刘强").
 */
function mentionsAsAsked(text: string, term: string, options: Pick<FootprintOptions, 'own'> & { whose?: Whose; others?: readonly string[] }): boolean {
  if (options.whose) return theirMatcher(term, options.whose)(text);
  const others = options.others ?? [];
  if (others.length > 0 && mentionsAt(text, term).every((at) => continuesInto(text, at, others))) return false;
  return mentionsTopic(text, term) && (!options.own || mentionsOwn(text, term));
}

/** A topic taken as itself: not the user's own, someone's, a name of another topic, or only its aliases. */
export const plainTopic = (options: FootprintOptions): boolean => !options.literal && !options.own && options.nameOf === undefined && !options.aliasesOnly && options.of === undefined;

/** How far a topic's footprint reaches (`topicFootprint`, `topicMessageIds`). */
export interface FootprintOptions {
  minSimilarity?: number;
  /** Only what says the topic as written: no shared terms, no vector matches. */
  literal?: boolean;
  /**
   * The user's own ("forget my birthday"): what mentions the topic only as someone else's ("The
   * user's wife's birthday…", "小美的生日…") is left (`mentionsOwn`).
   */
  own?: boolean;
  /** The term is the name the memories give this topic ("Sarah" of "ex"): only that one of the name (`mentionsName`). */
  nameOf?: string;
  /** Only the topic's aliases, which name the user (the user's own address or phone asked in chat: `forgottenByAliasesOnly`). */
  aliasesOnly?: boolean;
  /** Someone else's ("forget my wife's birthday": "wife"): only the topic as theirs (`theirFootprint`). */
  of?: string;
}

export interface ForgetTopicOptions extends FootprintOptions {
  /**
   * Memories and episodes are deleted, not purged: gone from every block, search and list, and
   * restorable from the page or the API (a topic asked to be forgotten in conversation, read by
   * heuristics that can misread). The messages and the todos go into the request's trash, out of
   * every search and excerpt but kept to be undone for a while; older profile versions are kept.
   * The reason goes into each memory's history.
   */
  restorable?: { reason: string; trash: ForgetTrash };
}

/**
 * Forgets a topic (`topicFootprint`): its memories, episodes and raw messages are purged (no
 * excerpt may quote them again), and the profile is rewritten without it; the older profile
 * versions that mention it are erased. With `restorable` the memories are deleted instead.
 */
export async function forgetTopic(deps: ModelDeps, userId: string, topic: string, options: ForgetTopicOptions = {}): Promise<ForgetTopicReport> {
  const footprint = await topicFootprint(deps, userId, topic, options);
  const at = deps.clock.now();
  await options.restorable?.trash.memories(footprint.memories);
  for (const memory of footprint.memories) {
    if (!options.restorable) await deps.store.purgeMemory(userId, memory.id, { actor: 'user', reason: 'forget topic', at });
    else if (memory.status !== 'deleted') await deps.store.updateMemory(userId, memory.id, { status: 'deleted', updatedAt: at }, undefined, { actor: 'user', reason: options.restorable.reason, at });
  }
  // The topic and whoever it names ("前女友", "小美"): their todos, profile sentences and old profile versions,
  // as the footprint takes them: "forget my birthday" leaves the wife's, "forget my wife's birthday" the user's.
  // The user's own address or phone goes by the words that name the user ("The user lives in Boston").
  const whose = footprint.whose;
  const longer = (t: string): readonly string[] => footprint.others.get(t) ?? [];
  const asked = (text: string, t: string): boolean => mentionsAsAsked(text, t, { ...(t === topic && options.own ? { own: true } : {}), ...(t === topic && whose ? { whose } : {}), others: longer(t) });
  // A model told "刘强" could take 刘强东's sentences with it.
  const labelled = (named: string, t: string): string => (longer(t).length === 0 ? named : `${named}（不是${longer(t).join('、')}）`);
  const aliases = options.aliasesOnly ? forgetAliases(topic) : [];
  const said: Array<{ label: string; matches: (text: string) => boolean }> = [
    ...(options.aliasesOnly
      ? [{ label: topicLabel({ topic, own: true }), matches: (text: string) => aliases.some((a) => mentionsTopic(text, a)) }]
      : [{ label: labelled(topicLabel({ topic, ...(options.own ? { own: true } : {}), ...(options.of !== undefined ? { of: options.of } : {}) }), topic), matches: (text: string) => asked(text, topic) }]),
    ...footprint.names.map((name) => ({ label: labelled(name, name), matches: (text: string) => asked(text, name) })),
  ];
  const about = (text: string): boolean => said.some((t) => t.matches(text));
  // Purging a memory erases its todo (deleting it withdraws it); a todo about the topic with no memory of its own goes too.
  for (const todo of await deps.store.listTodos({ userId })) {
    if (todo.memoryId !== undefined || !about(todo.content)) continue;
    await options.restorable?.trash.todo(todo);
    await deps.store.deleteTodo(userId, todo.id);
  }
  const ids = [...footprint.messageIds];
  const messages = ids.length === 0 ? 0 : options.restorable ? await options.restorable.trash.messages(ids) : await deps.store.purgeMessages(userId, ids);
  const report: ForgetTopicReport = { forgotten: footprint.memories.map((m) => m.id), messages, ...(footprint.names.length > 0 ? { names: footprint.names } : {}) };
  const versions = await deps.store.profileVersions(userId);
  if (versions.length > 0) {
    const written: number[] = [];
    for (const t of said) {
      const rewritten = await updateProfile(deps, userId, { forgetTopic: t.label, forgetMatches: t.matches });
      if (rewritten.profile) written.push((report.profileVersion = rewritten.profile.version));
    }
    const stale = versions.filter((p) => about(p.narrative) || Object.values(p.basicInfo).some(about)).map((p) => p.version);
    if (options.restorable) await options.restorable.trash.profile(written, stale);
    else await deps.store.deleteProfileVersions(userId, stale);
  }
  deps.logger.info('forgot a topic', { userId, count: report.forgotten.length });
  return report;
}
