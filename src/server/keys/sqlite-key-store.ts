import Database from 'better-sqlite3';
import type { Clock, IdGenerator } from '../../deps.js';
import { randomIds, systemClock } from '../../deps.js';
import { NotFoundError, parseInput } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { hashKey, newSecret, NewApiKey, StoredApiKey, type ApiKey, type KeyStore } from './key-store.js';

interface Row {
  id: string;
  tenant_id: string;
  bound_user_id: string | null;
  name: string | null;
  created_at: number;
  revoked_at: number | null;
}

const toKey = (r: Row): ApiKey => ({
  id: r.id,
  tenantId: r.tenant_id,
  ...(r.bound_user_id === null ? {} : { boundUserId: r.bound_user_id }),
  ...(r.name === null ? {} : { name: r.name }),
  createdAt: new Date(r.created_at),
  ...(r.revoked_at === null ? {} : { revokedAt: new Date(r.revoked_at) }),
});

/** The SQLite connection under an Engram SQLite store, or null for another store. */
export function sqliteHandleOf(store: Store): Database.Database | null {
  const db = (store as { db?: unknown }).db;
  return db instanceof Database ? db : null;
}

/** Keys in the `api_keys` table (migration 5) of the engine's own database file. */
export function sqliteKeyStore(db: Database.Database, options: { clock?: Clock; ids?: IdGenerator } = {}): KeyStore {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const select = 'SELECT id, tenant_id, bound_user_id, name, created_at, revoked_at FROM api_keys';
  const byId = db.prepare(`${select} WHERE id = ?`);
  const byHash = db.prepare(`${select} WHERE hash = ?`);
  const anyActive = db.prepare('SELECT 1 FROM api_keys WHERE revoked_at IS NULL LIMIT 1');
  return {
    async create(input) {
      const k = parseInput(NewApiKey, input, 'key');
      const key = newSecret();
      const id = `key_${ids.next()}`;
      db.prepare('INSERT INTO api_keys (id, tenant_id, bound_user_id, name, hash, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
        id, k.tenantId, k.boundUserId ?? null, k.name ?? null, hashKey(key), clock.now().getTime(),
      );
      return { key, record: toKey(byId.get(id) as Row) };
    },
    async list(tenantId) {
      const rows = (tenantId === undefined ? db.prepare(`${select} ORDER BY created_at, id`).all() : db.prepare(`${select} WHERE tenant_id = ? ORDER BY created_at, id`).all(tenantId)) as Row[];
      return rows.map(toKey);
    },
    async revoke(id, tenantId) {
      const row = byId.get(id) as Row | undefined;
      if (!row || (tenantId !== undefined && row.tenant_id !== tenantId)) throw new NotFoundError('Key', id);
      if (row.revoked_at === null) db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(clock.now().getTime(), id);
      return toKey(byId.get(id) as Row);
    },
    async find(secret) {
      const row = byHash.get(hashKey(secret)) as Row | undefined;
      return row ? toKey(row) : null;
    },
    async hasActiveKeys() {
      return anyActive.get() !== undefined;
    },
    async exportKeys() {
      const rows = db.prepare('SELECT id, tenant_id, bound_user_id, name, hash, created_at, revoked_at FROM api_keys ORDER BY created_at, id').all() as Array<Row & { hash: string }>;
      return rows.map((r) => ({ ...toKey(r), hash: r.hash }));
    },
    async importKeys(keys) {
      const insert = db.prepare('INSERT INTO api_keys (id, tenant_id, bound_user_id, name, hash, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING');
      return db.transaction(() => {
        let inserted = 0;
        for (const k of keys) {
          const key = parseInput(StoredApiKey, k, 'key');
          inserted += insert.run(key.id, key.tenantId, key.boundUserId ?? null, key.name ?? null, key.hash, key.createdAt.getTime(), key.revokedAt?.getTime() ?? null).changes;
        }
        return inserted;
      }).immediate();
    },
  };
}
