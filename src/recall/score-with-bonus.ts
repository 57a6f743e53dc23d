import type { SearchHit } from '../store/store.js';
import { indexTerms } from '../text/segment.js';
import { dateBonus, readDateWindows } from './date-match.js';
import { expansionTerms } from './expansion.js';
import type { MethodScores } from './fusion.js';
import type { RecallConfig } from './recall-config.js';
import { scoreCandidates, type CandidateScore } from './score-candidates.js';

/** A candidate as the bonuses see it: its text and its date. */
export interface BonusItem {
  id: string;
  text: string;
  /** When it happened (a memory's happenedAt, else createdAt; a message's createdAt). */
  at: Date;
}

/**
 * The ranking core's second half, shared by memory recall and message search: the candidates'
 * scores with the bonuses beyond the two methods added to their log-odds (z-score units with
 * z-score fusion): date matching (the query names a time the candidate is dated in) and, when
 * the config turns it on, query expansion (RM3: a second keyword search over the terms the best
 * first-pass candidates share).
 */
export async function scoreWithBonus(input: {
  query: string;
  now: Date;
  items: readonly BonusItem[];
  vectorScores: MethodScores;
  keywordScores: MethodScores;
  coverage: MethodScores;
  config: RecallConfig;
  timeZone: () => Promise<string>;
  /** The expansion's keyword search, over the same candidates' source. */
  searchKeyword: (terms: string[]) => Promise<SearchHit[]>;
}): Promise<{
  scores: Map<string, CandidateScore>;
  dateBonus: Map<string, number>;
  expansion: Map<string, number>;
  /** The query names a span of time (and date matching is on): it asks about then, not about lately. */
  timed: boolean;
}> {
  const { query, items, config } = input;
  const ids = items.map((m) => m.id);
  const { weight, slackDays, unmatchedWeight } = config.dateMatch;
  // A date alone says nothing about the topic ("how is the stock market today?" must not bring back
  // everything said today): a candidate that shares no word with the query gets `unmatchedWeight`,
  // 0 unless the recipe says otherwise.
  const matched = weight === 0 && unmatchedWeight === 0 ? new Map<string, number>() : await dateBonus({
    query,
    now: input.now,
    config: { weight: 1, slackDays },
    items: (unmatchedWeight > 0 ? items : items.filter((m) => input.keywordScores.has(m.id))).map((m) => ({ id: m.id, at: m.at })),
    timeZone: input.timeZone,
  });
  const bonus = new Map<string, number>();
  for (const id of matched.keys()) {
    const w = input.keywordScores.has(id) ? weight : unmatchedWeight;
    if (w > 0) bonus.set(id, w);
  }
  const dates = new Map(bonus);
  const score = (): Map<string, CandidateScore> => scoreCandidates({ ids, vectorScores: input.vectorScores, keywordScores: input.keywordScores, coverage: input.coverage, bonus, config });
  let scores = score();
  const expanded = new Map<string, number>();
  const { expansion } = config;
  if (expansion.weight > 0 && config.methods.includes('keyword') && items.length > 0) {
    const best = [...items].sort((a, b) => scores.get(b.id)!.fused - scores.get(a.id)!.fused).slice(0, expansion.docs);
    const terms = expansionTerms({ docs: best.map((m) => ({ text: m.text, weight: scores.get(m.id)!.absolute })), queryTerms: indexTerms(query), count: expansion.terms });
    if (terms.length > 0) {
      const known = new Set(ids);
      for (const hit of await input.searchKeyword(terms)) {
        const added = expansion.weight * (hit.coverage ?? 0);
        if (!known.has(hit.id) || added <= 0) continue;
        expanded.set(hit.id, added);
        bonus.set(hit.id, (bonus.get(hit.id) ?? 0) + added);
      }
      scores = score();
    }
  }
  const timed = config.dateMatch.weight > 0 && readDateWindows(query, input.now).length > 0;
  return { scores, dateBonus: dates, expansion: expanded, timed };
}
