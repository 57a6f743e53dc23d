import type { DeliverySettlement } from '../ports/todos.js';
import type Database from 'better-sqlite3';
import { limitClause, Statements } from './statements.js';
import type { Session } from '../../domain/conversation.js';
import { Profile, Relation } from '../../domain/profile.js';
import type { Todo } from '../../domain/todo.js';
import { rowToSession } from './message-tables.js';
import { NOT_WITHDRAWN, STILL_DUE, TodoTables } from './todo-tables.js';

/**
 * Every user with any row of their own: memories (or the history a purge kept), sessions, todos, a
 * profile or settings ("*" holds the global settings, no user). The same SQL runs on PostgreSQL.
 */
export const USER_IDS_SQL = `SELECT user_id FROM memories UNION SELECT user_id FROM memory_history UNION SELECT user_id FROM sessions
  UNION SELECT user_id FROM todos UNION SELECT user_id FROM profiles UNION SELECT user_id FROM settings WHERE user_id <> '*'`;

/** Relations, profile versions, episode bookkeeping and reminder deliveries. */
export class LifecycleTables {
  private readonly sql: Statements;

  constructor(
    db: Database.Database,
    private readonly todos: TodoTables,
  ) {
    this.sql = new Statements(db);
  }

  insertRelation(r: Relation): void {
    this.sql.get('INSERT INTO memory_relations (id, user_id, source_id, target_id, type, strength, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(r.id, r.userId, r.sourceId, r.targetId, r.type, r.strength, r.reason ?? null, r.createdAt.getTime());
  }

  /** True when a relation of this user was removed. */
  deleteRelation(userId: string, id: string): boolean {
    return this.sql.get('DELETE FROM memory_relations WHERE user_id = ? AND id = ?').run(userId, id).changes > 0;
  }

  relationsOf(userId: string, memoryId: string): Relation[] {
    return this.relationRows('SELECT * FROM memory_relations WHERE user_id = ? AND (source_id = ? OR target_id = ?) ORDER BY created_at, rowid', userId, memoryId, memoryId);
  }

  relationsOfUser(userId: string): Relation[] {
    return this.relationRows('SELECT * FROM memory_relations WHERE user_id = ? ORDER BY created_at, rowid', userId);
  }

  private relationRows(sql: string, ...args: unknown[]): Relation[] {
    const rows = this.sql.get(sql).all(...args) as Array<Record<string, unknown>>;
    return rows.map((r) =>
      Relation.parse({
        id: r.id, userId: r.user_id, sourceId: r.source_id, targetId: r.target_id, type: r.type, strength: r.strength,
        reason: r.reason ?? undefined, createdAt: new Date(Number(r.created_at)),
      }),
    );
  }

  private toProfile(r: Record<string, unknown>): Profile {
    return Profile.parse({
      userId: r.user_id, version: r.version, narrative: r.narrative, basicInfo: JSON.parse(String(r.basic_info)),
      changes: r.changes ?? undefined, producedBy: r.produced_by ?? undefined, episodeCount: r.episode_count, createdAt: new Date(Number(r.created_at)),
    });
  }

  latestProfile(userId: string): Profile | null {
    const row = this.sql.get('SELECT * FROM profiles WHERE user_id = ? ORDER BY version DESC LIMIT 1').get(userId) as Record<string, unknown> | undefined;
    return row ? this.toProfile(row) : null;
  }

  profileVersions(userId: string): Profile[] {
    return (this.sql.get('SELECT * FROM profiles WHERE user_id = ? ORDER BY version').all(userId) as Array<Record<string, unknown>>).map((r) => this.toProfile(r));
  }

  insertProfile(p: Profile): void {
    this.sql.get('INSERT INTO profiles (user_id, version, narrative, basic_info, changes, produced_by, episode_count, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(p.userId, p.version, p.narrative, JSON.stringify(p.basicInfo), p.changes ?? null, p.producedBy ?? null, p.episodeCount, p.createdAt.getTime());
  }

  deleteProfileVersions(userId: string, versions: readonly number[]): void {
    const stmt = this.sql.get('DELETE FROM profiles WHERE user_id = ? AND version = ?');
    for (const v of versions) stmt.run(userId, v);
  }

  sessionsToSummarize(limit: number): Array<{ session: Session; unsummarized: number }> {
    const rows = this.sql.get(`SELECT *, next_seq - 1 - summarized_seq AS unsummarized FROM sessions WHERE next_seq - 1 > summarized_seq OR summary_retry_at IS NOT NULL ORDER BY last_active_at ${limitClause(limit)}`)
      .all() as Array<Record<string, unknown>>;
    return rows.map((r) => ({ session: rowToSession(r), unsummarized: Number(r.unsummarized) }));
  }

  markSummarized(userId: string, sessionId: string, throughSeq: number, retryAt: Date | null, failures: number): void {
    this.sql.get('UPDATE sessions SET summarized_seq = max(summarized_seq, ?), summary_retry_at = ?, summary_failures = ? WHERE user_id = ? AND id = ?')
      .run(throughSeq, retryAt?.getTime() ?? null, failures, userId, sessionId);
  }

  dueReminders(now: Date, limit: number): Todo[] {
    const ids = this.sql.get(
        `SELECT user_id, id FROM todos WHERE reminded = 0 AND completed = 0 AND remind_at IS NOT NULL AND remind_at <= ?
           AND (next_delivery_at IS NULL OR next_delivery_at <= ?) AND ${NOT_WITHDRAWN} ORDER BY remind_at ${limitClause(limit)}`,
      )
      .all(now.getTime(), now.getTime()) as Array<{ user_id: string; id: string }>;
    return ids.map((r) => this.todos.get(r.user_id, r.id));
  }

  /** Records a delivery and sets the reminded mark together; false when it was delivered before. */
  recordDelivery(userId: string, todoId: string, deliveryId: string, at: Date, settle: DeliverySettlement = {}): boolean {
    const info = this.sql.get('INSERT INTO reminder_deliveries (id, user_id, todo_id, delivered_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING').run(deliveryId, userId, todoId, at.getTime());
    const { next } = settle;
    const of = settle.of?.getTime() ?? null;
    if (next) {
      this.sql.get(`UPDATE todos SET reminded = 0, due_at = ?, remind_at = ?, delivery_attempts = 0, last_delivery_error = NULL, next_delivery_at = NULL WHERE user_id = ? AND id = ? AND ${STILL_DUE}`)
        .run(next.dueAt.getTime(), next.remindAt.getTime(), userId, todoId, of, of);
    } else this.sql.get(`UPDATE todos SET reminded = 1, last_delivery_error = NULL, next_delivery_at = NULL WHERE user_id = ? AND id = ? AND ${STILL_DUE}`).run(userId, todoId, of, of);
    return info.changes === 1;
  }

  deliveriesOf(userId: string, todoId: string): Array<{ id: string; at: Date }> {
    const rows = this.sql.get('SELECT id, delivered_at FROM reminder_deliveries WHERE user_id = ? AND todo_id = ? ORDER BY delivered_at, id').all(userId, todoId) as Array<{ id: string; delivered_at: number }>;
    return rows.map((r) => ({ id: r.id, at: new Date(r.delivered_at) }));
  }

  recordDeliveryFailure(userId: string, todoId: string, error: string, nextAt: Date): void {
    this.sql.get('UPDATE todos SET delivery_attempts = delivery_attempts + 1, last_delivery_error = ?, next_delivery_at = ? WHERE user_id = ? AND id = ?')
      .run(error, nextAt.getTime(), userId, todoId);
  }

  userIds(): string[] {
    return (this.sql.get(USER_IDS_SQL).all() as Array<{ user_id: string }>).map((r) => r.user_id);
  }
}
