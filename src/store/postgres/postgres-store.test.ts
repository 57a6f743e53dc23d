import { describe, it } from 'vitest';
import { runMessageStoreContract, runStoreContract } from '../store.contract.js';
import { openTestPostgresStore, testDatabaseUrl } from './test-postgres.js';

// The same contract the SQLite store runs, on a real PostgreSQL (a fresh schema per store).
if (testDatabaseUrl()) {
  runStoreContract('postgres', async () => openTestPostgresStore());
  runMessageStoreContract('postgres', async () => openTestPostgresStore());
} else {
  describe.skip('Store contract: postgres (set ENGRAM_TEST_DATABASE_URL or run npm run test:pg)', () => it.skip('needs PostgreSQL', () => undefined));
}
