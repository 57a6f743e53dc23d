import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { Store } from '../store/store.js';
import { openSqliteStore, type SqliteStoreOptions } from '../store/sqlite/sqlite-store.js';

/**
 * For tests: SQLite stores on files in temp directories (several connections may open one file),
 * bound to a 4-dimension test embedder, closed and removed after each test.
 */
export function useTempSqliteStores(prefix = 'engram-test-') {
  let dirs: string[] = [];
  let stores: Store[] = [];
  afterEach(async () => {
    for (const s of stores) await s.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    stores = [];
    dirs = [];
  });
  return {
    tempPath(): string {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return join(dir, 'test.db');
    },
    async open(path: string, options: Omit<SqliteStoreOptions, 'path'> = {}): Promise<Store> {
      const store = openSqliteStore({ path, ...options });
      stores.push(store);
      await store.bindEmbedder({ id: 'test@4', dimensions: 4 });
      return store;
    },
    /** Closes these stores now (a property run opens many), not after the test. */
    async closeNow(...closing: Store[]): Promise<void> {
      for (const s of closing) await s.close();
      stores = stores.filter((s) => !closing.includes(s));
    },
  };
}
