import type Database from 'better-sqlite3';
import type { Session } from '../../domain/conversation.js';
import type { ExtractionRun } from '../store.js';
import { rowToSession } from './message-tables.js';

/** Session watermarks, leases, failure state, extraction runs and settings. */
export class ExtractionTables {
  constructor(private readonly db: Database.Database) {}

  acquireLease(userId: string, sessionId: string, owner: string, now: Date, until: Date): boolean {
    const info = this.db
      .prepare(
        `UPDATE sessions SET lease_owner = ?, lease_until = ?
         WHERE user_id = ? AND id = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_until < ?)`,
      )
      .run(owner, until.getTime(), userId, sessionId, owner, now.getTime());
    return info.changes === 1;
  }

  releaseLease(userId: string, sessionId: string, owner: string): void {
    this.db.prepare('UPDATE sessions SET lease_owner = NULL, lease_until = NULL WHERE user_id = ? AND id = ? AND lease_owner = ?').run(userId, sessionId, owner);
  }

  backlog(limit: number): Array<{ session: Session; unprocessed: number }> {
    const rows = this.db
      .prepare('SELECT *, next_seq - 1 - processed_seq AS unprocessed FROM sessions WHERE next_seq - 1 > processed_seq ORDER BY last_active_at LIMIT ?')
      .all(limit) as Array<Record<string, unknown>>;
    return rows.map((r) => ({ session: rowToSession(r), unprocessed: Number(r.unprocessed) }));
  }

  markProcessed(userId: string, sessionId: string, throughSeq: number, messageId: string, at: Date): void {
    this.db
      .prepare(
        `UPDATE sessions SET processed_seq = max(processed_seq, ?), last_processed_message_id = ?, processed_at = ?,
           failures = 0, last_error = NULL, extraction_state = 'ok', next_attempt_at = NULL
         WHERE user_id = ? AND id = ?`,
      )
      .run(throughSeq, messageId, at.getTime(), userId, sessionId);
  }

  recordFailure(userId: string, sessionId: string, f: { error: string; failures: number; state: string; nextAttemptAt: Date }): void {
    this.db
      .prepare('UPDATE sessions SET failures = ?, last_error = ?, extraction_state = ?, next_attempt_at = ? WHERE user_id = ? AND id = ?')
      .run(f.failures, f.error, f.state, f.nextAttemptAt.getTime(), userId, sessionId);
  }

  endSession(userId: string, sessionId: string, at: Date): void {
    this.db.prepare('UPDATE sessions SET ended_at = ? WHERE user_id = ? AND id = ?').run(at.getTime(), userId, sessionId);
  }

  recordRun(run: ExtractionRun): void {
    this.db
      .prepare(
        `INSERT INTO extraction_runs (id, user_id, session_id, from_seq, through_seq, extractor, outcome, counts, rejected, reason, error, at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(run.id, run.userId, run.sessionId, run.fromSeq, run.throughSeq, run.extractor, run.outcome, JSON.stringify(run.counts), JSON.stringify(run.rejected), run.reason ?? null, run.error ?? null, run.at.getTime());
  }

  runs(userId: string, sessionId: string): ExtractionRun[] {
    const rows = this.db.prepare('SELECT * FROM extraction_runs WHERE user_id = ? AND session_id = ? ORDER BY at, rowid').all(userId, sessionId) as Array<Record<string, string | number | null>>;
    return rows.map((r) => ({
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
    }));
  }

  settings(userId: string): Record<string, unknown> {
    const rows = this.db.prepare(`SELECT user_id, key, value FROM settings WHERE user_id IN ('*', ?) ORDER BY user_id = '*' DESC`).all(userId) as Array<{ key: string; value: string }>;
    const out: Record<string, unknown> = {};
    for (const r of rows) out[r.key] = JSON.parse(r.value);
    return out;
  }

  setSettings(userId: string, values: Record<string, unknown>): void {
    const stmt = this.db.prepare('INSERT INTO settings (user_id, key, value) VALUES (?, ?, ?) ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value');
    for (const [k, v] of Object.entries(values)) if (v !== undefined) stmt.run(userId, k, JSON.stringify(v));
  }
}
