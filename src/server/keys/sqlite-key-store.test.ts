import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { sqliteHandleOf, sqliteKeyStore } from './sqlite-key-store.js';

// The behaviour of the key store is the keys contract (src/store/contract); here, what is on disk.
describe('sqlite key store', () => {
  it('keeps only the hash of a key in its table (Chinese and English labels)', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const db = sqliteHandleOf(store)!;
    const { key } = await sqliteKeyStore(db).create({ tenantId: 'acme', boundUserId: '李明', name: '网页 web page' });
    expect(JSON.stringify(db.prepare('SELECT * FROM api_keys').all())).not.toContain(key.slice(3));
    await store.close();
  });
});
