// The data shapes the store ports take and return. Kept apart from the ports so each port file
// imports only types, and src/store/store.ts re-exports everything for existing imports.
import type { Message } from '../../domain/conversation.js';
import type { Memory, MemoryKind, MemoryStatus } from '../../domain/memory.js';

/** Filters for listing memories. Every query is scoped to one user. */
export interface MemoryQuery {
  userId: string;
  ids?: readonly string[];
  kinds?: readonly MemoryKind[];
  /** @default ['active'] */
  statuses?: readonly MemoryStatus[];
  agentId?: string;
  sessionId?: string;
  /** createdAt window, inclusive. */
  createdFrom?: Date;
  createdTo?: Date;
  /** happenedAt window, inclusive (events and episodes). */
  happenedFrom?: Date;
  happenedTo?: Date;
  /** When set, memories whose expiresAt has passed at this instant are left out. */
  notExpiredAt?: Date;
  /** @default 'createdAt' */
  orderBy?: 'createdAt' | 'updatedAt' | 'importance' | 'happenedAt';
  /** @default 'desc' */
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

/**
 * What ranking reads of a memory: recall reads these for every candidate (a hundred or more) and
 * whole memories only for the few it returns.
 */
export type RankingFields = Pick<Memory, 'id' | 'userId' | 'kind' | 'content' | 'importance' | 'createdAt' | 'updatedAt' | 'happenedAt' | 'lastAccessedAt' | 'accessCount'>;

/** A candidate from one retrieval method; `score` is method-specific (higher is better). */
export interface SearchHit {
  id: string;
  score: number;
  /** Keyword hits: BM25 over the query's ideal score, comparable across queries (about 0..2). */
  coverage?: number;
}

export interface VectorSearch {
  userId: string;
  vector: Float32Array;
  k: number;
  /** Restricts candidates to these statuses. @default ['active'] */
  statuses?: readonly MemoryStatus[];
  /**
   * The embedder that made `vector`. When given and the store is bound to another one (a reindex
   * by another process), the search is refused with EMBEDDER_MISMATCH, even at the same dimensions.
   */
  embedderId?: string;
}

export interface KeywordSearch {
  userId: string;
  /** Index terms of the query (see text/segment.ts indexTerms). Never FTS syntax: the store quotes them. */
  terms: readonly string[];
  k: number;
  statuses?: readonly MemoryStatus[];
  /** BM25 parameters; k1 term saturation, b length normalisation. */
  bm25?: { k1: number; b: number };
}

export interface EmbedderInfo {
  id: string;
  dimensions: number;
}

export type Collection = 'memories' | 'messages';

/** How far the store's vectors are from complete for the bound embedder (an interrupted reindex shows here). */
export interface VectorStatus {
  embedder: EmbedderInfo | null;
  total: Record<Collection, number>;
  /** Rows still waiting for a vector from the bound embedder. */
  pending: Record<Collection, number>;
  /** True when every row has its vector: search sees everything. */
  complete: boolean;
}

/** One extraction attempt, kept for inspection: counts, rejected operations, the model's reason. */
export interface ExtractionRun {
  id: string;
  userId: string;
  sessionId: string;
  fromSeq: number;
  throughSeq: number;
  /** "heuristic", "small-talk", or the prompt id@version. */
  extractor: string;
  outcome: 'applied' | 'skipped' | 'failed';
  counts: Record<string, number>;
  rejected: Array<{ op: string; target?: string; reason: string }>;
  reason?: string;
  error?: string;
  at: Date;
}

export interface NewStoredMessage {
  id: string;
  role: Message['role'];
  content: string;
  callerId?: string;
  createdAt: Date;
  expiresAt?: Date;
  vector: Float32Array | null;
  embedderId?: string;
}

export interface MessageQuery {
  userId: string;
  sessionId?: string;
  ids?: readonly string[];
  /** seq strictly greater than this. */
  afterSeq?: number;
  /** seq less than or equal to this. */
  throughSeq?: number;
  /** @default 'asc' */
  order?: 'asc' | 'desc';
  limit?: number;
}

/** The fields of a memory the store may change in place. */
export type MemoryChanges = Partial<Omit<Memory, 'id' | 'userId' | 'createdAt'>>;

/**
 * A condition on a memory's update, checked on the row the write holds (not on an earlier read), so
 * two processes that read the same version cannot both apply a change based on it.
 */
export interface UpdateCondition {
  /** Apply only while the memory's version (memoryVersion) is one of these; else PRECONDITION_FAILED and nothing changes. */
  ifVersion: readonly string[];
}
