import { RecallConfig, type RecallConfigInput } from './recall-config.js';

/** Named presets. A caller may pass a recipe name or a partial config over the default. */
export const RECIPES = {
  /** Hybrid vector + keyword, z-score fusion, ranked by relevance, recency and importance. */
  hybrid: RecallConfig.parse({}),
  /** Keyword (BM25 over Chinese-aware segmented terms) only. */
  keyword: RecallConfig.parse({ methods: ['keyword'] }),
  /** Vector (cosine) only. */
  vector: RecallConfig.parse({ methods: ['vector'] }),
  /** Hybrid with reciprocal-rank fusion, for comparison. */
  hybridRrf: RecallConfig.parse({ fusion: 'rrf' }),
  /** Pure relevance, no recency or importance: for benchmarks of ranking alone. */
  relevanceOnly: RecallConfig.parse({ weights: { relevance: 1, recency: 0, importance: 0 } }),
  /** What the context builder uses: hybrid, and nothing below a similarity floor unless a keyword matched. */
  context: RecallConfig.parse({ minSimilarity: 0.2 }),
} as const satisfies Record<string, RecallConfig>;

export type RecipeName = keyof typeof RECIPES;
export const DEFAULT_RECIPE: RecipeName = 'hybrid';

export function resolveRecallConfig(recipe: RecipeName | undefined, overrides: RecallConfigInput | undefined): RecallConfig {
  const base = RECIPES[recipe ?? DEFAULT_RECIPE];
  return overrides ? RecallConfig.parse({ ...base, ...overrides }) : base;
}
