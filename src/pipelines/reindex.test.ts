import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngramError } from '../errors.js';
import { createHashEmbedder } from '../embedders/hash-embedder.js';
import type { Embedder } from '../embedders/embedder.js';
import { createMemory } from '../memory.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { ReindexProgress } from './reindex.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'engram-reindex-'));
  file = path.join(dir, 'e.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const engine = (embedder: Embedder = createHashEmbedder({ dimensions: 32 })) => createMemory({ store: openSqliteStore({ path: file }), embedder });
/** Same dimensions as hash@32 but another model: its vectors must never enter hash@32's index (or the reverse). */
function renamed(base: Embedder, id: string, failAfterCalls = Infinity): Embedder {
  let calls = 0;
  return {
    id,
    dimensions: base.dimensions,
    embed: async (texts) => {
      if (++calls > failAfterCalls) throw new EngramError('EMBEDDING_FAILED', 'embedder went away');
      return base.embed(texts);
    },
  };
}
const raw = () => {
  const db = new Database(file, { readonly: true });
  sqliteVec.load(db);
  return db;
};
const count = (sql: string) => {
  const db = raw();
  const n = (db.prepare(sql).get() as { n: number }).n;
  db.close();
  return n;
};

describe('late embedder binding', () => {
  it('a process that opened the file before anyone bound it searches and embeds once another process binds it', async () => {
    const early = engine();
    const status = await early.reindexStatus();
    expect(status.embedder).toBeNull();
    const late = engine();
    await late.add({ userId: 'u', kind: 'preference', content: '用户喜欢猫' });
    await late.add({ userId: 'u', kind: 'preference', content: 'The user loves hiking' });
    await early.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: 'I adopted a cat named Mimi / 我领养了一只猫' }] });
    expect((await early.recall({ userId: 'u', query: '猫' }))[0]!.memory.content).toBe('用户喜欢猫');
    expect((await early.searchMessages({ userId: 'u', query: 'cat Mimi' })).length).toBe(1);
    // The message was embedded and marked so, with its vector present.
    expect(count('SELECT count(*) AS n FROM messages WHERE embedder_id IS NULL')).toBe(0);
    expect(count('SELECT count(*) AS n FROM message_vec')).toBe(1);
    expect((await early.reindexStatus()).complete).toBe(true);
    await early.close();
    await late.close();
  });

  it('never marks a row embedded without its vector, and reindex repairs rows that were', async () => {
    const e = engine();
    await e.add({ userId: 'u', kind: 'fact', content: 'The user lives in Berlin' });
    await e.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: '我住在柏林' }] });
    // What older versions left behind: rows marked embedded whose vector is missing.
    const db = new Database(file);
    sqliteVec.load(db);
    db.exec('DELETE FROM memory_vec; DELETE FROM message_vec;');
    db.close();
    expect(await e.reindexStatus()).toMatchObject({ complete: false, pending: { memories: 1, messages: 1 } });
    const result = await e.reindex();
    expect(result.reembedded).toBe(2);
    expect(result.status.complete).toBe(true);
    expect(count('SELECT count(*) AS n FROM memory_vec')).toBe(1);
    expect((await e.recall({ userId: 'u', query: 'Berlin' }))[0]!.memory.content).toBe('The user lives in Berlin');
    await e.close();
  });
});

describe('reindex', () => {
  it('reports progress, says when it is incomplete after an interruption, and resumes', async () => {
    const first = engine();
    for (const content of ['用户喜欢猫', 'The user loves hiking', '用户住在上海', 'The user drinks green tea', '用户是后端工程师']) await first.add({ userId: 'u', kind: 'fact', content });
    await first.close();

    const base = createHashEmbedder({ dimensions: 32 });
    const flaky = engine(renamed(base, 'other@32', 1));
    const progress: ReindexProgress[] = [];
    await expect(flaky.reindex({ batchSize: 2, onProgress: (p) => progress.push(p) })).rejects.toSatisfy((e) => EngramError.hasCode(e, 'EMBEDDING_FAILED'));
    expect(progress.map((p) => [p.reembedded, p.pending])).toEqual([[2, 3]]);
    const status = await flaky.reindexStatus();
    expect(status).toMatchObject({ embedder: { id: 'other@32' }, complete: false, pending: { memories: 3 }, total: { memories: 5 } });
    await flaky.close();

    const resumed = engine(renamed(base, 'other@32'));
    const result = await resumed.reindex({ batchSize: 2 });
    expect(result.reembedded).toBe(3);
    expect(result.status.complete).toBe(true);
    expect((await resumed.recall({ userId: 'u', query: '猫' }))[0]!.memory.content).toBe('用户喜欢猫');
    await resumed.close();
  });

  it('fences writers still running the old embedder: memories refused with EMBEDDER_MISMATCH, messages kept and re-embedded', async () => {
    const base = createHashEmbedder({ dimensions: 32 });
    const old = engine(base);
    await old.add({ userId: 'u', kind: 'preference', content: 'The user loves cats' });
    const fresh = engine(renamed(base, 'other@32'));
    await fresh.reindex();

    // Same dimensions: without the fence these vectors would silently enter other@32's index.
    await expect(old.add({ userId: 'u', kind: 'preference', content: '用户喜欢狗' })).rejects.toSatisfy((e) => EngramError.hasCode(e, 'EMBEDDER_MISMATCH'));
    expect(count("SELECT count(*) AS n FROM memories WHERE content = '用户喜欢狗'")).toBe(0);
    const appended = await old.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: 'My dog is called Wangcai / 我的狗叫旺财' }] });
    expect(appended.appended).toHaveLength(1);
    expect(await fresh.reindexStatus()).toMatchObject({ complete: false, pending: { messages: 1 } });
    expect((await fresh.reindex()).reembedded).toBe(1);
    expect((await fresh.searchMessages({ userId: 'u', query: 'Wangcai' })).length).toBe(1);

    // Other dimensions: a typed refusal, never sqlite-vec's raw "Dimension mismatch".
    const wide = engine(createHashEmbedder({ dimensions: 64 }));
    await wide.reindex();
    const error = await fresh.add({ userId: 'u', kind: 'fact', content: 'x' }).catch((e: unknown) => e);
    expect(EngramError.hasCode(error, 'EMBEDDER_MISMATCH'), String(error)).toBe(true);
    await expect(fresh.recall({ userId: 'u', query: 'cats' })).rejects.toSatisfy((e) => EngramError.hasCode(e, 'EMBEDDER_MISMATCH'));
    expect((await fresh.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: '还在吗' }] })).appended).toHaveLength(1);
    for (const e of [old, fresh, wide]) await e.close();
  });
});
