import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteHandleOf, sqliteKeyStore } from '../server/keys/sqlite-key-store.js';
import { snapshotUser } from '../store/contract/index.js';
import { at } from '../store/contract/fixtures.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import { bufferIo } from './io.js';
import { expectWholeSourceCopied, migrateSource } from '../testing/migrate-source.js';
import { run } from './run.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'engram-migrate-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = async (args: string[]) => {
  const io = bufferIo({});
  const code = await run(args, io);
  return { code, stdout: io.out(), stderr: io.err() };
};


const withStore = async <T>(file: string, fn: (store: Store) => Promise<T>): Promise<T> => {
  const store = openSqliteStore({ path: file });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
};

describe('engram migrate', () => {
  it('copies every user (zh, en) with history, vectors, sessions, todos, profiles, settings and keys, and verifies counts', async () => {
    const [from, to] = [path.join(dir, 'from.db'), path.join(dir, 'to.db')];
    const { secret } = await migrateSource(from);
    const r = await cli(['migrate', '--from', from, '--to', to]);
    expectWholeSourceCopied(r);
    const before = await withStore(from, async (s) => ({ zh: await snapshotUser(s, 'li-ming'), en: await snapshotUser(s, 'alice'), star: await s.ownSettings('*') }));
    await withStore(to, async (s) => {
      expect({ ...(await snapshotUser(s, 'li-ming')), forgetGeneration: before.zh.forgetGeneration }).toEqual(before.zh);
      expect(await snapshotUser(s, 'alice')).toEqual(before.en);
      expect(await s.ownSettings('*')).toEqual(before.star);
      expect((await s.history('li-ming', 'li-ming-gone')).map((e) => e.action)).toEqual(['create', 'purge']);
      expect((await s.vectorStatus()).pending).toEqual({ memories: 0, messages: 1 });
      expect((await sqliteKeyStore(sqliteHandleOf(s)!).find(secret))?.tenantId).toBe('acme');
    });
  });

  it('refuses a non-empty target unless --into-existing, and a second run applies nothing twice', async () => {
    const [from, to] = [path.join(dir, 'from.db'), path.join(dir, 'to.db')];
    await migrateSource(from);
    expect((await cli(['migrate', '--from', from, '--to', to])).code).toBe(0);
    const refused = await cli(['migrate', '--from', from, '--to', to]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/CONFLICT.*--into-existing/);
    const again = await cli(['--json', 'migrate', '--from', from, '--to', to, '--into-existing']);
    expect(again.stderr).toBe('');
    const report = JSON.parse(again.stdout) as { verified: boolean; keys: number; counts: Array<{ table: string; source: number; target: number }> };
    expect(report.verified).toBe(true);
    expect(report.keys).toBe(0);
    expect(report.counts.every((c) => c.source === c.target)).toBe(true);
  });

  it('copies users who have only settings, a todo or a profile (zh, en)', async () => {
    const [from, to] = [path.join(dir, 'from.db'), path.join(dir, 'to.db')];
    await withStore(from, async (s) => {
      await s.setSettings('王芳', { timeZone: 'Asia/Shanghai' });
      await s.insertTodo({ id: 't1', userId: 'bob', content: 'Call the dentist 看牙医', completed: false, reminded: false, createdAt: at(0), deliveryAttempts: 0, remindAt: at(9) });
      await s.insertProfile({ userId: '张伟', version: 1, narrative: '喜欢爬山 / likes hiking', basicInfo: { city: '杭州' }, changes: 'v1', producedBy: 'update-profile@2', episodeCount: 1, createdAt: at(1) });
    });
    const r = await cli(['migrate', '--from', from, '--to', to]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('Copied 3 users');
    expect(r.stdout).toContain('Counts verified.');
    await withStore(to, async (s) => {
      expect(await s.ownSettings('王芳')).toEqual({ timeZone: 'Asia/Shanghai' });
      expect((await s.listTodos({ userId: 'bob' })).map((t) => t.content)).toEqual(['Call the dentist 看牙医']);
      expect((await s.profileVersions('张伟')).map((p) => p.narrative)).toEqual(['喜欢爬山 / likes hiking']);
    });
  });

  it('refuses the same database on both sides, and a target bound to another embedder', async () => {
    const [from, to] = [path.join(dir, 'from.db'), path.join(dir, 'to.db')];
    await migrateSource(from);
    expect((await cli(['migrate', '--from', from, '--to', from])).stderr).toMatch(/INVALID_INPUT/);
    await withStore(to, (s) => s.bindEmbedder({ id: 'other@8', dimensions: 8 }));
    const r = await cli(['migrate', '--from', from, '--to', to]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/EMBEDDER_MISMATCH/);
  });
});
