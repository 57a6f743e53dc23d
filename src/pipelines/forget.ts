import { rm } from 'node:fs/promises';
import { indexTerms } from '../text/segment.js';
import type { LifecyclePort } from '../store/ports/lifecycle.js';
import type { MemoryDeps, ModelDeps } from './deps.js';
import { forgetTopicMessages } from './forget-messages.js';
import { recall } from './recall.js';
import { userFolder } from './sync-mirror.js';
import { updateProfile } from './update-profile.js';
import { mentionsTopic } from '../text/mentions.js';

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

/**
 * Forgets a topic: memories and episodes about it are purged (a keyword match of every topic
 * term, an episode tagged with it, or a close vector match), so are the raw messages about
 * it (no excerpt may quote them again), and the profile is rewritten without it; the older profile
 * versions that mention it are erased.
 */
export async function forgetTopic(deps: ModelDeps, userId: string, topic: string, options: { minSimilarity?: number } = {}): Promise<ForgetTopicReport> {
  const terms = indexTerms(topic);
  const found = await recall(deps, { userId, query: topic, limit: 200, statuses: ['active', 'archived', 'deleted'], touch: false, includeExpired: true });
  const about = found.filter(({ memory, score }) => {
    const tags = (memory.structuredData?.topics as string[] | undefined) ?? [];
    const own = new Set(indexTerms(memory.content));
    return (
      mentionsTopic(memory.content, topic) ||
      tags.some((t) => mentionsTopic(t, topic)) ||
      (terms.length > 0 && terms.every((t) => own.has(t))) ||
      (score.vector ?? 0) >= (options.minSimilarity ?? 0.75)
    );
  });
  for (const { memory } of about) await deps.store.purgeMemory(userId, memory.id, { actor: 'user', reason: 'forget topic', at: deps.clock.now() });
  // Purging a memory erases its todo; a todo about the topic with no memory of its own goes too.
  for (const todo of await deps.store.listTodos({ userId })) {
    if (todo.memoryId === undefined && mentionsTopic(todo.content, topic)) await deps.store.deleteTodo(userId, todo.id);
  }
  const report: ForgetTopicReport = { forgotten: about.map((r) => r.memory.id), messages: await forgetTopicMessages(deps, userId, topic, options) };
  const versions = await deps.store.profileVersions(userId);
  if (versions.length > 0) {
    const rewritten = await updateProfile(deps, userId, { forgetTopic: topic });
    if (rewritten.profile) report.profileVersion = rewritten.profile.version;
    const stale = versions.filter((p) => mentionsTopic(p.narrative, topic) || Object.values(p.basicInfo).some((v) => mentionsTopic(v, topic)));
    await deps.store.deleteProfileVersions(userId, stale.map((p) => p.version));
  }
  deps.logger.info('forgot a topic', { userId, count: report.forgotten.length });
  return report;
}
