import { expect } from 'vitest';
import { sqliteHandleOf, sqliteKeyStore } from '../server/keys/sqlite-key-store.js';
import { fillUser } from '../store/contract/index.js';
import { at, mem, msg, user, vec } from '../store/contract/fixtures.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';

/** A source with every table filled for a Chinese and an English user, plus the states a copy must keep. */
export async function migrateSource(file: string): Promise<{ secret: string }> {
  const store = openSqliteStore({ path: file });
  await store.bindEmbedder({ id: 'test@4', dimensions: 4 });
  await fillUser(store, 'li-ming', 'zh');
  await fillUser(store, 'alice', 'en');
  await store.setSettings('*', { silentMinutes: 5 });
  // A purged memory leaves history only; a watermark, an episode watermark, a failed delivery, an ended session.
  await store.insertMemory(mem('li-ming-gone', 'li-ming', '我的银行卡密码'), vec(1), user);
  await store.purgeMemory('li-ming', 'li-ming-gone', user);
  await store.markProcessed('li-ming', 's', 0, 'li-ming-x1', at(3));
  await store.markSummarized('li-ming', 's', 1, null, 0);
  await store.recordExtractionFailure('alice', 's', { error: 'model timeout', failures: 2, state: 'retrying', nextAttemptAt: at(9) });
  await store.endSession('alice', 's', at(4));
  await store.updateTodo('alice', 'alice-t1', { reminded: false });
  await store.recordDeliveryFailure('alice', 'alice-t1', 'webhook 502', at(40));
  await store.appendMessages('alice', 's2', [{ ...msg('alice-x3', 'No vector yet', 5), vector: null }]);
  const { key } = await sqliteKeyStore(sqliteHandleOf(store)!).create({ tenantId: 'acme', name: '后台' });
  await store.close();
  return { secret: key };
}

/** What `engram migrate` reports after copying all of `migrateSource`, whatever the target store. */
export function expectWholeSourceCopied(r: { code: number; stdout: string; stderr: string }): void {
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('Copied 2 users and 1 API key');
  expect(r.stdout).toMatch(/^memories\s+4\s+4$/m);
  expect(r.stdout).toMatch(/^messages\s+5\s+5$/m);
  expect(r.stdout).toContain('Counts verified.');
}
