import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Memory } from '../../domain/memory.js';
import { EngramError } from '../../errors.js';
import { createHashEmbedder } from '../../embedders/hash-embedder.js';
import { createMemory } from '../../memory.js';
import { migrate, SCHEMA_VERSION } from './schema.js';
import { openSqliteStore } from './sqlite-store.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'engram-sqlite-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const memory = (id: string, content: string): Memory => ({
  id, userId: 'u', kind: 'fact', content, importance: 0.5, confidence: 0.9, source: 'user', verified: true, core: false, status: 'active',
  provenance: { messageIds: [] }, language: 'en', createdAt: new Date('2026-01-01T00:00:00Z'), updatedAt: new Date('2026-01-01T00:00:00Z'), accessCount: 0, embedderId: 'e@2',
});
const user = { actor: 'user' } as const;
const isRawSqliteError = (e: unknown) => e instanceof Error && e.name === 'SqliteError';

describe('SQLite store under another process holding the write lock', () => {
  it('write transactions take the lock before reading and report STORE_BUSY, never a raw SqliteError', async () => {
    const file = path.join(dir, 'busy.db');
    const store = openSqliteStore({ path: file, busyTimeoutMs: 20 });
    await store.bindEmbedder({ id: 'e@2', dimensions: 2 });
    await store.insertMemory(memory('m1', 'The user likes tea / 用户喜欢茶'), new Float32Array([1, 0]), user);
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    try {
      // Deferred, these would read first: the update of a missing row would answer NOT_FOUND from a
      // snapshot that may already be stale, and the real update would fail with SQLITE_BUSY_SNAPSHOT.
      const attempts = [
        store.updateMemory('u', 'missing', { importance: 0.9 }, undefined, user),
        store.updateMemory('u', 'm1', { content: '用户喜欢绿茶' }, new Float32Array([0, 1]), user),
        store.purgeMemory('u', 'm1', user),
        store.appendMessages('u', 's', [{ id: 'x', role: 'user', content: 'I like tea', createdAt: new Date(), vector: null }]),
        store.transaction(async (tx) => tx.setSettings('u', { silentMinutes: 5 })),
      ];
      for (const attempt of attempts) {
        const error = await attempt.then(() => null, (e: unknown) => e);
        expect(isRawSqliteError(error)).toBe(false);
        expect(EngramError.hasCode(error, 'STORE_BUSY'), String(error)).toBe(true);
        expect((error as EngramError).cause).toBeInstanceOf(Error);
      }
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    // Nothing was half-written, and the store works again once the lock is free.
    expect((await store.getMemory('u', 'm1'))!.content).toBe('The user likes tea / 用户喜欢茶');
    expect(await store.listMessages({ userId: 'u' })).toEqual([]);
    await store.close();
  });

  it('a database that cannot be opened is a typed STORE_FAILED', () => {
    let error: unknown;
    try {
      openSqliteStore({ path: path.join(dir, 'no-such-folder', 'x.db') });
    } catch (e) {
      error = e;
    }
    expect(EngramError.hasCode(error, 'STORE_FAILED')).toBe(true);
  });
});

describe('migrations', () => {
  it('are re-read under the exclusive lock: a second connection finds the work done and changes nothing', () => {
    const file = path.join(dir, 'm.db');
    const a = new Database(file);
    const b = new Database(file);
    migrate(a);
    a.prepare("INSERT INTO engram_meta (key, value) VALUES ('marker', 'kept')").run();
    migrate(b);
    migrate(b);
    expect(b.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(b.prepare("SELECT value FROM engram_meta WHERE key = 'marker'").get()).toEqual({ value: 'kept' });
    a.close();
    b.close();
  });

  it('refuse a schema newer than this Engram with MIGRATION_FAILED', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    expect(() => migrate(db)).toThrow(expect.objectContaining({ code: 'MIGRATION_FAILED' }));
  });
});

describe('durability and backup', () => {
  it('commits are synced (synchronous=FULL in WAL mode)', async () => {
    const file = path.join(dir, 'sync.db');
    const store = openSqliteStore({ path: file });
    const db = (store as unknown as { db: Database.Database }).db;
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    await store.close();
  });

  it('delayed access writes are committed unsynced, and every other commit is synced again after them', async () => {
    const file = path.join(dir, 'access.db');
    const store = openSqliteStore({ path: file, accessFlushMs: 10 });
    const db = (store as unknown as { db: Database.Database }).db;
    await store.bindEmbedder({ id: 'e@2', dimensions: 2 });
    await store.insertMemory(memory('m1', 'The user likes tea / 用户喜欢茶'), new Float32Array([1, 0]), user);
    const seen: number[] = [];
    const pragma = db.pragma.bind(db);
    // Which sync level each write transaction of the access flush commits under.
    db.pragma = ((source: string, options?: Database.PragmaOptions) => {
      if (/^synchronous = /.test(source)) seen.push(source.endsWith('NORMAL') ? 1 : 2);
      return pragma(source, options);
    }) as typeof db.pragma;
    await store.recordAccess('u', ['m1'], new Date('2026-02-01T00:00:00Z'));
    const other = new Database(file, { readonly: true });
    await vi.waitFor(() => expect(other.prepare("SELECT access_count FROM memories WHERE id = 'm1'").pluck().get()).toBe(1));
    other.close();
    expect(seen).toEqual([1, 2]);
    expect(pragma('synchronous', { simple: true })).toBe(2);
    await store.updateMemory('u', 'm1', { importance: 0.8 }, undefined, user);
    expect(pragma('synchronous', { simple: true })).toBe(2);
    await store.close();
  });

  it('backup() makes a consistent copy while the engine stays open and in use', async () => {
    const engine = createMemory({ store: openSqliteStore({ path: path.join(dir, 'live.db') }), embedder: createHashEmbedder({ dimensions: 32 }) });
    await engine.add({ userId: 'u', kind: 'preference', content: '用户喜欢猫' });
    await engine.add({ userId: 'u', kind: 'preference', content: 'The user loves hiking' });
    const target = path.join(dir, 'copy.db');
    const [result] = await Promise.all([engine.backup({ path: target }), engine.add({ userId: 'u', kind: 'fact', content: 'The user lives in Berlin / 用户住在柏林' })]);
    expect(result.pages).toBeGreaterThan(0);
    await engine.close();

    const copy = new Database(target, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    const contents = (copy.prepare('SELECT content FROM memories ORDER BY content').all() as Array<{ content: string }>).map((r) => r.content);
    expect(contents.slice(0, 2).sort()).toEqual(['The user loves hiking', '用户喜欢猫'].sort());
    copy.close();
    const reopened = createMemory({ store: openSqliteStore({ path: target }), embedder: createHashEmbedder({ dimensions: 32 }) });
    expect((await reopened.recall({ userId: 'u', query: '猫' }))[0]!.memory.content).toBe('用户喜欢猫');
    await reopened.close();
  });

  it('backup() into a missing folder is INVALID_INPUT and writes nothing', async () => {
    const engine = createMemory({ store: openSqliteStore({ path: ':memory:' }), embedder: createHashEmbedder({ dimensions: 32 }) });
    await expect(engine.backup({ path: path.join(dir, 'nope', 'copy.db') })).rejects.toSatisfy((e) => EngramError.hasCode(e, 'INVALID_INPUT'));
    await expect(engine.backup({ path: '  ' })).rejects.toSatisfy((e) => EngramError.hasCode(e, 'INVALID_INPUT'));
    await engine.close();
  });
});
