import type Database from 'better-sqlite3';
import { limitClause, Statements } from './statements.js';
import type { Session } from '../../domain/conversation.js';
import type { LeaseTask } from '../ports/sessions.js';
import type { ExtractionRun } from '../store.js';
import { rowToSession } from './message-tables.js';

/** The sessions columns of each task's lease (fixed names, safe to splice into SQL; PostgreSQL uses them too). */
export const LEASE_COLUMNS: Record<LeaseTask, { owner: string; until: string; token: string }> = {
  extract: { owner: 'lease_owner', until: 'lease_until', token: 'lease_token' },
  summarize: { owner: 'summary_lease_owner', until: 'summary_lease_until', token: 'summary_lease_token' },
};

/** Session watermarks, leases, failure state, extraction runs and settings. */
export class ExtractionTables {
  private readonly sql: Statements;

  constructor(private readonly db: Database.Database) {
    this.sql = new Statements(db);
  }

  /**
   * Takes the lease when it is free, expired, already this owner's (a restarted worker with the
   * same id), or held by an owner `isAbandoned` says is gone. Returns the new fencing token.
   */
  acquireLease(userId: string, sessionId: string, owner: string, now: Date, until: Date, isAbandoned?: (owner: string) => boolean, task: LeaseTask = 'extract'): number | null {
    const c = LEASE_COLUMNS[task];
    // IMMEDIATE: the write lock is taken before the read, so two processes on one file are serialised.
    return this.db.transaction(() => {
      const row = this.sql.get(`SELECT ${c.owner} AS owner, ${c.until} AS until FROM sessions WHERE user_id = ? AND id = ?`).get(userId, sessionId) as { owner: string | null; until: number | null } | undefined;
      if (!row) return null;
      const held = row.owner;
      const free = held === null || held === owner || (row.until ?? 0) < now.getTime() || (isAbandoned?.(held) ?? false);
      if (!free) return null;
      const bumped = this.sql.get(`UPDATE sessions SET ${c.owner} = ?, ${c.until} = ?, ${c.token} = ${c.token} + 1 WHERE user_id = ? AND id = ? RETURNING ${c.token} AS token`)
        .get(owner, until.getTime(), userId, sessionId) as { token: number };
      return bumped.token;
    }).immediate();
  }

  /** Extends the lease while it is still this acquisition's; false once another worker took it over. */
  renewLease(userId: string, sessionId: string, owner: string, token: number, until: Date, task: LeaseTask = 'extract'): boolean {
    const c = LEASE_COLUMNS[task];
    return this.sql.get(`UPDATE sessions SET ${c.until} = max(${c.until}, ?) WHERE user_id = ? AND id = ? AND ${c.owner} = ? AND ${c.token} = ?`).run(until.getTime(), userId, sessionId, owner, token).changes === 1;
  }

  /** The fencing check: true while no other worker has acquired the lease since `token` was issued. */
  holdsLease(userId: string, sessionId: string, owner: string, token: number, task: LeaseTask = 'extract'): boolean {
    const c = LEASE_COLUMNS[task];
    return this.sql.get(`SELECT 1 FROM sessions WHERE user_id = ? AND id = ? AND ${c.owner} = ? AND ${c.token} = ?`).get(userId, sessionId, owner, token) !== undefined;
  }

  releaseLease(userId: string, sessionId: string, owner: string, token?: number, task: LeaseTask = 'extract'): void {
    const c = LEASE_COLUMNS[task];
    this.sql.get(`UPDATE sessions SET ${c.owner} = NULL, ${c.until} = NULL WHERE user_id = ? AND id = ? AND ${c.owner} = ? AND (? IS NULL OR ${c.token} = ?)`)
      .run(userId, sessionId, owner, token ?? null, token ?? null);
  }

