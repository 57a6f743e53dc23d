import type { ChangeContext, HistoryEvent } from '../../domain/history.js';
import type { Memory } from '../../domain/memory.js';
import type { KeywordSearch, MemoryChanges, MemoryQuery, RankingFields, SearchHit, UpdateCondition, VectorSearch } from './store-types.js';

/**
 * Memories: rows, their history, access marks, and the memory-side searches. Every method is
 * scoped by userId; every change to a memory writes a history event in the same transaction.
 */
export interface MemoriesPort {
  insertMemory(memory: Memory, vector: Float32Array | null, change: ChangeContext): Promise<void>;
  /**
   * Applies changes, records before/after of the changed fields, returns the new memory. With a
   * condition, the version is compared on the row this write holds: a stale one throws
   * PRECONDITION_FAILED (StaleVersionError) and writes nothing, in whichever process changed it.
   * Drift since the version (decay, reinforcement: importance alone) passes unless the changes set
   * importance themselves (memory-version.ts, atVersion).
   */
  updateMemory(userId: string, id: string, changes: MemoryChanges, vector: Float32Array | null | undefined, change: ChangeContext, condition?: UpdateCondition): Promise<Memory>;
  /**
   * Really erases a memory: row, vector, keyword row. Its history keeps one 'purge' event with no
   * content. With a condition, only the version read (as updateMemory checks it), else nothing goes.
   */
  purgeMemory(userId: string, id: string, change: ChangeContext, condition?: UpdateCondition): Promise<void>;
  getMemory(userId: string, id: string): Promise<Memory | null>;
  listMemories(query: MemoryQuery): Promise<Memory[]>;
  /** The fields ranking reads, of the memories listMemories would return (in no particular order). */
  listRankingFields(query: MemoryQuery): Promise<RankingFields[]>;
  countMemories(query: MemoryQuery): Promise<number>;
  history(userId: string, memoryId: string): Promise<HistoryEvent[]>;
  /** Marks memories as recalled: lastAccessedAt and accessCount only (never importance). */
  recordAccess(userId: string, ids: readonly string[], at: Date): Promise<void>;

  searchVector(query: VectorSearch): Promise<SearchHit[]>;
  searchKeyword(query: KeywordSearch): Promise<SearchHit[]>;
  /** The stored vectors of the given memories, exactly as written (exports, copies, comparisons). */
  vectorsOf(userId: string, ids: readonly string[]): Promise<Map<string, Float32Array>>;
  /**
   * Each given memory's similarity to `vector` (the dot product; cosine for unit vectors), for
   * scoring candidates found by keyword only. May come from compact codes: within 0.02 of the exact
   * product. Missing ids, other users' and memories without a vector are absent.
   */
  vectorScores(userId: string, ids: readonly string[], vector: Float32Array): Promise<Map<string, number>>;

  /** Every history event of a user, in order (for export). */
  historyOfUser(userId: string): Promise<HistoryEvent[]>;
  /** Which of these ids any user's rows already hold (an import re-issues them rather than collide). */
  takenIds(table: 'memories' | 'history' | 'relations' | 'todos', ids: readonly string[]): Promise<Set<string>>;
  /** Inserts a memory exactly as given, with its recorded history instead of a new 'create' event (null: history only). */
  importMemory(memory: Memory | null, vector: Float32Array | null, history: readonly HistoryEvent[]): Promise<void>;
}
