import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMessageStoreContract, runStoreContract } from '../store.contract.js';
import { openSqliteStore } from './sqlite-store.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'engram-')), 'test.db');
runStoreContract('sqlite (temp file)', async () => openSqliteStore({ path: tempFile() }));
runStoreContract('sqlite (:memory:)', async () => openSqliteStore({ path: ':memory:' }));
runMessageStoreContract('sqlite (temp file)', async () => openSqliteStore({ path: tempFile() }));
