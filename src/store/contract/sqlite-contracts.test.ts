import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqliteHandleOf, sqliteKeyStore } from '../../server/keys/sqlite-key-store.js';
import { openSqliteStore } from '../sqlite/sqlite-store.js';
import type { ContractStore } from './fixtures.js';
import { runStoreContracts, snapshotUser, fillUser } from './index.js';

function sqlite(path: string, cleanup: () => void = () => undefined): ContractStore {
  const store = openSqliteStore({ path });
  return {
    store,
    keys: sqliteKeyStore(sqliteHandleOf(store)!),
    close: async () => {
      await store.close();
      cleanup();
    },
  };
}

const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-contract-'));
  return { path: join(dir, 'test.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
};

// One line per adapter.
runStoreContracts('sqlite (:memory:)', async () => sqlite(':memory:'));
runStoreContracts('sqlite (temp file)', async () => {
  const { path, cleanup } = tempFile();
  return sqlite(path, cleanup);
});

describe('sqlite backup', () => {
  it('is a store of its own holding the same rows', async () => {
    const { path, cleanup } = tempFile();
    const source = sqlite(path, cleanup);
    await source.store.bindEmbedder({ id: 'test@4', dimensions: 4 });
    await fillUser(source.store, 'u', 'zh');
    const copyPath = join(mkdtempSync(join(tmpdir(), 'engram-backup-')), 'copy.db');
    await source.store.backup(copyPath);
    const copy = openSqliteStore({ path: copyPath });
    expect(await snapshotUser(copy, 'u')).toEqual(await snapshotUser(source.store, 'u'));
    await copy.close();
    await source.close();
  });
});
