import type { ChangeContext, HistoryEvent } from '../domain/history.js';
import type { Message, Session } from '../domain/conversation.js';
import type { Memory, MemoryKind, MemoryStatus } from '../domain/memory.js';
import type { Todo } from '../domain/todo.js';
import type { Profile, Relation } from '../domain/profile.js';

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
 * The storage port. Every method is scoped by userId: no method returns or touches another user's
 * rows. Every change to a memory writes a history event in the same transaction.
 */
export interface Store {
  /** The embedder this store's vectors were made with, or null for a store that has none yet. */
  embedderInfo(): Promise<EmbedderInfo | null>;
  /**
   * Binds the store to an embedder. The first bind creates the vector index; binding another
   * embedder throws EMBEDDER_MISMATCH unless `replace` is set (used by reindex, which drops every vector).
   */
  bindEmbedder(info: EmbedderInfo, options?: { replace?: boolean }): Promise<void>;

  insertMemory(memory: Memory, vector: Float32Array | null, change: ChangeContext): Promise<void>;
  /** Applies changes, records before/after of the changed fields, returns the new memory. */
  updateMemory(userId: string, id: string, changes: MemoryChanges, vector: Float32Array | null | undefined, change: ChangeContext): Promise<Memory>;
  /** Really erases a memory: row, vector, keyword row. Its history keeps one 'purge' event with no content. */
  purgeMemory(userId: string, id: string, change: ChangeContext): Promise<void>;
  getMemory(userId: string, id: string): Promise<Memory | null>;
  listMemories(query: MemoryQuery): Promise<Memory[]>;
  countMemories(query: MemoryQuery): Promise<number>;
  history(userId: string, memoryId: string): Promise<HistoryEvent[]>;
  /** Marks memories as recalled: lastAccessedAt and accessCount only (never importance). */
  recordAccess(userId: string, ids: readonly string[], at: Date): Promise<void>;

