import { z } from 'zod';

/**
 * How the context block ranks memories and conversation excerpts together. Both are scored on one
 * absolute scale built from signals that mean the same for either kind: the cosine between the
 * query and the text (same embedder), and the BM25 keyword score squashed to [0, 1). Relative
 * scores (min-max over one query's candidates) cannot say "nothing here is relevant"; these can,
 * so the block stops at `floor` instead of filling the budget with noise.
 * Defaults tuned on LoCoMo conversations 0–1 with the bundled embedder (bench/tune-context.ts);
 * `excerptMinVector` on conversation 0 (bench/tune-context-grid.ts: 0.1 kept recall and cut unrelated
 * questions' tokens; 0.15–0.2 cut more but lost 1–2.5 points offline); `searchWeight`,
 * `neighbourFactor` and `memoryBonus` on conversations 0–4 (session 8, bench/results/2026-11-25-s8.md).
 */
export const ContextRanking = z.object({
  /** Weight of the squashed keyword score added to the cosine. */
  keywordWeight: z.number().min(0).max(2).default(1),
  /** BM25 score at which the keyword part reaches half its weight. */
  keywordHalf: z.number().positive().default(6),
  /** An excerpt also counts its best neighbour turn's evidence at this factor (the answer to a matching question). */
  neighbourFactor: z.number().min(0).max(1).default(0.7),
  /** Items scoring below this are left out, whatever budget remains. */
  floor: z.number().min(-1).max(3).default(0.45),
  /**
   * The floor for memories. A distilled fact costs a line, an excerpt a paragraph; and with the bundled
   * embedder a related pair such as "推荐一些宠物用品" / "用户喜欢猫" (seed 000's own example) sits at
   * cosine 0.25–0.35, unrelated pairs near 0.1–0.2. Excerpts keep the stricter `floor`.
   */
  memoryFloor: z.number().min(-1).max(3).default(0.3),
  /**
   * Added to `floor` for an excerpt that shares no keyword with the query (nor does the neighbour it
   * borrows its score from): small talk ("that sounds great!") sits close to any short question on
   * cosine alone, so a match on meaning only has to be clearer before a paragraph is spent on it.
   */
  semanticMargin: z.number().min(0).max(1).default(0),
  /**
   * Cosine an excerpt's scoring turn must reach, whatever its keywords: one shared common word
   * ("how many moons…" / "wishing you many happy years") lifts a turn about something else over the
   * floor on keywords alone.
   */
  excerptMinVector: z.number().min(-1).max(1).default(0.1),
  /** Turns the message search returns as excerpt candidates. */
  excerptCandidates: z.number().int().min(1).max(500).default(40),
  /**
   * Weight of each source's own ranking in the block's order (`sourceLift`): an excerpt's message
   * search score (with neighbour, session and date borrowing), a memory's recall score (relevance,
   * recency, importance). It orders only: a candidate's floor rises by the same amount.
   */
  searchWeight: z.number().min(0).max(2).default(1),
  /**
   * Added to a memory's score: a distilled fact says more per token than a raw turn. It also carries
   * seed 000's own example over the memory floor ("推荐一些宠物用品" / "用户喜欢猫", cosine about 0.3 with
   * the bundled embedder: memory-floor.test.ts). At 0 LoCoMo 0–4 kept the same recall and spent 116
   * rather than 158 tokens on unrelated questions, but that example fell out.
   */
  memoryBonus: z.number().min(-1).max(1).default(0.05),
  /**
   * When some candidate clears its floor by this much, the question is plainly about the user's
   * past, and every floor drops by `confidentFloorDrop` for the rest: the weaker evidence around a
   * clear match (another session's mention, the answer a few turns on) is then worth its tokens,
   * while a question about nothing in the pool, whose best candidate only grazes the floor, keeps
   * the strict floor. LoCoMo 0–4 (session 10, bench/results/2026-11-25-s10-context.md), evidence
   * recall offline @1,500 87.7 → 88.1 with the same tokens on unrelated questions (143 / 118);
   * a margin of 0.3 began to spend more there (146 / 123), 0.4–0.5 with a drop of 0.1–0.2 all read 88.1–88.2.
   */
  confidentMargin: z.number().min(0).max(3).default(0.5),
  /** How far every floor drops once a candidate clears its own by `confidentMargin`; 0 turns it off. */
  confidentFloorDrop: z.number().min(0).max(1).default(0.1),
  /**
   * The floor for the user's preferences when the message asks for suggestions ("Any weekend ideas
   * for me?", "给我推荐一个礼物": text/suggestion-request.ts). Such a request is about the user's
   * tastes even when it names none: "Ann loves hiking in the Alps" sits at cosine 0.11 to the
   * weekend question with the bundled embedder, under `memoryFloor`, and the block had been empty.
   */
  suggestionFloor: z.number().min(-1).max(3).default(0.1),
  /** At most this many preferences come in under `suggestionFloor` (those over `memoryFloor` do not count). */
  suggestionPreferences: z.number().int().min(0).max(50).default(3),
  /**
   * At most this many allergies, intolerances and diets (text/dietary-constraint.ts) come in at
   * the top of the block when the message asks for suggestions, however far from its words:
   * "Can you suggest a seafood restaurant for me?" had an empty block beside "The user is allergic
   * to shellfish". 0 turns it off.
   */
  suggestionConstraints: z.number().int().min(0).max(20).default(3),
});
export type ContextRanking = z.infer<typeof ContextRanking>;
export type ContextRankingInput = z.input<typeof ContextRanking>;

