import { z } from 'zod';
import { Calibration, DEFAULT_CALIBRATION } from './calibration.js';

/** Retrieval is data (STYLE): a config of enums and numbers, and named recipes built from it. */
export const RecallMethod = z.enum(['vector', 'keyword']);
export type RecallMethod = z.infer<typeof RecallMethod>;

/**
 * calibrated: a fixed logistic curve over cosine and keyword coverage (recall/calibration.ts);
 *   relevance is absolute, the same number means the same thing for every query.
 * zscore: standardise each method's scores over its candidates, then add them weighted
 *   (measured better than RRF on LoCoMo: it keeps how far ahead a strong match is).
 * rrf: reciprocal-rank fusion, rank only.
 */
export const FusionMethod = z.enum(['calibrated', 'zscore', 'rrf']);
export type FusionMethod = z.infer<typeof FusionMethod>;

export const RecallConfig = z.object({
  methods: z.array(RecallMethod).min(1).default(['vector', 'keyword']),
  fusion: FusionMethod.default('calibrated'),
  /** The curve of calibrated fusion. */
  calibration: Calibration.default(DEFAULT_CALIBRATION),
  /** Weight of each method in the fusion. */
  methodWeights: z.object({ vector: z.number().min(0), keyword: z.number().min(0) }).default({ vector: 0.6, keyword: 0.4 }),
  /** Candidates fetched per method before fusion. */
  candidates: z.number().int().min(1).max(1000).default(60),
  rrfK: z.number().positive().default(60),
  /** Seed 004's weights of relevance, recency and importance; `combine` says how they meet. */
  weights: z
    .object({ relevance: z.number().min(0), recency: z.number().min(0), importance: z.number().min(0) })
    .default({ relevance: 0.6, recency: 0.2, importance: 0.2 }),
  /**
   * How relevance meets recency and importance. product: relevance × (w.relevance + w.recency·recency
   * + w.importance·importance), so recency and importance order memories that are about the query
   * and never lift one that is not (LoCoMo 0–4 memories path R@10 +1.1, 5–9 +0.9 over sum with
   * the hash embeddings; bench/memories-path.ts). sum: seed 004's weighted sum as written.
   */
  combine: z.enum(['product', 'sum']).default('product'),
  /** Recency is exp(−days / recencyDays) since the memory was last confirmed, changed or recalled (seed 004). */
  recencyDays: z.number().positive().default(30),
  bm25: z.object({ k1: z.number().positive(), b: z.number().min(0).max(1) }).default({ k1: 1.2, b: 0.1 }),
  /**
   * A candidate is dropped unless its cosine similarity reaches this or it matched a keyword.
   * 0 keeps everything (plain search); the context recipe raises it so nothing unrelated is injected.
   */
  minSimilarity: z.number().min(-1).max(1).default(0),
  /**
   * A candidate is dropped when its relevance is below this. Meaningful with calibrated fusion,
   * where relevance is absolute; 0 keeps everything.
   */
  minRelevance: z.number().min(0).max(1).default(0),
  /**
   * Date matching: a keyword candidate dated (happenedAt, else createdAt) inside a span of time the query
   * names ("October 13, 2023", "in June", "2023年10月", "昨天"), or up to slackDays after it, gets
   * weight added to its relevance log-odds (a z-score unit with zscore fusion). 0 turns it off.
   * Chosen on LoCoMo 0–4 (bench/memories-path.ts): +1.9 R@10 on the memories path there, +2.2 on 5–9.
   */
  dateMatch: z
    .object({
      weight: z.number().min(0),
      slackDays: z.number().min(0),
      /**
       * The bonus for a candidate dated in the span that shares no word with the query (found by
       * its meaning, or as a neighbouring turn). 0 (the default) leaves such candidates alone: a
       * date alone says nothing about the topic. The messages recipe sets it, chosen on LoCoMo 0–4.
       */
      unmatchedWeight: z.number().min(0).default(0),
    })
    .default({ weight: 2, slackDays: 14, unmatchedWeight: 0 }),
  /**
   * Query expansion (RM3 on the keyword side): the first pass's best `docs` candidates give
   * `terms` new index terms; a second keyword search over them adds weight × its coverage to
   * each candidate's log-odds. 0 turns it off.
   */
  expansion: z.object({ docs: z.number().int().min(1), terms: z.number().int().min(1), weight: z.number().min(0) }).default({ docs: 5, terms: 8, weight: 0 }),
  /**
   * Raw messages only: a turn borrows score from its neighbours and its session, because the
   * evidence for a question is often the answer to the turn that matched it.
   */
  conversation: z
    .object({
      /** How many turns either side count as neighbours. */
      radius: z.number().int().min(0).max(5),
      /** Weight of the best neighbour's fused score. */
      neighbourWeight: z.number().min(0),
      /** Weight of the session's score (mean of its best turns). */
      sessionWeight: z.number().min(0),
      /** How many of a session's best turns make its score. */
      sessionTop: z.number().int().min(1),
      /**
       * Subtracted from the score of a turn that ends on a question (text/question.ts): a question
       * asks, its answer tells, so the answer should come first. The question still lends its
       * score to its neighbours, the answer among them. 0 turns it off.
       */
      questionPenalty: z.number().min(0).default(0),
    })
    .default({ radius: 2, neighbourWeight: 0.45, sessionWeight: 0.6, sessionTop: 3, questionPenalty: 0 }),
});
export type RecallConfig = z.infer<typeof RecallConfig>;
export type RecallConfigInput = z.input<typeof RecallConfig>;
