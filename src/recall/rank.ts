import type { Memory } from '../domain/memory.js';
import type { RecallConfig } from './recall-config.js';

const DAY_MS = 86_400_000;

/** Why an item was recalled: every part of its score. */
export interface ScoreParts {
  /** Cosine similarity to the query, when the item has a vector. */
  vector?: number;
  /** BM25 keyword score, when a query term matched. */
  keyword?: number;
  /** Keyword coverage: BM25 over the query's ideal score, when a query term matched. */
  coverage?: number;
  /** Log-odds added because the item is dated in a span of time the query names (recall/date-match.ts). */
  dateMatch?: number;
  /**
   * Log-odds added because the item holds terms the query's best first-pass matches share (query
   * expansion, config `expansion`), though not necessarily the query's own words.
   */
  expansion?: number;
  /**
   * Relevance on [0, 1]. With calibrated fusion (the default) it is absolute: a weak best match
   * stays weak. With zscore or rrf fusion it is min-max rescaled within this query's candidates.
   */
  relevance: number;
  /** exp(−days / recencyDays): 1 for just now, 0.37 after recencyDays. */
  recency: number;
  importance: number;
  /** What the ranking uses: relevance scaled by recency and importance (or their weighted sum; config `combine`). */
  final: number;
}

/** Recency from the last time the memory was confirmed, changed or recalled. */
export function recency(memory: Pick<Memory, 'updatedAt' | 'lastAccessedAt'>, now: Date, recencyDays: number): number {
  const last = Math.max(memory.updatedAt.getTime(), memory.lastAccessedAt?.getTime() ?? 0);
  const ageDays = Math.max(0, now.getTime() - last) / DAY_MS;
  return Math.exp(-ageDays / recencyDays);
}

export function finalScore(relevance: number, rec: number, importance: number, config: Pick<RecallConfig, 'weights' | 'combine'>): number {
  const { weights } = config;
  if (config.combine === 'product') return relevance * (weights.relevance + weights.recency * rec + weights.importance * importance);
  return weights.relevance * relevance + weights.recency * rec + weights.importance * importance;
}
