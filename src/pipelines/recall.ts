import { USED_RELEVANCE } from '../recall/calibration.js';
import { z } from 'zod';
import { MemoryKind, MemoryStatus, type Memory } from '../domain/memory.js';
import { parseInput } from '../errors.js';
import { findCandidates } from '../recall/candidates.js';
import { finalScore, recency, type ScoreParts } from '../recall/rank.js';
import { RecallConfig } from '../recall/recall-config.js';
import { RECIPES, resolveRecallConfig, type RecipeName } from '../recall/recipes.js';
import { scoreWithBonus } from '../recall/score-with-bonus.js';
import type { RankingFields } from '../store/store.js';
import type { MemoryDeps } from './deps.js';
import { resolveSettings } from './settings.js';

export const RecallOptions = z.object({
  userId: z.string().min(1),
  query: z.string().max(20_000),
  /** @default 10 */
  limit: z.number().int().min(1).max(500).default(10),
  kinds: z.array(MemoryKind).optional(),
  /** @default ['active'] */
  statuses: z.array(MemoryStatus).min(1).default(['active']),
  agentId: z.string().optional(),
  sessionId: z.string().optional(),
  /** createdAt window. */
  from: z.coerce.date().optional(),
  to: z.coerce.date().optional(),
  /** Also return memories whose expiresAt has passed. @default false */
  includeExpired: z.boolean().default(false),
  /** @default 'hybrid' */
  recipe: z.enum(Object.keys(RECIPES) as [RecipeName, ...RecipeName[]]).optional(),
  /** Partial config over the recipe. */
  config: RecallConfig.partial().optional(),
  /** Time zone for dates the query names ("yesterday", "6月"). @default the user's settings */
  timeZone: z.string().optional(),
  /** Record the access (lastAccessedAt, accessCount). Never raises importance. @default true */
  touch: z.boolean().default(true),
});
export type RecallOptions = z.input<typeof RecallOptions>;
/**
 * What a call parses of its options: all but `config`, which `resolveRecallConfig` checks merged
 * with its recipe, once per distinct config. Parsing the partial config on every call took most of
 * the options' parse (4.2 against 1.2 µs in a loop, about 100 µs inside a context build).
 */
const OwnOptions = RecallOptions.omit({ config: true });

export interface RecalledMemory {
  memory: Memory;
  score: ScoreParts;
}

/** A ranked candidate before its whole memory is read: the fields ranking used, and its score. */
export interface RankedMemory {
  fields: RankingFields;
  score: ScoreParts;
}

/**
 * Hybrid recall within one user: vector and keyword candidates, fused, then ranked by relevance,
 * recency and importance. Each result carries its score parts.
 */
export async function recall(deps: MemoryDeps, options: RecallOptions): Promise<RecalledMemory[]> {
  const o = parseInput(OwnOptions, options, 'recall options');
  const now = deps.clock.now();
  const best = await rankRecall(deps, o, options.config, now);
  const whole = await loadRanked(deps, o.userId, best.map((r) => r.fields.id), o.statuses);
  // A memory changed away between the two reads (deleted, purged) is left out rather than shown stale.
  const top: RecalledMemory[] = best.flatMap((r) => {
    const memory = whole.get(r.fields.id);
    return memory ? [{ memory, score: r.score }] : [];
  });

  // A weak best match (a search has no relevance floor of its own) is no use of the memory: only
  // what the query matches holds off its decay.
  const used = o.touch ? top.filter((r) => r.score.relevance >= USED_RELEVANCE) : [];
  if (used.length > 0) {
    await deps.store.recordAccess(o.userId, used.map((r) => r.memory.id), now);
    for (const r of used) {
      r.memory = { ...r.memory, lastAccessedAt: now, accessCount: r.memory.accessCount + 1 };
    }
  }
  return top;
}

/** Whole memories by id, of the given statuses; ids no longer there are absent. */
export async function loadRanked(deps: MemoryDeps, userId: string, ids: readonly string[], statuses: readonly MemoryStatus[]): Promise<Map<string, Memory>> {
  if (ids.length === 0) return new Map();
  return new Map((await deps.store.listMemories({ userId, ids, statuses })).map((m) => [m.id, m]));
}

