import type { Clock, IdGenerator } from '../../deps.js';
import { randomIds, systemClock } from '../../deps.js';
import { NotFoundError, parseInput } from '../../errors.js';
import type { PostgresHandle } from '../../store/postgres/postgres-store.js';
import { hashKey, newSecret, NewApiKey, StoredApiKey, type ApiKey, type KeyStore } from './key-store.js';

interface Row {
  id: string;
  tenant_id: string;
  bound_user_id: string | null;
  name: string | null;
  created_at: string | number;
  revoked_at: string | number | null;
}

const toKey = (r: Row): ApiKey => ({
  id: r.id,
  tenantId: r.tenant_id,
  ...(r.bound_user_id === null ? {} : { boundUserId: r.bound_user_id }),
  ...(r.name === null ? {} : { name: r.name }),
  createdAt: new Date(Number(r.created_at)),
  ...(r.revoked_at === null ? {} : { revokedAt: new Date(Number(r.revoked_at)) }),
});

/** Keys in the `api_keys` table of the PostgreSQL store's schema (the same table the SQLite store has). */
export function pgKeyStore(handle: PostgresHandle, options: { clock?: Clock; ids?: IdGenerator } = {}): KeyStore {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const select = `SELECT id, tenant_id, bound_user_id, name, created_at, revoked_at FROM "${handle.schema}".api_keys`;
  // Through the store's handle: typed errors, and reads tried again while the server restarts.
  const rows = (sql: string, params: unknown[] = []): Promise<Row[]> => handle.query<Row>(sql, params);
  const byId = async (id: string) => (await rows(`${select} WHERE id = $1`, [id]))[0];
  return {
    async create(input) {
      const k = parseInput(NewApiKey, input, 'key');
      const key = newSecret();
      const id = `key_${ids.next()}`;
      await rows(`INSERT INTO "${handle.schema}".api_keys (id, tenant_id, bound_user_id, name, hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
        id, k.tenantId, k.boundUserId ?? null, k.name ?? null, hashKey(key), clock.now().getTime(),
      ]);
      return { key, record: toKey((await byId(id))!) };
    },
    async list(tenantId) {
      const found = tenantId === undefined ? await rows(`${select} ORDER BY created_at, id`) : await rows(`${select} WHERE tenant_id = $1 ORDER BY created_at, id`, [tenantId]);
      return found.map(toKey);
    },
    async revoke(id, tenantId) {
      const row = await byId(id);
      if (!row || (tenantId !== undefined && row.tenant_id !== tenantId)) throw new NotFoundError('Key', id);
      await rows(`UPDATE "${handle.schema}".api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL`, [clock.now().getTime(), id]);
      return toKey((await byId(id))!);
    },
    async find(secret) {
      const [row] = await rows(`${select} WHERE hash = $1`, [hashKey(secret)]);
      return row ? toKey(row) : null;
    },
    async exportKeys() {
      const found = (await rows(`SELECT id, tenant_id, bound_user_id, name, hash, created_at, revoked_at FROM "${handle.schema}".api_keys ORDER BY created_at, id`)) as Array<Row & { hash: string }>;
      return found.map((r) => ({ ...toKey(r), hash: r.hash }));
    },
    async importKeys(keys) {
      let inserted = 0;
      for (const k of keys) {
        const key = parseInput(StoredApiKey, k, 'key');
        const sql = `INSERT INTO "${handle.schema}".api_keys (id, tenant_id, bound_user_id, name, hash, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`;
        inserted += (await rows(sql, [key.id, key.tenantId, key.boundUserId ?? null, key.name ?? null, key.hash, key.createdAt.getTime(), key.revokedAt?.getTime() ?? null])).length;
      }
      return inserted;
    },
    async hasActiveKeys() {
      return (await rows(`SELECT id, tenant_id, bound_user_id, name, created_at, revoked_at FROM "${handle.schema}".api_keys WHERE revoked_at IS NULL LIMIT 1`)).length > 0;
    },
  };
}
