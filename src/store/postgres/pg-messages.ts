import { bumpForgetFence } from './pg-forget.js';
import type { Message } from '../../domain/conversation.js';
import { EmbedderMismatchError, EngramError } from '../../errors.js';
import { indexTerms } from '../../text/segment.js';
import { rowToSession } from '../sqlite/message-tables.js';
import type { MessageQuery, NewStoredMessage, Store } from '../store.js';
import type { PgContext, Row } from './pg-db.js';
import { keywordColumns, scoresOf, searchKeywords, searchVectors, vectorColumns, vectorsOfRows } from './pg-search.js';
import { boundEmbedder } from './pg-vectors.js';

const COLUMNS = 'rid, id, user_id, session_id, seq, role, content, caller_id, created_at, expires_at';

function rowToMessage(r: Row): Message {
  return {
    id: String(r.id),
    userId: String(r.user_id),
    sessionId: String(r.session_id),
    seq: Number(r.seq),
    role: r.role as Message['role'],
    content: String(r.content),
    ...(r.caller_id === null ? {} : { callerId: String(r.caller_id) }),
    createdAt: new Date(Number(r.created_at)),
    ...(r.expires_at === null ? {} : { expiresAt: new Date(Number(r.expires_at)) }),
  };
}

const inSession = (sessionId: string | undefined) => (sessionId === undefined ? undefined : { sql: (n: number) => `session_id = $${n}`, params: [sessionId] });

/** One message's row with its keyword columns and its vector (only when it is the bound embedder's). */
export async function insertMessage(tx: PgContext, userId: string, sessionId: string, seq: number, m: NewStoredMessage, bound: { id: string; dimensions: number } | null): Promise<Message> {
  // A message is never lost for want of a vector: one from another embedder than the bound
  // one (a writer fenced by a reindex) or none at all is stored unmarked, and reindex embeds it.
  const vector = m.vector && bound && m.embedderId === bound.id && m.vector.length === bound.dimensions ? vectorColumns(m.vector) : null;
  const kw = keywordColumns(indexTerms(m.content));
  await tx.run(
    `INSERT INTO messages (id, user_id, session_id, seq, role, content, caller_id, created_at, expires_at, embedder_id, terms, term_count, kw, vec, vec_code)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, array_to_tsvector($13::text[]), $14, $15::varbit)`,
    [m.id, userId, sessionId, seq, m.role, m.content, m.callerId ?? null, m.createdAt.getTime(), m.expiresAt?.getTime() ?? null, vector ? bound!.id : null, kw.terms, kw.termCount, kw.lexemes, vector?.bytes ?? null, vector?.code ?? null],
  );
  return { id: m.id, userId, sessionId, seq, role: m.role, content: m.content, createdAt: m.createdAt, ...(m.callerId ? { callerId: m.callerId } : {}), ...(m.expiresAt ? { expiresAt: m.expiresAt } : {}) };
}