  searchVector(query: VectorSearch): Promise<SearchHit[]>;
  searchKeyword(query: KeywordSearch): Promise<SearchHit[]>;
  /** Vectors of the given memories, for scoring candidates found by keyword only. */
  vectorsOf(userId: string, ids: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Items of a collection that have no vector from the bound embedder yet, in pages. */
  pendingVectors(collection: Collection, limit: number): Promise<Array<{ userId: string; id: string; content: string }>>;
  /** Counts of rows with and without a vector from the bound embedder. */
  vectorStatus(): Promise<VectorStatus>;
  /** Writes vectors and marks the rows embedded; EMBEDDER_MISMATCH when the store is bound to another embedder by now. */
  setVectors(collection: Collection, rows: ReadonlyArray<{ userId: string; id: string; vector: Float32Array }>, embedderId: string): Promise<void>;

  // ---- conversations (raw layer) ----
  /**
   * Appends messages to a session in order, creating the session on first use. Idempotent by
   * (userId, message id): messages already stored are skipped. Returns the newly stored ones.
   */
  appendMessages(userId: string, sessionId: string, messages: ReadonlyArray<NewStoredMessage>): Promise<Message[]>;
  getSession(userId: string, sessionId: string): Promise<Session | null>;
  listMessages(query: MessageQuery): Promise<Message[]>;
  /** Messages within `radius` positions of the given ones in their sessions (the given ones included). */
  messageNeighbours(userId: string, ids: readonly string[], radius: number): Promise<Message[]>;
  searchMessageVector(query: Omit<VectorSearch, 'statuses'> & { sessionId?: string }): Promise<SearchHit[]>;
  searchMessageKeyword(query: Omit<KeywordSearch, 'statuses'> & { sessionId?: string }): Promise<SearchHit[]>;
  messageVectorsOf(userId: string, ids: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Deletes messages whose expiresAt has passed; returns how many. */
  deleteExpiredMessages(now: Date): Promise<number>;
  /** Really erases the given messages of a user (row, vector, keyword row); returns how many. */
  purgeMessages(userId: string, ids: readonly string[]): Promise<number>;

  // ---- extraction bookkeeping ----
  /**
   * Takes a session's extraction lease when it is free, expired, already `owner`'s, or held by an
   * owner `isAbandoned` declares gone (a dead process on this host). Returns a fencing token, or
   * null when another worker holds it (or the session does not exist).
   */
  acquireSessionLease(userId: string, sessionId: string, owner: string, now: Date, until: Date, options?: { isAbandoned?: (owner: string) => boolean }): Promise<number | null>;
  /** Extends a held lease; false once another worker has taken it over. */
  renewSessionLease(userId: string, sessionId: string, owner: string, token: number, until: Date): Promise<boolean>;
  /** The fencing check, made inside the commit transaction: true while `token` is still the lease's. */
  holdsSessionLease(userId: string, sessionId: string, owner: string, token: number): Promise<boolean>;
  releaseSessionLease(userId: string, sessionId: string, owner: string, token?: number): Promise<void>;
  /** Sessions with messages past their watermark, with how many. */
  sessionsWithBacklog(limit: number): Promise<Array<{ session: Session; unprocessed: number }>>;
  /** Moves the watermark and clears the failure state (call inside the batch's transaction). */
  markProcessed(userId: string, sessionId: string, throughSeq: number, messageId: string, at: Date): Promise<void>;
  recordExtractionFailure(userId: string, sessionId: string, failure: { error: string; failures: number; state: 'retrying' | 'failed'; nextAttemptAt: Date }): Promise<void>;
  endSession(userId: string, sessionId: string, at: Date): Promise<void>;
  recordExtractionRun(run: ExtractionRun): Promise<void>;
  listExtractionRuns(userId: string, sessionId: string): Promise<ExtractionRun[]>;

  // ---- settings: user '*' holds the global defaults ----
  getSettings(userId: string): Promise<Record<string, unknown>>;
  setSettings(userId: string, values: Record<string, unknown>): Promise<void>;

  // ---- todos ----
  insertTodo(todo: Todo): Promise<void>;
  listTodos(query: { userId: string; completed?: boolean; dueBefore?: Date; limit?: number }): Promise<Todo[]>;
  updateTodo(userId: string, id: string, changes: Partial<Pick<Todo, 'completed' | 'completedAt' | 'reminded' | 'dueAt' | 'remindAt' | 'content'>>): Promise<Todo>;
  deleteTodo(userId: string, id: string): Promise<void>;

  // ---- layers and lifecycle ----
  insertRelation(relation: Relation): Promise<void>;
  /** Removes one relation of this user; false when there was none with this id. */
  deleteRelation(userId: string, id: string): Promise<boolean>;
  /** Relations where the memory is the source or the target. */
  relationsOf(userId: string, memoryId: string): Promise<Relation[]>;
  latestProfile(userId: string): Promise<Profile | null>;
  profileVersions(userId: string): Promise<Profile[]>;
  insertProfile(profile: Profile): Promise<void>;
  /** Erases profile versions (forgetting a topic also erases the versions that held it). */
  deleteProfileVersions(userId: string, versions: readonly number[]): Promise<void>;
  /** Sessions with messages not yet covered by an episode, or a fallback episode to retry. */
  sessionsToSummarize(limit: number): Promise<Array<{ session: Session; unsummarized: number }>>;
  markSummarized(userId: string, sessionId: string, throughSeq: number, retryAt: Date | null, failures: number): Promise<void>;
  /** Open todos whose reminder time has come and that are due for a (re)try. */
  dueReminders(now: Date, limit: number): Promise<Todo[]>;
  /** Records a delivery and the reminded mark in one step; false when this delivery id was recorded before. */
  recordDelivery(userId: string, todoId: string, deliveryId: string, at: Date): Promise<boolean>;
  recordDeliveryFailure(userId: string, todoId: string, error: string, nextAt: Date): Promise<void>;
  /** Every user with memories or sessions (for lifecycle passes). */
  userIds(): Promise<string[]>;
  /**
   * Raised in the same transaction by every forgetUser and purgeMemory of the user. Work that read
   * an older value before a slow step (a model call) must not commit (see extract-session).
   */
  forgetGeneration(userId: string): Promise<number>;
  /** Erases everything about a user: memories, vectors, keyword rows, messages, sessions, episodes, profile, todos, history, settings. */
  forgetUser(userId: string): Promise<Record<string, number>>;

  // ---- export / import ----
  /** Every history event of a user, in order (for export). */
  historyOfUser(userId: string): Promise<HistoryEvent[]>;
  /** Every relation of a user (for export). */
  relationsOfUser(userId: string): Promise<Relation[]>;
  /** Which of these ids any user's rows already hold (an import re-issues them rather than collide). */
  takenIds(table: 'memories' | 'history' | 'relations' | 'todos', ids: readonly string[]): Promise<Set<string>>;
  /** Inserts a memory exactly as given, with its recorded history instead of a new 'create' event (null: history only). */
  importMemory(memory: Memory | null, vector: Float32Array | null, history: readonly HistoryEvent[]): Promise<void>;

  /**
   * An online, consistent copy of the whole store at `path` (SQLite's backup API), taken while
   * other connections keep reading and writing.
   */
  backup(path: string): Promise<{ path: string; pages: number }>;

  /** Runs `fn` atomically: every write inside commits together or not at all. */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