  backlog(limit: number): Array<{ session: Session; unprocessed: number }> {
    const rows = this.sql.get(`SELECT *, next_seq - 1 - processed_seq AS unprocessed FROM sessions WHERE next_seq - 1 > processed_seq ORDER BY last_active_at ${limitClause(limit)}`)
      .all() as Array<Record<string, unknown>>;
    return rows.map((r) => ({ session: rowToSession(r), unprocessed: Number(r.unprocessed) }));
  }

  markProcessed(userId: string, sessionId: string, throughSeq: number, messageId: string, at: Date): void {
    this.sql.get(
        `UPDATE sessions SET processed_seq = max(processed_seq, ?), last_processed_message_id = ?, processed_at = ?,
           failures = 0, last_error = NULL, extraction_state = 'ok', next_attempt_at = NULL
         WHERE user_id = ? AND id = ?`,
      )
      .run(throughSeq, messageId, at.getTime(), userId, sessionId);
  }

  recordFailure(userId: string, sessionId: string, f: { error: string; failures: number; state: string; nextAttemptAt: Date }): void {
    this.sql.get('UPDATE sessions SET failures = ?, last_error = ?, extraction_state = ?, next_attempt_at = ? WHERE user_id = ? AND id = ?')
      .run(f.failures, f.error, f.state, f.nextAttemptAt.getTime(), userId, sessionId);
  }

  endSession(userId: string, sessionId: string, at: Date): void {
    this.sql.get('UPDATE sessions SET ended_at = ? WHERE user_id = ? AND id = ?').run(at.getTime(), userId, sessionId);
  }

  recordRun(run: ExtractionRun): void {
    this.sql.get(
        `INSERT INTO extraction_runs (id, user_id, session_id, from_seq, through_seq, extractor, outcome, counts, rejected, reason, error, at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(run.id, run.userId, run.sessionId, run.fromSeq, run.throughSeq, run.extractor, run.outcome, JSON.stringify(run.counts), JSON.stringify(run.rejected), run.reason ?? null, run.error ?? null, run.at.getTime());
  }

  runs(userId: string, sessionId: string): ExtractionRun[] {
    const rows = this.sql.get('SELECT * FROM extraction_runs WHERE user_id = ? AND session_id = ? ORDER BY at, rowid').all(userId, sessionId) as Array<Record<string, string | number | null>>;
    return rows.map(rowToExtractionRun);
  }

  settings(userId: string): Record<string, unknown> {
    const rows = this.sql.get(`SELECT user_id, key, value FROM settings WHERE user_id IN ('*', ?) ORDER BY user_id = '*' DESC`).all(userId) as Array<{ key: string; value: string }>;
    const out: Record<string, unknown> = {};
    for (const r of rows) out[r.key] = JSON.parse(r.value);
    return out;
  }

  ownSettings(userId: string): Record<string, unknown> {
    const rows = this.sql.get('SELECT key, value FROM settings WHERE user_id = ?').all(userId) as Array<{ key: string; value: string }>;
    return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
  }

  setSettings(userId: string, values: Record<string, unknown>): void {
    const stmt = this.sql.get('INSERT INTO settings (user_id, key, value) VALUES (?, ?, ?) ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value');
    for (const [k, v] of Object.entries(values)) if (v !== undefined) stmt.run(userId, k, JSON.stringify(v));
  }
}

/** An extraction_runs row (either adapter) as an ExtractionRun. */
export function rowToExtractionRun(r: Record<string, unknown>): ExtractionRun {
  return {
    id: String(r.id),
    userId: String(r.user_id),
    sessionId: String(r.session_id),
    fromSeq: Number(r.from_seq),
    throughSeq: Number(r.through_seq),
    extractor: String(r.extractor),
    outcome: r.outcome as ExtractionRun['outcome'],
    counts: JSON.parse(String(r.counts)) as Record<string, number>,
    rejected: JSON.parse(String(r.rejected)) as ExtractionRun['rejected'],
    ...(r.reason === null ? {} : { reason: String(r.reason) }),
    ...(r.error === null ? {} : { error: String(r.error) }),
    at: new Date(Number(r.at)),
  };
}
