import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreContract } from '../store.contract.js';
import { openSqliteStore } from './sqlite-store.js';

runStoreContract('sqlite (temp file)', async () => openSqliteStore({ path: join(mkdtempSync(join(tmpdir(), 'engram-')), 'test.db') }));
runStoreContract('sqlite (:memory:)', async () => openSqliteStore({ path: ':memory:' }));
