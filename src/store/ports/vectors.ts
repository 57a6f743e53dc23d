import type { Collection, EmbedderInfo, VectorStatus } from './store-types.js';

/** Vectors an upgraded embedder keeps from the version it supersedes (`bindEmbedder`'s `keep`). */
export interface KeptVectors {
  from: string;
  maxBytes: number;
}

/** The embedder a store is bound to, and the vectors still to be made for it (reindex). */
export interface VectorsPort {
  /** The embedder this store's vectors were made with, or null for a store that has none yet. */
  embedderInfo(): Promise<EmbedderInfo | null>;
  /**
   * Binds the store to an embedder. The first bind creates the vector index; binding another
   * embedder throws EMBEDDER_MISMATCH unless `replace` is set (used by reindex, which drops every
   * vector). With `keep`, the vectors the bound embedder `keep.from` made for texts of at most
   * `keep.maxBytes` UTF-8 bytes are this embedder's too (an upgrade that changed only longer texts'
   * vectors): they are kept, relabelled, and only the rest are dropped to be made again. Kept only
   * when the store is bound to `keep.from` with the same dimensions.
   */
  bindEmbedder(info: EmbedderInfo, options?: { replace?: boolean; keep?: KeptVectors }): Promise<void>;
  /** Items of a collection that have no vector from the bound embedder yet, in pages. */
  pendingVectors(collection: Collection, limit: number): Promise<Array<{ userId: string; id: string; content: string }>>;
  /** Counts of rows with and without a vector from the bound embedder. */
  vectorStatus(): Promise<VectorStatus>;
  /** Writes vectors and marks the rows embedded; EMBEDDER_MISMATCH when the store is bound to another embedder by now. */
  setVectors(collection: Collection, rows: ReadonlyArray<{ userId: string; id: string; vector: Float32Array }>, embedderId: string): Promise<void>;
}
