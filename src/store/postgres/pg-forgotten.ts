import { ForgottenRequest } from '../../domain/forgotten.js';
import type { Message } from '../../domain/conversation.js';
import { parseRecord } from '../sqlite/forgotten-tables.js';
import type { Store } from '../store.js';
import type { PgContext } from './pg-db.js';
import { insertMessage } from './pg-messages.js';
import { boundEmbedder } from './pg-vectors.js';

/** What requests in conversation forgot, one JSON document a request, and the messages an undo puts back (ports/forgotten.ts). */
export function forgottenRole(ctx: PgContext): Pick<Store, 'saveForgotten' | 'listForgotten' | 'getForgotten' | 'deleteForgotten' | 'deleteExpiredForgotten' | 'restoreMessages'> {
  return {
    saveForgotten: async (record) => {
      const r = ForgottenRequest.parse(record);
      await ctx.run(
        `INSERT INTO forgotten_requests (user_id, id, at, expires_at, body) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (user_id, id) DO UPDATE SET at = excluded.at, expires_at = excluded.expires_at, body = excluded.body`,
        [r.userId, r.id, r.at.getTime(), r.expiresAt.getTime(), JSON.stringify(r)],
      );
    },
    listForgotten: async (userId) => (await ctx.rows<{ body: string }>('SELECT body FROM forgotten_requests WHERE user_id = $1 ORDER BY at DESC, id DESC', [userId])).map(parseRecord),
    getForgotten: async (userId, id) => {
      const [row] = await ctx.rows<{ body: string }>('SELECT body FROM forgotten_requests WHERE user_id = $1 AND id = $2', [userId, id]);
      return row ? parseRecord(row) : null;
    },
    deleteForgotten: async (userId, id) => (await ctx.run('DELETE FROM forgotten_requests WHERE user_id = $1 AND id = $2', [userId, id])) > 0,
    deleteExpiredForgotten: (now) => ctx.run('DELETE FROM forgotten_requests WHERE expires_at <= $1', [now.getTime()]),
    restoreMessages: (userId, messages) =>
      ctx.atomic(async (tx) => {
        const bound = await boundEmbedder(tx, true);
        const stored: Message[] = [];
        for (const m of messages) {
          const taken = await tx.rows('SELECT 1 FROM messages WHERE user_id = $1 AND (id = $2 OR (session_id = $3 AND seq = $4))', [userId, m.id, m.sessionId, m.seq]);
          if (taken.length > 0) continue;
          await tx.run(
            `INSERT INTO sessions (id, user_id, created_at, last_active_at, next_seq) VALUES ($1, $2, $3, $3, $4)
             ON CONFLICT (user_id, id) DO UPDATE SET next_seq = greatest(sessions.next_seq, excluded.next_seq), last_active_at = greatest(sessions.last_active_at, excluded.last_active_at)`,
            [m.sessionId, userId, m.createdAt.getTime(), m.seq + 1],
          );
          stored.push(await insertMessage(tx, userId, m.sessionId, m.seq, m, bound));
        }
        return stored;
      }),
  };
}
