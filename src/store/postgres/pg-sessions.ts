import type { Store } from '../store.js';
import { LEASE_COLUMNS, rowToExtractionRun } from '../sqlite/extraction-tables.js';
import { rowToSession } from '../sqlite/message-tables.js';
import type { PgContext } from './pg-db.js';

/** Session watermarks, extraction leases with fencing tokens, failure state, runs and episode bookkeeping. */
export function sessionRole(ctx: PgContext): Pick<Store, 'acquireSessionLease' | 'renewSessionLease' | 'holdsSessionLease' | 'releaseSessionLease' | 'sessionsWithBacklog' | 'markProcessed' | 'recordExtractionFailure' | 'endSession' | 'recordExtractionRun' | 'listExtractionRuns' | 'sessionsToSummarize' | 'markSummarized'> {
  return {
    /**
     * The session row is locked (FOR UPDATE) while the lease is decided, so two processes asking at
     * once are serialised: exactly one gets the new token, the other sees it held.
     */
    acquireSessionLease: (userId, sessionId, owner, now, until, options = {}) =>
      ctx.atomic(async (tx) => {
        const c = LEASE_COLUMNS[options.task ?? 'extract'];
        const [row] = await tx.rows<{ owner: string | null; until: number | null }>(`SELECT ${c.owner} AS owner, ${c.until} AS until FROM sessions WHERE user_id = $1 AND id = $2 FOR UPDATE`, [userId, sessionId]);
        if (!row) return null;
        const held = row.owner;
        const free = held === null || held === owner || (row.until ?? 0) < now.getTime() || (options.isAbandoned?.(held) ?? false);
        if (!free) return null;
        const [bumped] = await tx.rows<{ token: number }>(`UPDATE sessions SET ${c.owner} = $1, ${c.until} = $2, ${c.token} = ${c.token} + 1 WHERE user_id = $3 AND id = $4 RETURNING ${c.token} AS token`, [owner, until.getTime(), userId, sessionId]);
        return bumped?.token ?? null;
      }),

    renewSessionLease: async (userId, sessionId, owner, token, until, task = 'extract') => {
      const c = LEASE_COLUMNS[task];
      return (await ctx.run(`UPDATE sessions SET ${c.until} = greatest(${c.until}, $1) WHERE user_id = $2 AND id = $3 AND ${c.owner} = $4 AND ${c.token} = $5`, [until.getTime(), userId, sessionId, owner, token])) === 1;
    },

    // Inside the commit transaction FOR SHARE holds the row until commit: a takeover waits for it.
    holdsSessionLease: async (userId, sessionId, owner, token, task = 'extract') => {
      const c = LEASE_COLUMNS[task];
      return (await ctx.rows(`SELECT 1 FROM sessions WHERE user_id = $1 AND id = $2 AND ${c.owner} = $3 AND ${c.token} = $4${ctx.inTransaction ? ' FOR SHARE' : ''}`, [userId, sessionId, owner, token])).length > 0;
    },

    releaseSessionLease: async (userId, sessionId, owner, token, task = 'extract') => {
      const c = LEASE_COLUMNS[task];
      await ctx.run(`UPDATE sessions SET ${c.owner} = NULL, ${c.until} = NULL WHERE user_id = $1 AND id = $2 AND ${c.owner} = $3 AND ($4::int IS NULL OR ${c.token} = $4::int)`, [userId, sessionId, owner, token ?? null]);
    },

    sessionsWithBacklog: async (limit) => {
      const rows = await ctx.rows('SELECT *, next_seq - 1 - processed_seq AS unprocessed FROM sessions WHERE next_seq - 1 > processed_seq ORDER BY last_active_at, user_id, id LIMIT $1', [limit]);
      return rows.map((r) => ({ session: rowToSession(r), unprocessed: Number(r.unprocessed) }));
    },

    markProcessed: async (userId, sessionId, throughSeq, messageId, at) => {
      await ctx.run(
        `UPDATE sessions SET processed_seq = greatest(processed_seq, $1), last_processed_message_id = $2, processed_at = $3,
           failures = 0, last_error = NULL, extraction_state = 'ok', next_attempt_at = NULL
         WHERE user_id = $4 AND id = $5`,
        [throughSeq, messageId, at.getTime(), userId, sessionId],
      );
    },

    recordExtractionFailure: async (userId, sessionId, f) => {
      await ctx.run('UPDATE sessions SET failures = $1, last_error = $2, extraction_state = $3, next_attempt_at = $4 WHERE user_id = $5 AND id = $6', [f.failures, f.error, f.state, f.nextAttemptAt.getTime(), userId, sessionId]);
    },

    endSession: async (userId, sessionId, at) => {
      await ctx.run('UPDATE sessions SET ended_at = $1 WHERE user_id = $2 AND id = $3', [at.getTime(), userId, sessionId]);
    },

    recordExtractionRun: async (run) => {
      await ctx.run(
        `INSERT INTO extraction_runs (id, user_id, session_id, from_seq, through_seq, extractor, outcome, counts, rejected, reason, error, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [run.id, run.userId, run.sessionId, run.fromSeq, run.throughSeq, run.extractor, run.outcome, JSON.stringify(run.counts), JSON.stringify(run.rejected), run.reason ?? null, run.error ?? null, run.at.getTime()],
      );
    },

    listExtractionRuns: async (userId, sessionId) => {
      const rows = await ctx.rows('SELECT * FROM extraction_runs WHERE user_id = $1 AND session_id = $2 ORDER BY at, rid', [userId, sessionId]);
      return rows.map(rowToExtractionRun);
    },

    sessionsToSummarize: async (limit) => {
      const rows = await ctx.rows('SELECT *, next_seq - 1 - summarized_seq AS unsummarized FROM sessions WHERE next_seq - 1 > summarized_seq OR summary_retry_at IS NOT NULL ORDER BY last_active_at, user_id, id LIMIT $1', [limit]);
      return rows.map((r) => ({ session: rowToSession(r), unsummarized: Number(r.unsummarized) }));
    },

    markSummarized: async (userId, sessionId, throughSeq, retryAt, failures) => {
      await ctx.run('UPDATE sessions SET summarized_seq = greatest(summarized_seq, $1), summary_retry_at = $2, summary_failures = $3 WHERE user_id = $4 AND id = $5', [throughSeq, retryAt?.getTime() ?? null, failures, userId, sessionId]);
    },
  };
}
