import { describe, it } from 'vitest';
import { keyStoreOf } from '../../server/keys/key-store-of.js';
import { runStoreContracts } from '../contract/index.js';
import { openTestPostgresStore, testDatabaseUrl } from './test-postgres.js';

// The same contracts the SQLite store runs, on a real PostgreSQL (a fresh schema per store).
if (testDatabaseUrl()) {
  runStoreContracts('postgres', async () => {
    const store = openTestPostgresStore();
    return { store, keys: keyStoreOf(store), traits: { claimsReminders: true, backup: false }, close: () => store.close() };
  });
} else {
  describe.skip('Store contract: postgres (set ENGRAM_TEST_DATABASE_URL or run npm run test:pg)', () => it.skip('needs PostgreSQL', () => undefined));
}
