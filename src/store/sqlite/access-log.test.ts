import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHashEmbedder } from '../../embedders/hash-embedder.js';
import { createMemory } from '../../memory.js';
import { fixedClock } from '../../testing/index.js';
import { createActivity } from '../../util/activity.js';
import { AccessLog } from './access-log.js';
import { openSqliteStore } from './sqlite-store.js';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'engram-access-'));
  dirs.push(dir);
  return join(dir, 'a.db');
}

const embedder = createHashEmbedder({ dimensions: 256 });
const CASES = [
  ['Chinese', '用户喜欢猫，养了一只叫小白的猫', '推荐一些猫粮'],
  ['English', 'The user loves cats and has a cat named Snow', 'What food should I buy for my cat?'],
] as const;

describe.each(CASES)('recall records accesses in batches, %s', (_language, content, query) => {
  it('this process sees them at once, another after the delayed write, and close() loses none', async () => {
    const path = tempPath();
    const clock = fixedClock('2026-05-01T00:00:00Z');
    // A delay far beyond the test: only close() can write these.
    const engine = createMemory({ store: openSqliteStore({ path, accessFlushMs: 60_000 }), embedder, clock });
    const other = openSqliteStore({ path });
    const m = await engine.add({ userId: 'u', kind: 'preference', content });
    expect((await engine.recall({ userId: 'u', query })).map((r) => r.memory.id)).toEqual([m.id]);
    clock.advance(60_000);
    const [again] = await engine.recall({ userId: 'u', query });
    expect(again!.memory).toMatchObject({ accessCount: 2, lastAccessedAt: clock.now() });
    expect(await engine.get('u', m.id)).toMatchObject({ accessCount: 2, lastAccessedAt: clock.now() });
    expect((await engine.list({ userId: 'u' }))[0]).toMatchObject({ accessCount: 2 });
    expect((await other.getMemory('u', m.id))!.accessCount).toBe(0);

    // An edit before the write neither loses nor doubles them.
    const edited = await engine.update('u', m.id, { importance: 0.9 });
    expect(edited.accessCount).toBe(2);
    await engine.close();
    expect(await other.getMemory('u', m.id)).toMatchObject({ accessCount: 2, importance: 0.9, lastAccessedAt: clock.now() });
    await other.close();
  });

  it('writes them after accessFlushMs without a close', async () => {
    const path = tempPath();
    const engine = createMemory({ store: openSqliteStore({ path, accessFlushMs: 20 }), embedder });
    const other = openSqliteStore({ path });
    const m = await engine.add({ userId: 'u', kind: 'preference', content });
    await engine.recall({ userId: 'u', query });
    await vi.waitFor(async () => expect((await other.getMemory('u', m.id))!.accessCount).toBe(1), { timeout: 5_000, interval: 20 });
    await engine.close();
    await other.close();
  });

  it("writes a busy second's accesses a hundred to a transaction, turning the event loop in between", async () => {
    const path = tempPath();
    const store = openSqliteStore({ path, accessFlushMs: 20 });
    const engine = createMemory({ store, embedder });
    const other = openSqliteStore({ path });
    const ids: string[] = [];
    for (let i = 0; i < 250; i++) ids.push((await engine.add({ userId: 'u', kind: 'fact', content: `${content} #${i}` })).id);
    const tables = (store as unknown as { shared: { memories: { flushAccesses(limit?: number): number } } }).shared.memories;
    const chunks: Array<[number | undefined, number]> = [];
    const flush = tables.flushAccesses.bind(tables);
    tables.flushAccesses = (limit) => {
      const left = flush(limit);
      chunks.push([limit, left]);
      return left;
    };
    await store.recordAccess('u', ids, new Date('2026-11-26T09:00:00Z'));
    await vi.waitFor(() => expect(chunks.at(-1)?.[1]).toBe(0), { timeout: 5_000, interval: 10 });
    expect(chunks).toEqual([[100, 150], [100, 50], [100, 0]]);
    expect((await other.listMemories({ userId: 'u' })).map((m) => m.accessCount)).toEqual(ids.map(() => 1));
    await engine.close();
    await other.close();
  });

  it('writes them in moments without requests in flight when it shares the server\'s activity, or after accessFlushMs more at most', async () => {
    const path = tempPath();
    const activity = createActivity();
    const store = openSqliteStore({ path, accessFlushMs: 20, activity });
    const engine = createMemory({ store, embedder });
    const other = openSqliteStore({ path });
    const m = await engine.add({ userId: 'u', kind: 'preference', content });
    const tables = (store as unknown as { shared: { memories: { flushAccesses(limit?: number): number } } }).shared.memories;
    const flushes: string[] = [];
    const flush = tables.flushAccesses.bind(tables);
    tables.flushAccesses = (limit) => (flushes.push(inFlight === 0 ? 'idle' : 'busy'), flush(limit));
    let inFlight = 0;
    const request = (): (() => void) => {
      inFlight++;
      const end = activity.begin();
      return () => (inFlight--, end());
    };

    // A request in flight past the delay: the write waits for it to end.
    const first = request();
    await engine.recall({ userId: 'u', query });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(flushes).toEqual([]);
    first();
    await vi.waitFor(async () => expect((await other.getMemory('u', m.id))!.accessCount).toBe(1), { timeout: 5_000, interval: 5 });
    expect(flushes).toEqual(['idle']);

    // Requests that never stop: written at the deadline anyway.
    const endless = request();
    await engine.recall({ userId: 'u', query });
    await vi.waitFor(async () => expect((await other.getMemory('u', m.id))!.accessCount).toBe(2), { timeout: 5_000, interval: 5 });
    expect(flushes).toEqual(['idle', 'busy']);
    endless();
    await engine.close();
    await other.close();
  });

  it('accessFlushMs 0 writes each recall at once', async () => {
    const path = tempPath();
    const engine = createMemory({ store: openSqliteStore({ path, accessFlushMs: 0 }), embedder });
    const other = openSqliteStore({ path });
    const m = await engine.add({ userId: 'u', kind: 'preference', content });
    await engine.recall({ userId: 'u', query });
    expect((await other.getMemory('u', m.id))!.accessCount).toBe(1);
    await engine.close();
    await other.close();
  });
});

