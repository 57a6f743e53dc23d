import { InvalidInputError, parseInput } from '../errors.js';
import { recentResults } from '../util/recent-results.js';
import { RecallConfig, type RecallConfigInput } from './recall-config.js';

const BASE_CONVERSATION = RecallConfig.parse({}).conversation;

/** The memories default's changes over the plain config (see `hybrid` below). */
const HYBRID: RecallConfigInput = {
  weights: { relevance: 0.6, recency: 0.1, importance: 0.2 },
  expansion: { docs: 10, terms: 12, weight: 1.5 },
};

/** Named presets. A caller may pass a recipe name or a partial config over the default. */
export const RECIPES = {
  /**
   * The default for memories: hybrid vector + keyword, calibrated (absolute) relevance, ranked by
   * relevance, recency and importance (seed 004). Two changes over the plain config, chosen on
   * LoCoMo 0–4 (bench/memories-path.ts, every turn one memory):
   * - query expansion (RM3: 12 terms the best 10 first-pass matches share, weight 1.5): a memory
   *   that answers in other words than the question's gets the topic's words;
   * - recency weighs 0.1 rather than 0.2: under the product combination a fresh memory is lifted
   *   by at most 1.14× rather than 1.29×, enough to order near-ties, no longer enough to put a
   *   recent aside above an older memory about the question. Recency stays in the formula.
   * Together: R@10 64.2 → 64.6 with the peers run's hash embeddings, 70.3 → 71.6 with the bundled
   * embedder (held-out 5–9: 63.6 → 64.3, 68.4 → 69.5). The context recipe keeps the plain config:
   * its relevance floor was measured without expansion, which raises relevance.
   */
  hybrid: RecallConfig.parse(HYBRID),
  /**
   * The default for raw messages: hybrid with z-score fusion, which ranks turns better than the
   * calibrated curve once neighbours and sessions borrow (LoCoMo 5–9 R@10 76.2 against 75.1);
   * each turn still carries its absolute relevance. Borrowing and date matching chosen on LoCoMo
   * 0–4 by `bench/tune-locomo.ts` (R@10 80.1 → 81.6; held-out 5–9 78.1 → 78.9): a turn borrows
   * most of its best neighbour's and its session's best turn's score, and a date the question
   * names counts only for turns said on it (a message is dated when it was said, not when what it
   * tells of happened, so no slack).
   * Two more, chosen on LoCoMo 0–4 in session 9 (bench/results/2026-11-25-s9-rank.md; R@10 81.6 →
   * 83.6 there, held-out 5–9 78.9 → 80.6): a turn that ends on a question ranks 1.5 z-units lower
   * (it asks; the evidence is its answer, which borrows from it), and a turn said on the date the
   * question names counts even when it shares no word with the question (weight 2, the same as a
   * turn that does: the candidates are already the question's nearest by meaning or their neighbours).
   */
  messages: RecallConfig.parse({
    fusion: 'zscore',
    conversation: { radius: 2, neighbourWeight: 0.8, sessionWeight: 0.8, sessionTop: 1, questionPenalty: 1.5 },
    dateMatch: { weight: 2, slackDays: 0, unmatchedWeight: 2 },
  }),
  /**
   * Keyword (BM25 over Chinese-aware segmented terms) only; relevance min-max within the query.
   * Over messages a turn ending on a question ranks 1 z-unit lower (LoCoMo 0–4 R@10 78.1 → 78.4).
   */
  keyword: RecallConfig.parse({ methods: ['keyword'], fusion: 'zscore', conversation: { ...BASE_CONVERSATION, questionPenalty: 1 } }),
  /** Vector (cosine) only; relevance min-max within the query. */
  vector: RecallConfig.parse({ methods: ['vector'], fusion: 'zscore' }),
  /** Hybrid with reciprocal-rank fusion, for comparison. */
  hybridRrf: RecallConfig.parse({ fusion: 'rrf' }),
  /** Pure relevance, no recency or importance: for benchmarks of ranking alone. */
  relevanceOnly: RecallConfig.parse({ weights: { relevance: 1, recency: 0, importance: 0 } }),
  /**
   * What the context builder uses: the plain config (hybrid as it was before expansion and the
   * lighter recency), and nothing below a calibrated relevance of 0.3, the same bar for every
   * query. On LoCoMo 0–4 it keeps about 90 % of evidence turns (their p10 is 0.28) and drops most
   * other candidates (median 0.18). That floor was measured without expansion, which raises
   * relevance: measure it again before giving this recipe the memories default's changes.
   */
  context: RecallConfig.parse({ minRelevance: 0.3 }),
} as const satisfies Record<string, RecallConfig>;

export type RecipeName = keyof typeof RECIPES;
export const DEFAULT_RECIPE: RecipeName = 'hybrid';

export function resolveRecallConfig(recipe: RecipeName | undefined, overrides: RecallConfigInput | undefined): RecallConfig {
  const base = RECIPES[recipe ?? DEFAULT_RECIPE];
  if (overrides === undefined) return base;
  if (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides)) throw new InvalidInputError('Invalid recall config: expected an object', { details: { issues: ['(root): expected an object'] } });
  // Parsed once per recipe and overrides (the context build passes the same ones every call).
  // Shared between calls, so frozen: a caller changing it would change every later recall.
  const key = JSON.stringify(overrides, (_, v: unknown) => (v === undefined ? '\u0000undefined' : v));
  return configs(`${recipe ?? DEFAULT_RECIPE}\u0000${key}`, () => deepFreeze(parseInput(RecallConfig, { ...base, ...overrides }, 'recall config')));
}
const configs = recentResults<RecallConfig>(32);
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
