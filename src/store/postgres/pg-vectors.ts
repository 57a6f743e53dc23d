import { EmbedderMismatchError, EngramError } from '../../errors.js';
import type { Collection, EmbedderInfo, Store, VectorStatus } from '../store.js';
import type { PgContext } from './pg-db.js';
import { vectorColumns } from './pg-search.js';

/**
 * The embedder the store is bound to, read from engram_meta on every use (another process may
 * re-bind it by a reindex at any time). `lock` takes a share lock on the rows inside a
 * transaction, so a writer's vectors and a concurrent re-bind are serialised: old-embedder
 * vectors never enter the new index.
 */
export async function boundEmbedder(ctx: PgContext, lock = false): Promise<EmbedderInfo | null> {
  const rows = await ctx.rows<{ key: string; value: string }>(
    `SELECT key, value FROM engram_meta WHERE key IN ('embedder_id', 'embedder_dimensions') ORDER BY key${lock && ctx.inTransaction ? ' FOR SHARE' : ''}`,
  );
  const meta = new Map(rows.map((r) => [r.key, r.value]));
  const id = meta.get('embedder_id');
  const dimensions = Number(meta.get('embedder_dimensions'));
  return id === undefined || !Number.isInteger(dimensions) || dimensions <= 0 ? null : { id, dimensions };
}

/** The binding a write of this vector must match; EMBEDDER_MISMATCH otherwise. Call inside the write's transaction. */
export async function requireBindingFor(ctx: PgContext, embedderId: string | undefined, vector: Float32Array): Promise<EmbedderInfo> {
  const b = await boundEmbedder(ctx, true);
  if (!b) throw new EngramError('STORE_FAILED', 'No embedder is bound to this store yet (bindEmbedder first)');
  if (embedderId !== b.id || vector.length !== b.dimensions) throw new EmbedderMismatchError(b.id, embedderId ?? `unknown (${vector.length} dimensions)`);
  return b;
}

/** Rows without a vector from the bound embedder (never embedded, embedded by another one, or missing their vector). */
function pendingWhere(bound: EmbedderInfo | null): { sql: string; params: unknown[] } {
  return bound === null ? { sql: 'embedder_id IS NULL', params: [] } : { sql: '(embedder_id IS NULL OR embedder_id <> $1 OR vec IS NULL)', params: [bound.id] };
}

export function vectorRole(ctx: PgContext): Pick<Store, 'embedderInfo' | 'bindEmbedder' | 'pendingVectors' | 'vectorStatus' | 'setVectors'> {
  return {
    embedderInfo: () => boundEmbedder(ctx),

    bindEmbedder: (info, options = {}) =>
      ctx.atomic(async (tx) => {
        // Decided under an exclusive lock on the meta table: two processes binding a fresh
        // database at once must not both clear the vectors.
        await tx.run('LOCK TABLE engram_meta IN SHARE ROW EXCLUSIVE MODE');
        const current = await boundEmbedder(tx);
        if (current?.id === info.id && current.dimensions === info.dimensions) return;
        const [raw] = await tx.rows<{ value: string }>("SELECT value FROM engram_meta WHERE key = 'embedder_id'");
        if (raw !== undefined && !options.replace) throw new EmbedderMismatchError(raw.value, info.id);
        const keep = options.keep;
        // An upgrade that left short texts' vectors as they were (`keep`): those stay, relabelled; the rest go, to be made again.
        const keeping = keep !== undefined && current?.id === keep.from && current.dimensions === info.dimensions;
        for (const table of ['memories', 'messages']) {
          if (keeping) await tx.run(`UPDATE ${table} SET embedder_id = $1 WHERE embedder_id = $2 AND vec IS NOT NULL AND octet_length(content) <= $3`, [info.id, keep.from, keep.maxBytes]);
          await tx.run(`UPDATE ${table} SET embedder_id = NULL, vec = NULL, vec_code = NULL WHERE ${keeping ? 'embedder_id IS DISTINCT FROM $1 AND (embedder_id IS NOT NULL OR vec IS NOT NULL)' : 'embedder_id IS NOT NULL OR vec IS NOT NULL'}`, keeping ? [info.id] : []);
        }
        for (const [key, value] of [['embedder_id', info.id], ['embedder_dimensions', String(info.dimensions)], ['vector_metric', 'l2']]) {
          await tx.run('INSERT INTO engram_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
        }
      }),

    pendingVectors: async (collection, limit) => {
      const where = pendingWhere(await boundEmbedder(ctx));
      const rows = await ctx.rows<{ user_id: string; id: string; content: string }>(
        `SELECT user_id, id, content FROM ${collection} WHERE ${where.sql} ORDER BY rid LIMIT $${where.params.length + 1}`,
        [...where.params, limit],
      );
      return rows.map((r) => ({ userId: r.user_id, id: r.id, content: r.content }));
    },

    vectorStatus: async (): Promise<VectorStatus> => {
      const bound = await boundEmbedder(ctx);
      const where = pendingWhere(bound);
      const count = async (collection: Collection, pending: boolean) =>
        (await ctx.rows<{ n: number }>(`SELECT count(*) AS n FROM ${collection}${pending ? ` WHERE ${where.sql}` : ''}`, pending ? where.params : []))[0]!.n;
      const pending = { memories: await count('memories', true), messages: await count('messages', true) };
      return {
        embedder: bound,
        total: { memories: await count('memories', false), messages: await count('messages', false) },
        pending,
        complete: pending.memories + pending.messages === 0,
      };
    },

    setVectors: (collection, rows, embedderId) =>
      ctx.atomic(async (tx) => {
        // Fenced: another process may have re-bound the store to another embedder meanwhile.
        const bound = await boundEmbedder(tx, true);
        if (bound === null || bound.id !== embedderId) throw new EmbedderMismatchError(bound?.id ?? 'none', embedderId);
        for (const r of rows) {
          if (r.vector.length !== bound.dimensions) throw new EmbedderMismatchError(bound.id, `${embedderId} (${r.vector.length} dimensions)`);
          const { bytes, code } = vectorColumns(r.vector);
          await tx.run(`UPDATE ${collection} SET vec = $1, vec_code = $2::varbit, embedder_id = $3 WHERE user_id = $4 AND id = $5`, [bytes, code, embedderId, r.userId, r.id]);
        }
      }),
  };
}