/** The raw conversation layer: sessions and messages, with their keyword and vector columns. */
export function messageRole(ctx: PgContext): Pick<Store, 'appendMessages' | 'getSession' | 'listMessages' | 'messageNeighbours' | 'searchMessageVector' | 'searchMessageKeyword' | 'messageVectorsOf' | 'messageVectorScores' | 'scoredNeighbours' | 'deleteExpiredMessages' | 'purgeMessages'> {
  const role: ReturnType<typeof messageRole> = {
    appendMessages: (userId, sessionId, messages) =>
      ctx.atomic(async (tx) => {
        const first = messages[0];
        if (!first) return [];
        await tx.run('INSERT INTO sessions (id, user_id, created_at, last_active_at) VALUES ($1, $2, $3, $3) ON CONFLICT (user_id, id) DO NOTHING', [sessionId, userId, first.createdAt.getTime()]);
        // Locks the session row: appends to one session are serialised across processes, so seq stays gapless.
        await tx.run('SELECT 1 FROM sessions WHERE user_id = $1 AND id = $2 FOR UPDATE', [userId, sessionId]);
        const bound = await boundEmbedder(tx, true);
        const stored: Message[] = [];
        for (const m of messages) {
          if ((await tx.rows('SELECT 1 FROM messages WHERE user_id = $1 AND id = $2', [userId, m.id])).length > 0) continue;
          const [{ seq } = { seq: 0 }] = await tx.rows<{ seq: number }>(
            'UPDATE sessions SET next_seq = next_seq + 1, last_active_at = greatest(last_active_at, $1) WHERE user_id = $2 AND id = $3 RETURNING next_seq - 1 AS seq',
            [m.createdAt.getTime(), userId, sessionId],
          );
          stored.push(await insertMessage(tx, userId, sessionId, seq, m, bound));
        }
        return stored;
      }),

    getSession: async (userId, sessionId) => {
      const [row] = await ctx.rows('SELECT * FROM sessions WHERE user_id = $1 AND id = $2', [userId, sessionId]);
      return row ? rowToSession(row) : null;
    },

    listMessages: async (q: MessageQuery) => {
      const args: unknown[] = [q.userId];
      const clauses = ['user_id = $1'];
      const add = (sql: string, value: unknown) => (args.push(value), clauses.push(sql.replace('?', `$${args.length}`)));
      if (q.sessionId !== undefined) add('session_id = ?', q.sessionId);
      if (q.ids) add('id = ANY(?::text[])', [...q.ids]);
      if (q.afterSeq !== undefined) add('seq > ?', q.afterSeq);
      if (q.throughSeq !== undefined) add('seq <= ?', q.throughSeq);
      const dir = q.order === 'desc' ? 'DESC' : 'ASC';
      const rows = await ctx.rows(`SELECT ${COLUMNS} FROM messages WHERE ${clauses.join(' AND ')} ORDER BY session_id, seq ${dir} LIMIT $${args.length + 1}`, [...args, q.limit ?? null]);
      return rows.map(rowToMessage);
    },

    messageNeighbours: async (userId, ids, radius) => {
      if (ids.length === 0) return [];
      const rows = await ctx.rows(
        `SELECT DISTINCT ${COLUMNS.split(', ').map((c) => `n.${c}`).join(', ')} FROM messages m JOIN messages n
           ON n.user_id = m.user_id AND n.session_id = m.session_id AND n.seq BETWEEN m.seq - $1 AND m.seq + $1
         WHERE m.user_id = $2 AND m.id = ANY($3::text[])`,
        [radius, userId, [...ids]],
      );
      return rows.map(rowToMessage);
    },

    searchMessageVector: async (q) => {
      const bound = await boundEmbedder(ctx);
      if (!bound) throw new EngramError('STORE_FAILED', 'No embedder is bound to this store yet (bindEmbedder first)');
      if (q.vector.length !== bound.dimensions) throw new EmbedderMismatchError(bound.id, `an embedder of ${q.vector.length} dimensions`);
      if (q.embedderId !== undefined && q.embedderId !== bound.id) throw new EmbedderMismatchError(bound.id, q.embedderId);
      return searchVectors(ctx, 'messages', q.userId, bound.id, q.vector, q.k, inSession(q.sessionId));
    },

    searchMessageKeyword: (q) => searchKeywords(ctx, 'messages', q.userId, q.terms, q.k, q.bm25, inSession(q.sessionId)),

    messageVectorsOf: async (userId, ids) => vectorsOfRows(ctx, 'messages', userId, ids, (await boundEmbedder(ctx))?.id ?? null),
    messageVectorScores: async (userId, ids, vector) => scoresOf(await vectorsOfRows(ctx, 'messages', userId, ids, (await boundEmbedder(ctx))?.id ?? null), vector),
    scoredNeighbours: async (userId, ids, radius, vector) => {
      const messages = await role.messageNeighbours(userId, ids, radius);
      const vectorScores = scoresOf(await vectorsOfRows(ctx, 'messages', userId, messages.map((m) => m.id), (await boundEmbedder(ctx))?.id ?? null), vector);
      return { messages, vectorScores };
    },

    // Only messages extraction has already seen: unprocessed ones wait for it.
    deleteExpiredMessages: (now) =>
      ctx.run(
        `DELETE FROM messages m USING sessions s
         WHERE s.user_id = m.user_id AND s.id = m.session_id AND m.expires_at IS NOT NULL AND m.expires_at <= $1 AND m.seq <= s.processed_seq`,
        [now.getTime()],
      ),

    purgeMessages: (userId, ids) =>
      ids.length === 0
        ? Promise.resolve(0)
        : ctx.atomic(async (tx) => {
            // Forgetting raw messages fences work in flight too: an extraction or a summary may be reading them.
            await bumpForgetFence(tx, userId);
            return tx.run('DELETE FROM messages WHERE user_id = $1 AND id = ANY($2::text[])', [userId, [...ids]]);
          }),
  };
  return role;
}
