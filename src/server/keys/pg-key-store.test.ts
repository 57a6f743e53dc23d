import { describe, expect, it } from 'vitest';
import { postgresHandleOf } from '../../store/postgres/postgres-store.js';
import { openTestPostgresStore, testDatabaseUrl } from '../../store/postgres/test-postgres.js';
import { keyStoreOf } from './key-store-of.js';

// The behaviour of the key store is the keys contract (src/store/contract); here, what is on disk.
describe.skipIf(!testDatabaseUrl())('postgres key store (ENGRAM_TEST_DATABASE_URL)', () => {
  it('keeps only the hash of a key in its table (Chinese and English labels)', async () => {
    const store = openTestPostgresStore();
    const handle = postgresHandleOf(store)!;
    const { key } = await keyStoreOf(store).create({ tenantId: 'acme', boundUserId: '李明', name: '网页 web page' });
    const rows = (await handle.pool.query(`SELECT * FROM "${handle.schema}".api_keys`)).rows;
    expect(JSON.stringify(rows)).not.toContain(key.slice(3));
    await store.close();
  });
});