/** The raw signals of one text against the query. */
export interface Signals {
  /** Cosine similarity, when the text has a vector. */
  vector?: number;
  /** Raw BM25 score, when a query term matched. */
  keyword?: number;
}

/**
 * What a source's own ranking adds to its candidates' order: `weight` × their score min-max
 * rescaled over the source's candidates (the best gets the whole weight, all of it when they tie).
 * Added to a candidate's score and its floor alike, so it orders and never lets anything in.
 */
export function sourceLift(scores: readonly number[], weight: number): number[] {
  if (weight === 0 || scores.length === 0) return scores.map(() => 0);
  const lo = Math.min(...scores);
  const span = Math.max(...scores) - lo;
  return scores.map((s) => weight * (span > 0 ? (s - lo) / span : 1));
}

/** One signal scale for memories and turns: cosine plus a bounded keyword part. */
export function evidenceScore(s: Signals, r: ContextRanking): number {
  const kw = s.keyword !== undefined && s.keyword > 0 ? s.keyword / (s.keyword + r.keywordHalf) : 0;
  return (s.vector ?? 0) + r.keywordWeight * kw;
}

export interface RankedCandidate<T> {
  item: T;
  score: number;
  /** This candidate's own floor (memories use `memoryFloor`). @default the ranking's `floor` */
  floor?: number;
}

/**
 * Merges the candidates of both sources into one list, best first, cut at the floor (lower by
 * `confidentFloorDrop` when one candidate clears its floor by `confidentMargin`). Ties keep the
 * order the sources gave (memories first), so the result is deterministic.
 */
export function rankEvidence<T>(candidates: ReadonlyArray<RankedCandidate<T>>, r: ContextRanking): Array<RankedCandidate<T>> {
  const floorOf = (c: RankedCandidate<T>): number => c.floor ?? r.floor;
  const drop = floorDrop(candidates, r);
  return candidates
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.score >= floorOf(c) - drop)
    .sort((a, b) => b.c.score - a.c.score || a.i - b.i)
    .map(({ c }) => c);
}

/** How far every floor drops for these candidates: `confidentFloorDrop` when one clears its own by `confidentMargin`, else 0. */
export function floorDrop(candidates: ReadonlyArray<Pick<RankedCandidate<unknown>, 'score' | 'floor'>>, r: ContextRanking): number {
  return candidates.some((c) => c.score - (c.floor ?? r.floor) >= r.confidentMargin) ? r.confidentFloorDrop : 0;
}
