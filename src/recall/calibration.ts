import { z } from 'zod';

/**
 * Absolute relevance: a logistic curve over score parts that mean the same for every query
 * (cosine similarity and keyword coverage), fitted on labelled pairs by `bench/fit-calibration.ts`.
 * Unlike min-max rescaling, nothing forces the best candidate to 1: a query nothing answers gets
 * low relevance everywhere, so a floor (the context recipe's `minRelevance`) means the same for
 * every query. The fit weighs relevant and unrelated pairs equally, so 0.5 reads "as likely
 * related as not".
 */
export const Calibration = z.object({
  intercept: z.number(),
  /** Weight of the cosine similarity to the query (−1..1; 0 when the item has no vector). */
  vector: z.number(),
  /** Weight of the keyword coverage (BM25 over the query's ideal score; 0 when no term matched). */
  keyword: z.number(),
});
export type Calibration = z.infer<typeof Calibration>;

/**
 * Fitted on LoCoMo conversations 0–4 with the bundled embedder (`npx tsx bench/fit-calibration.ts`,
 * 290,388 candidate pairs, 1,292 evidence): evidence turns get a median relevance of 0.90, other
 * candidates 0.18 (p90 0.52). Another embedder has its own cosine scale: refit with its vectors.
 */
export const DEFAULT_CALIBRATION: Calibration = { intercept: -4.08, vector: 8.33, keyword: 6.96 };

/**
 * The calibrated relevance from which a memory that reaches the prompt counts as used (recorded as
 * accessed, which holds off its decay): the context recipe's floor, which keeps about 90 % of
 * evidence (LoCoMo 0–4) and drops most unrelated candidates (median 0.18). A block filled out with
 * weak matches for an off-topic question ("quantum chromodynamics lecture notes" bringing
 * "用户喜欢猫" at 0.15) must not keep everything alive.
 */
export const USED_RELEVANCE = 0.3;

export interface AbsoluteParts {
  vector?: number;
  coverage?: number;
}

/** The calibrated log-odds of relevance; what ranking adds to and borrows from. */
export function relevanceLogit(parts: AbsoluteParts, c: Calibration): number {
  return c.intercept + c.vector * (parts.vector ?? 0) + c.keyword * (parts.coverage ?? 0);
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
