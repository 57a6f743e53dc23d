import { z } from 'zod';
import { parseInput } from '../errors.js';
import { indexTerms } from '../text/segment.js';
import { holdsTerms } from '../text/topic-terms.js';
import type { MemoryDeps } from './deps.js';
import { searchMessages } from './search-messages.js';
import { mentionsTopic } from '../text/mentions.js';
import { plainTopic, type FootprintOptions } from './forget.js';
import { acrossLanguages } from './topic-bridge.js';
import { meantIn } from './topic-names.js';

export const ForgetSessionOptions = z.object({
  userId: z.string().min(1),
  sessionId: z.string().min(1),
});
export type ForgetSessionOptions = z.input<typeof ForgetSessionOptions>;

export interface ForgetSessionReport {
  /** Raw messages erased. */
  messages: number;
  /** Ids of the session's episode summaries erased. */
  episodes: string[];
}

/**
 * Forgets one conversation: its raw messages (rows, vectors, keyword rows) and its episode
 * summaries are erased, so no search, excerpt or summary quotes it again. Memories extracted from
 * it stay (forget them one by one, or by topic).
 */
export async function forgetSession(deps: Pick<MemoryDeps, 'store' | 'clock' | 'logger'>, options: ForgetSessionOptions): Promise<ForgetSessionReport> {
  const { userId, sessionId } = parseInput(ForgetSessionOptions, options, 'forget session options');
  const ids = (await deps.store.listMessages({ userId, sessionId })).map((m) => m.id);
  const episodes = await deps.store.listMemories({ userId, kinds: ['episode'], sessionId, statuses: ['active', 'archived', 'deleted'] });
  const messages = await deps.store.transaction(async (tx) => {
    for (const e of episodes) await tx.purgeMemory(userId, e.id, { actor: 'user', reason: 'forget session', at: deps.clock.now() });
    return tx.purgeMessages(userId, ids);
  });
  deps.logger.info('forgot a session', { userId, messages, episodes: episodes.length });
  return { messages, episodes: episodes.map((e) => e.id) };
}

/**
 * The raw messages about a topic, by the same test `forgetTopic` applies to memories: the text
 * contains the topic, holds every one of its terms, or is a close vector match (`literal`: only the
 * first); `others` are the longer names the topic begins that are someone else's (`longerNames`).
 */
export async function topicMessageIds(deps: MemoryDeps, userId: string, topic: string, options: FootprintOptions = {}, others: readonly string[] = []): Promise<Set<string>> {
  const terms = indexTerms(topic);
  const about = new Set<string>();
  const unmeant = new Set<string>();
  for (const m of await deps.store.listMessages({ userId })) {
    if (mentionsTopic(m.content, topic)) {
      if (meantIn(m.content, topic, options, others)) about.add(m.id);
      else unmeant.add(m.id);
    }
    else if (!options.literal && terms.length > 0) {
      const own = new Set(indexTerms(m.content));
      if (holdsTerms(terms, own)) about.add(m.id);
    }
  }
  if (options.literal) return about;
  const found = await searchMessages(deps, { userId, query: topic, limit: 500 });
  // In the other language, among the messages the search finds (it reads both): a bounded number of texts to gloss.
  const across = plainTopic(options) ? await acrossLanguages(deps.embedder, topic, found.map((f) => f.message.content)) : [];
  found.forEach(({ message, score }, i) => {
    if (((score.vector ?? 0) >= (options.minSimilarity ?? 0.75) || across[i] === true) && !unmeant.has(message.id)) about.add(message.id);
  });
  return about;
}
