import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Memory } from '../domain/memory.js';
import { pgKeyStore } from '../server/keys/pg-key-store.js';
import { snapshotUser } from '../store/contract/index.js';
import { openPostgresStore, postgresHandleOf } from '../store/postgres/postgres-store.js';
import { testDatabaseUrl } from '../store/postgres/test-postgres.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import { expectWholeSourceCopied, migrateSource } from '../testing/migrate-source.js';
import { cliHarness } from './test-cli.js';
import { resolveEngineSettings } from './config.js';

const base = testDatabaseUrl();
let h: ReturnType<typeof cliHarness>;
let url: string;
beforeEach(() => {
  url = `${base}?schema=cli_${randomBytes(5).toString('hex')}`;
  h = cliHarness({ env: { ENGRAM_DATABASE_URL: url } });
});
afterEach(() => h.cleanup());

describe('selecting PostgreSQL', () => {
  it('ENGRAM_DATABASE_URL wins over ENGRAM_DB, --db over both, and a URL is kept as it is', () => {
    const env = { ENGRAM_DB: '/tmp/a.db', ENGRAM_DATABASE_URL: 'postgres://u@127.0.0.1:5432/engram?schema=s' };
    expect(resolveEngineSettings({ env }).dbPath).toBe('postgres://u@127.0.0.1:5432/engram?schema=s');
    expect(resolveEngineSettings({ env, db: 'postgresql://v@127.0.0.1/x' }).dbPath).toBe('postgresql://v@127.0.0.1/x');
    expect(resolveEngineSettings({ env: { ENGRAM_DB: '/tmp/a.db' } }).dbPath).toBe('/tmp/a.db');
  });
});

describe.skipIf(!base)('the CLI on PostgreSQL (ENGRAM_TEST_DATABASE_URL)', () => {
  it('adds and finds Chinese and English memories through ENGRAM_DATABASE_URL, and --db reaches the same data', async () => {
    expect((await h.cli(['--user', 'li-ming', 'add', '用户不吃香菜', '--kind', 'preference'])).code).toBe(0);
    expect((await h.cli(['--user', 'li-ming', 'add', 'The user is allergic to peanuts'])).code).toBe(0);
    const zh = await h.cli(['--user', 'li-ming', 'search', '香菜', '--json']);
    expect(zh.code).toBe(0);
    expect(JSON.stringify(zh.json())).toContain('用户不吃香菜');
    const en = await h.cli(['--db', url, '--user', 'li-ming', 'list', '--json'], { ENGRAM_DATABASE_URL: undefined });
    expect(en.code).toBe(0);
    const listed = en.json<Memory[] | { memories: Memory[] }>();
    const contents = (Array.isArray(listed) ? listed : listed.memories).map((m) => m.content);
    expect(contents).toEqual(expect.arrayContaining(['用户不吃香菜', 'The user is allergic to peanuts']));
    // Nothing was written to the SQLite file the harness names in ENGRAM_DB.
    const sqlite = await h.cli(['--user', 'li-ming', 'list', '--json'], { ENGRAM_DATABASE_URL: undefined });
    expect(sqlite.stdout).not.toContain('香菜');
  });

  it('backup says to use pg_dump, with a typed error', async () => {
    const r = await h.cli(['backup', '/tmp/never-written.db']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/pg_dump/);
    expect(r.stderr).toMatch(/CONFIG_INVALID/);
  });

  it('keeps API keys in the same database', async () => {
    const created = await h.cli(['keys', 'create', '--tenant', 'acme', '--json']);
    expect(created.code).toBe(0);
    const listed = await h.cli(['keys', 'list', '--json']);
    expect(listed.stdout).toContain('acme');
  });
});

describe.skipIf(!base)('engram migrate into PostgreSQL (ENGRAM_TEST_DATABASE_URL)', () => {
  it('copies a SQLite file with a Chinese and an English user into a schema, verifies counts, and a second run applies nothing twice', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'engram-migrate-pg-'));
    const from = path.join(dir, 'from.db');
    const open = <T>(store: Store, fn: (s: Store) => Promise<T>): Promise<T> => fn(store).finally(() => store.close());
    try {
      const { secret } = await migrateSource(from);
      const r = await h.cli(['migrate', '--from', from, '--to', url]);
      expectWholeSourceCopied(r);
      const before = await open(openSqliteStore({ path: from }), async (s) => ({ zh: await snapshotUser(s, 'li-ming'), en: await snapshotUser(s, 'alice') }));
      await open(openPostgresStore({ url }), async (s) => {
        expect({ ...(await snapshotUser(s, 'li-ming')), forgetGeneration: before.zh.forgetGeneration }).toEqual(before.zh);
        expect(await snapshotUser(s, 'alice')).toEqual(before.en);
        expect((await s.history('li-ming', 'li-ming-gone')).map((e) => e.action)).toEqual(['create', 'purge']);
        expect((await pgKeyStore(postgresHandleOf(s)!).find(secret))?.tenantId).toBe('acme');
      });
      const again = await h.cli(['migrate', '--from', from, '--to', url, '--into-existing']);
      expect(again.code).toBe(0);
      await open(openPostgresStore({ url }), async (s) => expect(await snapshotUser(s, 'alice')).toEqual(before.en));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
