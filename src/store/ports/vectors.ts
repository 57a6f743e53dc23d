import type { Collection, EmbedderInfo, VectorStatus } from './store-types.js';

/** The embedder a store is bound to, and the vectors still to be made for it (reindex). */
export interface VectorsPort {
  /** The embedder this store's vectors were made with, or null for a store that has none yet. */
  embedderInfo(): Promise<EmbedderInfo | null>;
  /**
   * Binds the store to an embedder. The first bind creates the vector index; binding another
   * embedder throws EMBEDDER_MISMATCH unless `replace` is set (used by reindex, which drops every vector).
   */
  bindEmbedder(info: EmbedderInfo, options?: { replace?: boolean }): Promise<void>;
  /** Items of a collection that have no vector from the bound embedder yet, in pages. */
  pendingVectors(collection: Collection, limit: number): Promise<Array<{ userId: string; id: string; content: string }>>;
  /** Counts of rows with and without a vector from the bound embedder. */
  vectorStatus(): Promise<VectorStatus>;
  /** Writes vectors and marks the rows embedded; EMBEDDER_MISMATCH when the store is bound to another embedder by now. */
  setVectors(collection: Collection, rows: ReadonlyArray<{ userId: string; id: string; vector: Float32Array }>, embedderId: string): Promise<void>;
}
