import { afterEach, describe, expect, it } from 'vitest';
import { postgresHandleOf } from '../../store/postgres/postgres-store.js';
import { openTestPostgresStore, testDatabaseUrl } from '../../store/postgres/test-postgres.js';
import type { Store } from '../../store/store.js';
import { keyStoreOf } from './key-store-of.js';

let store: Store | undefined;
afterEach(async () => store?.close());

const keysOf = () => {
  store = openTestPostgresStore();
  const handle = postgresHandleOf(store);
  if (!handle) throw new Error('expected a PostgreSQL store');
  return { keys: keyStoreOf(store), handle };
};

describe.skipIf(!testDatabaseUrl())('postgres key store (ENGRAM_TEST_DATABASE_URL)', () => {
  it('creates a key shown once, stores only its hash, finds it and revokes it (Chinese and English labels)', async () => {
    const { keys, handle } = keysOf();
    expect(await keys.hasActiveKeys()).toBe(false);
    const { key, record } = await keys.create({ tenantId: 'acme', boundUserId: '李明', name: '网页 web page' });
    expect(key).toMatch(/^ek_/);
    const raw = JSON.stringify((await handle.pool.query(`SELECT * FROM "${handle.schema}".api_keys`)).rows);
    expect(raw).not.toContain(key);
    expect(await keys.find(key)).toMatchObject({ id: record.id, tenantId: 'acme', boundUserId: '李明', name: '网页 web page' });
    expect(await keys.find(key + 'x')).toBeNull();
    expect(await keys.hasActiveKeys()).toBe(true);
    expect((await keys.revoke(record.id)).revokedAt).toBeInstanceOf(Date);
    expect((await keys.find(key))?.revokedAt).toBeInstanceOf(Date);
    expect(await keys.hasActiveKeys()).toBe(false);
  });

  it("lists per tenant, and revoking another tenant's key is NOT_FOUND", async () => {
    const { keys } = keysOf();
    const a = await keys.create({ tenantId: 'a' });
    await keys.create({ tenantId: 'b', name: 'backend' });
    expect((await keys.list('a')).map((k) => k.id)).toEqual([a.record.id]);
    expect(await keys.list()).toHaveLength(2);
    await expect(keys.revoke(a.record.id, 'b')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('rejects a bad tenant id and unknown fields', async () => {
    const { keys } = keysOf();
    await expect(keys.create({ tenantId: 'a b' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(keys.create({ tenantId: 'a', extra: 1 } as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
