import type { Session } from '../domain/conversation.js';
import type { MemoryEngine } from '../memory-engine.js';
import { sqliteHandleOf } from './keys/sqlite-key-store.js';
import { postgresHandleOf } from '../store/postgres/postgres-store.js';

/** Lists a user's sessions, most recently active first (the Store port has no such query yet). */
export type SessionLister = (userId: string, limit: number) => Promise<Session[]>;

/** Reads session ids straight from the SQLite file when there is one, then loads each through the engine. */
export function sessionLister(memory: MemoryEngine): SessionLister {
  const db = sqliteHandleOf(memory.deps.store);
  const pg = postgresHandleOf(memory.deps.store);
  return async (userId, limit) => {
    if (pg) {
      const rows = await pg.query<{ id: string }>(`SELECT id FROM "${pg.schema}".sessions WHERE user_id = $1 ORDER BY last_active_at DESC, id LIMIT $2`, [userId, limit]);
      return Promise.all(rows.map((r) => memory.getSession(userId, r.id)));
    }
    if (!db) return [];
    const ids = db.prepare('SELECT id FROM sessions WHERE user_id = ? ORDER BY last_active_at DESC, id LIMIT ?').all(userId, limit) as Array<{ id: string }>;
    return Promise.all(ids.map((r) => memory.getSession(userId, r.id)));
  };
}