/**
 * Recall's ranking without reading whole memories: the best `limit` candidates, best first, with
 * the fields ranking read. For a caller that reads whole memories only for what it uses (the
 * context block stops at its token budget long before 100 memories); `recall` reads them all.
 * Touches nothing.
 */
export async function rankMemories(deps: MemoryDeps, options: RecallOptions): Promise<RankedMemory[]> {
  const o = parseInput(OwnOptions, options, 'recall options');
  return rankRecall(deps, o, options.config, deps.clock.now());
}

async function rankRecall(deps: MemoryDeps, o: z.output<typeof OwnOptions>, overrides: RecallOptions['config'], now: Date): Promise<RankedMemory[]> {
  // The caller's own partial config: the parsed one would have every default filled in, undoing the recipe.
  const config = resolveRecallConfig(o.recipe, overrides);
  const query = o.query.trim();
  if (query.length === 0) return [];
  const filtered = o.kinds !== undefined || o.agentId !== undefined || o.sessionId !== undefined || o.from !== undefined || o.to !== undefined;
  // Filters apply after candidate generation, so fetch more when they may discard many.
  const k = filtered ? config.candidates * 4 : config.candidates;

  const { queryVector, vectorScores, keywordScores, coverage, ids: candidateIds } = await findCandidates({
    query,
    config,
    embedder: deps.embedder,
    searchVector: (vector) => deps.store.searchVector({ userId: o.userId, vector, k, statuses: o.statuses, embedderId: deps.embedder.id }),
    searchKeyword: (terms) => deps.store.searchKeyword({ userId: o.userId, terms, k, statuses: o.statuses, bm25: config.bm25 }),
  });
  if (candidateIds.length === 0) return [];

  // Ranking reads a few fields of every candidate; whole memories are loaded for the top only.
  const memories = await deps.store.listRankingFields({
    userId: o.userId,
    ids: candidateIds,
    statuses: o.statuses,
    kinds: o.kinds,
    agentId: o.agentId,
    sessionId: o.sessionId,
    createdFrom: o.from,
    createdTo: o.to,
    notExpiredAt: o.includeExpired ? undefined : now,
  });

  // Keyword-only candidates still get a cosine, so both methods judge every candidate.
  if (queryVector) {
    const missing = memories.filter((m) => !vectorScores.has(m.id)).map((m) => m.id);
    for (const [id, score] of await deps.store.vectorScores(o.userId, missing, queryVector)) vectorScores.set(id, score);
  }

  const similar = memories.filter((m) => keywordScores.has(m.id) || (vectorScores.get(m.id) ?? -1) >= config.minSimilarity);
  const { scores, dateBonus: dateBonusOf, expansion: expansionOf, timed } = await scoreWithBonus({
    query, now, config, vectorScores, keywordScores, coverage,
    items: similar.map((m) => ({ id: m.id, text: m.content, at: m.happenedAt ?? m.createdAt })),
    timeZone: async () => o.timeZone ?? (await resolveSettings(deps.store, o.userId)).timeZone,
    searchKeyword: (terms) => deps.store.searchKeyword({ userId: o.userId, terms, k, statuses: o.statuses, bm25: config.bm25 }),
  });
  const kept = similar.filter((m) => scores.get(m.id)!.relevance >= config.minRelevance);

  const ranked = kept.map((memory) => {
    const rel = scores.get(memory.id)!.relevance;
    const rec = recency(memory, now, config.recencyDays);
    const score: ScoreParts = {
      relevance: rel,
      recency: rec,
      importance: memory.importance,
      // A question that names a time ("in June 2025", "上周") asks about then, not about lately:
      // recency is left out of its order (every candidate counts as fresh), so it cannot outweigh the date.
      final: finalScore(rel, timed ? 1 : rec, memory.importance, config),
    };
    const v = vectorScores.get(memory.id);
    const kw = keywordScores.get(memory.id);
    if (v !== undefined) score.vector = v;
    if (kw !== undefined) score.keyword = kw;
    if (kw !== undefined) score.coverage = coverage.get(memory.id)!;
    if (dateBonusOf.has(memory.id)) score.dateMatch = dateBonusOf.get(memory.id)!;
    if (expansionOf.has(memory.id)) score.expansion = expansionOf.get(memory.id)!;
    return { fields: memory, score };
  });
  ranked.sort((a, b) => b.score.final - a.score.final);
  return ranked.slice(0, o.limit);
}