describe.each(CASES)('pending accesses of erased memories, %s', (_language, content, query) => {
  it('are dropped when the user is forgotten, so a re-import does not inherit them', async () => {
    const path = tempPath();
    const engine = createMemory({ store: openSqliteStore({ path, accessFlushMs: 60_000 }), embedder });
    const m = await engine.add({ userId: 'u', kind: 'preference', content });
    await engine.recall({ userId: 'u', query });
    const exported = await engine.exportUser('u');
    expect(exported.memories.find((x) => x.id === m.id)).toMatchObject({ accessCount: 1 });
    await engine.forget({ userId: 'u' });
    await engine.importUser(exported);
    await engine.close();
    const other = openSqliteStore({ path });
    expect((await other.getMemory('u', m.id))!.accessCount).toBe(1);
    await other.close();
  });
});

describe('AccessLog', () => {
  const at = (minute: number): Date => new Date(Date.UTC(2026, 10, 26, 9, minute));
  const memory = (userId: string, id: string) => ({ userId, id, accessCount: 2, lastAccessedAt: undefined as Date | undefined });

  it('flushes at most the limit at a time, each access once, and says how many are left', () => {
    const log = new AccessLog();
    log.add('li', ['猫', 'cat', '狗'], at(1));
    log.add('ann', ['hiking'], at(2));
    const written: string[] = [];
    expect(log.flush((batch) => written.push(...batch.map((a) => `${a.userId}/${a.id}`)), 3)).toBe(1);
    expect(log.overlay(memory('li', '猫')).accessCount).toBe(2);
    expect(log.flush((batch) => written.push(...batch.map((a) => `${a.userId}/${a.id}`)), 3)).toBe(0);
    expect(written.sort()).toEqual(['ann/hiking', 'li/cat', 'li/狗', 'li/猫']);
  });

  it("overlays each user's own pending accesses, drops one memory's or a user's, and flushes the rest once", () => {
    const log = new AccessLog();
    log.add('li', ['猫', 'cat'], at(1));
    log.add('li', ['猫'], at(2));
    log.add('ann', ['猫'], at(3));
    expect(log.size).toBe(3);
    expect(log.overlay(memory('li', '猫'))).toMatchObject({ accessCount: 4, lastAccessedAt: at(2) });
    expect(log.overlay(memory('ann', '猫'))).toMatchObject({ accessCount: 3, lastAccessedAt: at(3) });
    expect(log.overlay(memory('ann', 'cat'))).toMatchObject({ accessCount: 2, lastAccessedAt: undefined });

    log.drop('li', 'cat');
    log.drop('li', 'never recorded');
    expect(log.size).toBe(2);
    expect(log.overlay(memory('li', 'cat')).accessCount).toBe(2);
    log.drop('ann');
    expect(log.size).toBe(1);
    expect(log.overlay(memory('ann', '猫')).accessCount).toBe(2);

    const written: unknown[] = [];
    expect(() => log.flush(() => { throw new Error('disk busy'); })).toThrow('disk busy');
    expect(log.size).toBe(1);
    log.flush((batch) => written.push(...batch));
    expect(written).toEqual([{ userId: 'li', id: '猫', count: 2, at: at(2) }]);
    expect(log.size).toBe(0);
    log.flush(() => written.push('nothing pending: not called'));
    expect(written).toHaveLength(1);
  });
});
