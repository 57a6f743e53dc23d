import { rm } from 'node:fs/promises';
import { indexTerms } from '../text/segment.js';
import type { LifecyclePort } from '../store/ports/lifecycle.js';
import type { MemoryDeps, ModelDeps } from './deps.js';
import { topicMessageIds } from './forget-messages.js';
import type { Memory } from '../domain/memory.js';
import { speaksOfSomeoneUnnamed } from '../text/unnamed-person.js';
import { recall } from './recall.js';
import { userFolder } from './sync-mirror.js';
import { updateProfile } from './update-profile.js';
import { mentionsOwn, mentionsTopic } from '../text/mentions.js';

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
}

/** What forgetting a topic erases. */
export interface TopicFootprint {
  /** Memories and episodes about it, and those drawn only from its messages that point at someone unnamed. */
  memories: Memory[];
  /** Raw messages about it. */
  messageIds: Set<string>;
}

/**
 * What forgetting a topic erases (the dry run shows exactly this): memories and episodes about it
 * (a mention, an episode tagged with it, every topic term, or a close vector match), the raw
 * messages about it, and the memories whose every source is one of those messages and which
 * speak of someone without naming them: "我前男友叫刘强，他是个程序员" may have left "用户提到的他是程序员"
 * beside the memory that names 刘强. A memory drawn from such a message that stands on its own
 * ("用户下周要去上海出差") stays.
 */
export async function topicFootprint(deps: MemoryDeps, userId: string, topic: string, options: FootprintOptions = {}): Promise<TopicFootprint> {
  const terms = indexTerms(topic);
  const anyones = (m: Memory): boolean => !options.own || !mentionsTopic(m.content, topic) || mentionsOwn(m.content, topic);
  const statuses = ['active', 'archived', 'deleted'] as const;
  // A phrase taken as written ("用户住在", "my address"): what says it, and nothing merely like it.
  if (options.literal) {
    const memories = (await deps.store.listMemories({ userId, statuses: [...statuses] })).filter((m) => mentionsTopic(m.content, topic) && anyones(m));
    return { memories, messageIds: await topicMessageIds(deps, userId, topic, options) };
  }
  const found = await recall(deps, { userId, query: topic, limit: 200, statuses: [...statuses], touch: false, includeExpired: true });
  const about = found
    .filter(({ memory, score }) => {
      const tags = (memory.structuredData?.topics as string[] | undefined) ?? [];
      const own = new Set(indexTerms(memory.content));
      return (
        mentionsTopic(memory.content, topic) ||
        tags.some((t) => mentionsTopic(t, topic)) ||
        (terms.length > 0 && terms.every((t) => own.has(t))) ||
        (score.vector ?? 0) >= (options.minSimilarity ?? 0.75)
      );
    })
    .map((r) => r.memory)
    .filter(anyones);
  const messageIds = await topicMessageIds(deps, userId, topic, options);
  const taken = new Set(about.map((m) => m.id));
  const derived =
    messageIds.size === 0
      ? []
      : (await deps.store.listMemories({ userId, statuses: [...statuses] })).filter(
          (m) => !taken.has(m.id) && m.provenance.messageIds.length > 0 && m.provenance.messageIds.every((id) => messageIds.has(id)) && speaksOfSomeoneUnnamed(m.content),
        );
  return { memories: [...about, ...derived], messageIds };
}

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
}

export interface ForgetTopicOptions extends FootprintOptions {
  /**
   * Memories and episodes are deleted, not purged: gone from every block, search and list, and
   * restorable from the page or the API (a topic asked to be forgotten in conversation, read by
   * heuristics that can misread). Messages are purged all the same, so no excerpt brings the topic
   * back; older profile versions are kept. The reason goes into each memory's history.
   */
  restorable?: { reason: string };
}

/**
 * Forgets a topic (`topicFootprint`): its memories, episodes and raw messages are purged (no
 * excerpt may quote them again), and the profile is rewritten without it; the older profile
 * versions that mention it are erased. With `restorable` the memories are deleted instead.
 */
export async function forgetTopic(deps: ModelDeps, userId: string, topic: string, options: ForgetTopicOptions = {}): Promise<ForgetTopicReport> {
  const footprint = await topicFootprint(deps, userId, topic, options);
  const at = deps.clock.now();
  for (const memory of footprint.memories) {
    if (!options.restorable) await deps.store.purgeMemory(userId, memory.id, { actor: 'user', reason: 'forget topic', at });
    else if (memory.status !== 'deleted') await deps.store.updateMemory(userId, memory.id, { status: 'deleted', updatedAt: at }, undefined, { actor: 'user', reason: options.restorable.reason, at });
  }
  // Purging a memory erases its todo (deleting it withdraws it); a todo about the topic with no memory of its own goes too.
  for (const todo of await deps.store.listTodos({ userId })) {
    if (todo.memoryId === undefined && mentionsTopic(todo.content, topic)) await deps.store.deleteTodo(userId, todo.id);
  }
  const messages = footprint.messageIds.size === 0 ? 0 : await deps.store.purgeMessages(userId, [...footprint.messageIds]);
  const report: ForgetTopicReport = { forgotten: footprint.memories.map((m) => m.id), messages };
  const versions = await deps.store.profileVersions(userId);
  if (versions.length > 0) {
    const rewritten = await updateProfile(deps, userId, { forgetTopic: topic });
    if (rewritten.profile) report.profileVersion = rewritten.profile.version;
    const stale = versions.filter((p) => mentionsTopic(p.narrative, topic) || Object.values(p.basicInfo).some((v) => mentionsTopic(v, topic)));
    if (!options.restorable) await deps.store.deleteProfileVersions(userId, stale.map((p) => p.version));
  }
  deps.logger.info('forgot a topic', { userId, count: report.forgotten.length });
  return report;
}
