import type Database from 'better-sqlite3';
import { ForgottenRequest, ForgottenRequestJson } from '../../domain/forgotten.js';
import { Statements } from './statements.js';

interface ForgottenRow {
  body: string;
}

/** What requests in conversation forgot, one JSON document a request (see ports/forgotten.ts). */
export class ForgottenTables {
  private readonly sql: Statements;

  constructor(db: Database.Database) {
    this.sql = new Statements(db);
  }

  save(record: ForgottenRequest): void {
    const r = ForgottenRequest.parse(record);
    this.sql
      .get(
        `INSERT INTO forgotten_requests (user_id, id, at, expires_at, body) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (user_id, id) DO UPDATE SET at = excluded.at, expires_at = excluded.expires_at, body = excluded.body`,
      )
      .run(r.userId, r.id, r.at.getTime(), r.expiresAt.getTime(), JSON.stringify(r));
  }

  list(userId: string): ForgottenRequest[] {
    const rows = this.sql.get('SELECT body FROM forgotten_requests WHERE user_id = ? ORDER BY at DESC, id DESC').all(userId) as ForgottenRow[];
    return rows.map(parseRecord);
  }

  get(userId: string, id: string): ForgottenRequest | null {
    const row = this.sql.get('SELECT body FROM forgotten_requests WHERE user_id = ? AND id = ?').get(userId, id) as ForgottenRow | undefined;
    return row ? parseRecord(row) : null;
  }

  delete(userId: string, id: string): boolean {
    return this.sql.get('DELETE FROM forgotten_requests WHERE user_id = ? AND id = ?').run(userId, id).changes > 0;
  }

  deleteExpired(now: Date): number {
    return this.sql.get('DELETE FROM forgotten_requests WHERE expires_at <= ?').run(now.getTime()).changes;
  }
}

/** A stored record read back: written by `save`, so a failure here is a damaged row, reported by zod's error. */
export function parseRecord(row: { body: string }): ForgottenRequest {
  return ForgottenRequestJson.parse(JSON.parse(row.body));
}
