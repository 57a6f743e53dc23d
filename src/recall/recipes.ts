import { RecallConfig, type RecallConfigInput } from './recall-config.js';

/** Named presets. A caller may pass a recipe name or a partial config over the default. */
export const RECIPES = {
  /**
   * The default for memories: hybrid vector + keyword, calibrated (absolute) relevance, ranked by
   * relevance, recency and importance (seed 004).
   */
  hybrid: RecallConfig.parse({}),
  /**
   * The default for raw messages: hybrid with z-score fusion, which ranks turns better than the
   * calibrated curve once neighbours and sessions borrow (LoCoMo 5–9 R@10 76.2 against 75.1);
   * each turn still carries its absolute relevance.
   */
  messages: RecallConfig.parse({ fusion: 'zscore' }),
  /** Keyword (BM25 over Chinese-aware segmented terms) only; relevance min-max within the query. */
  keyword: RecallConfig.parse({ methods: ['keyword'], fusion: 'zscore' }),
  /** Vector (cosine) only; relevance min-max within the query. */
  vector: RecallConfig.parse({ methods: ['vector'], fusion: 'zscore' }),
  /** Hybrid with reciprocal-rank fusion, for comparison. */
  hybridRrf: RecallConfig.parse({ fusion: 'rrf' }),
  /** Pure relevance, no recency or importance: for benchmarks of ranking alone. */
  relevanceOnly: RecallConfig.parse({ weights: { relevance: 1, recency: 0, importance: 0 } }),
  /**
   * What the context builder uses: hybrid, and nothing below a calibrated relevance of 0.3, the
   * same bar for every query. On LoCoMo 0–4 it keeps about 90 % of evidence turns (their p10 is
   * 0.28) and drops most other candidates (median 0.18).
   */
  context: RecallConfig.parse({ minRelevance: 0.3 }),
} as const satisfies Record<string, RecallConfig>;

export type RecipeName = keyof typeof RECIPES;
export const DEFAULT_RECIPE: RecipeName = 'hybrid';

export function resolveRecallConfig(recipe: RecipeName | undefined, overrides: RecallConfigInput | undefined): RecallConfig {
  const base = RECIPES[recipe ?? DEFAULT_RECIPE];
  return overrides ? RecallConfig.parse({ ...base, ...overrides }) : base;
}
