import { EmbedderMismatchError } from '../errors.js';
import type { Embedder } from '../embedders/embedder.js';
import type { Store } from '../store/store.js';

/**
 * Makes sure the store's vectors come from this embedder. A fresh store is bound to it; a store
 * bound to an earlier version of it (`embedder.supersedes`) is handed to `reembed` when given; a
 * store bound to any other embedder is refused with EMBEDDER_MISMATCH (never mixed), and reindex
 * fixes it.
 */
export async function ensureEmbedder(store: Store, embedder: Embedder, reembed?: (from: string) => Promise<void>): Promise<void> {
  // An endpoint embedder may learn its dimension from its first answer: ask it once before binding.
  if (embedder.dimensions <= 0) await embedder.embed(['dimension probe']);
  const info = await store.embedderInfo();
  if (info === null) return store.bindEmbedder({ id: embedder.id, dimensions: embedder.dimensions });
  if (info.id === embedder.id && info.dimensions === embedder.dimensions) return;
  if (reembed && embedder.supersedes?.includes(info.id)) return reembed(info.id);
  throw new EmbedderMismatchError(info.id, embedder.id);
}
