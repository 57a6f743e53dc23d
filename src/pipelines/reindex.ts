import { z } from 'zod';
import { parseInput } from '../errors.js';
import type { Collection, VectorStatus } from '../store/store.js';
import type { MemoryDeps } from './deps.js';

export interface ReindexResult {
  embedderId: string;
  reembedded: number;
  /** Where the store stands afterwards; `complete` is false only when rows were added meanwhile by a fenced writer. */
  status: VectorStatus;
}

export interface ReindexProgress {
  collection: Collection;
  /** Rows re-embedded so far in this run (both collections). */
  reembedded: number;
  /** Rows of this collection still waiting. */
  pending: number;
}

export const ReindexOptions = z.object({
  /** Rows embedded per call and committed per transaction. @default 64 */
  batchSize: z.number().int().min(1).max(10_000).default(64),
  /** Called after every committed page. */
  onProgress: z.custom<(p: ReindexProgress) => void>((v) => v === undefined || typeof v === 'function', 'a function').optional(),
});
export type ReindexOptions = z.input<typeof ReindexOptions>;

/**
 * Re-embeds everything with the current embedder: drops the old vectors (they cannot be mixed
 * with new ones; from a version it supersedes, those it would make alike stay), binds the store to this embedder, then embeds in pages, each committed on its
 * own. Resumable: a rerun after an interruption continues with the rows that still have no vector
 * from this embedder (`vectorStatus()` says how many). Writers still running the old embedder
 * are fenced by the store: their vectors are refused (EMBEDDER_MISMATCH) or, for messages,
 * stored unmarked so this loop embeds them too.
 */
export async function reindex(deps: Pick<MemoryDeps, 'store' | 'embedder' | 'logger'>, options: ReindexOptions = {}): Promise<ReindexResult> {
  const o = parseInput(ReindexOptions, options, 'reindex options');
  const { store, embedder } = deps;
  if (embedder.dimensions <= 0) await embedder.embed(['dimension probe']);
  const info = await store.embedderInfo();
  if (!info || info.id !== embedder.id || info.dimensions !== embedder.dimensions) {
    // From a version whose short texts' vectors this one makes alike (`Embedder.unchangedUpTo`): those are kept.
    const maxBytes = info ? embedder.unchangedUpTo?.[info.id] : undefined;
    await store.bindEmbedder({ id: embedder.id, dimensions: embedder.dimensions }, { replace: true, ...(info && maxBytes !== undefined ? { keep: { from: info.id, maxBytes } } : {}) });
  }
  let reembedded = 0;
  for (const collection of ['memories', 'messages'] as const) {
    for (;;) {
      const page = await store.pendingVectors(collection, o.batchSize);
      if (page.length === 0) break;
      const vectors = await embedder.embed(page.map((p) => p.content));
      await store.setVectors(collection, page.map((p, i) => ({ userId: p.userId, id: p.id, vector: vectors[i]! })), embedder.id);
      reembedded += page.length;
      const pending = (await store.vectorStatus()).pending[collection];
      deps.logger.info('reindex progress', { collection, reembedded, pending });
      o.onProgress?.({ collection, reembedded, pending });
    }
  }
  return { embedderId: embedder.id, reembedded, status: await store.vectorStatus() };
}

/** Whether the store's vectors are complete for its bound embedder (false after an interrupted reindex). */
export function reindexStatus(deps: Pick<MemoryDeps, 'store'>): Promise<VectorStatus> {
  return deps.store.vectorStatus();
}
