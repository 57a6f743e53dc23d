import type { Memory } from '../domain/memory.js';
import { readTimeIntent } from '../recall/time-intent.js';
import type { MemoryDeps } from './deps.js';
import { RECIPES } from '../recall/recipes.js';
import { loadRanked, recall, type RankedMemory } from './recall.js';

/**
 * Episodes for a question (seed 003 "用户问'上次聊的…'"): a named time window ("昨天", "last week")
 * filters by when the conversation happened; "上次"/"last time" takes the latest; otherwise
 * episodes are ranked by relevance like any memory. Without a time cue and off-topic, none.
 * A time cue also reaches episodes the lifecycle archived after 14 days: they are the long-term
 * trail of conversations, kept out of relevance ranking but never out of "what did we say in May".
 */
const TRAIL = ['active', 'archived'] as const;

export interface RecallEpisodesOptions {
  userId: string;
  query: string;
  limit: number;
  timeZone: string;
  /**
   * A ranking of every kind for the same query (`rankMemories`, active memories) with the
   * 'context' recipe's ranking (minRelevance may be lower), when the caller has one: episodes are
   * taken from it instead of a second search over the user's memories. Calibrated relevance is absolute, so the bar means the same.
   */
  recalled?: Promise<readonly RankedMemory[]>;
}

export async function recallEpisodes(deps: MemoryDeps, options: RecallEpisodesOptions): Promise<Memory[]> {
  const { userId, query, limit } = options;
  const intent = readTimeIntent(query, deps.clock.now(), options.timeZone);
  if (intent.from || intent.to) {
    return deps.store.listMemories({ userId, kinds: ['episode'], statuses: TRAIL, happenedFrom: intent.from, happenedTo: intent.to, orderBy: 'happenedAt', limit });
  }
  if (intent.latest || intent.aboutConversations) {
    const latest = await deps.store.listMemories({ userId, kinds: ['episode'], statuses: TRAIL, orderBy: 'happenedAt', limit: intent.latest ? 1 : limit });
    if (intent.latest || query.trim().length < 12) return latest;
  }
  if (options.recalled) {
    const bar = RECIPES.context.minRelevance;
    const ids = (await options.recalled).filter((r) => r.fields.kind === 'episode' && r.score.relevance >= bar).slice(0, limit).map((r) => r.fields.id);
    const whole = await loadRanked(deps, userId, ids, ['active']);
    return ids.flatMap((id) => whole.get(id) ?? []);
  }
  const relevant = await recall(deps, { userId, query, kinds: ['episode'], limit, recipe: 'context', touch: false });
  return relevant.map((r) => r.memory);
}
