import type { MemoryDeps } from './deps.js';

export interface ReindexResult {
  embedderId: string;
  reembedded: number;
}

/**
 * Re-embeds every memory with the current embedder: drops the old vectors (they cannot be mixed
 * with new ones), binds the store to this embedder, then embeds in pages. Safe to rerun after a
 * crash: it continues with the memories that still have no vector from this embedder.
 */
export async function reindex(deps: Pick<MemoryDeps, 'store' | 'embedder' | 'logger'>, options: { batchSize?: number } = {}): Promise<ReindexResult> {
  const { store, embedder } = deps;
  const info = await store.embedderInfo();
  if (!info || info.id !== embedder.id || info.dimensions !== embedder.dimensions) {
    await store.bindEmbedder({ id: embedder.id, dimensions: embedder.dimensions }, { replace: true });
  }
  const batchSize = options.batchSize ?? 64;
  let reembedded = 0;
  for (const collection of ['memories', 'messages'] as const) {
    for (;;) {
      const page = await store.pendingVectors(collection, batchSize);
      if (page.length === 0) break;
      const vectors = await embedder.embed(page.map((p) => p.content));
      await store.setVectors(collection, page.map((p, i) => ({ userId: p.userId, id: p.id, vector: vectors[i]! })), embedder.id);
      reembedded += page.length;
      deps.logger.info('reindex progress', { collection, reembedded });
    }
  }
  return { embedderId: embedder.id, reembedded };
}
