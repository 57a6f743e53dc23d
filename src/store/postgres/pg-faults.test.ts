import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../deps.js';
import type { EngramEvent } from '../../events.js';
import { startPgEventRelay } from '../../server/pg-event-relay.js';
import type { Store } from '../store.js';
import { memoryFixture } from '../contract/fixtures.js';
import { PG_SCHEMA_VERSION } from './pg-schema.js';
import { openPostgresStore, postgresHandleOf } from './postgres-store.js';
import { testDatabaseUrl } from './test-postgres.js';

const url = testDatabaseUrl();
const opened: Store[] = [];
const open = (schema: string): Store => {
  const s = openPostgresStore({ url: url!, schema, maxConnections: 4 });
  opened.push(s);
  return s;
};
const fresh = () => `f_${randomBytes(5).toString('hex')}`;
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

describe.skipIf(!url)('PostgreSQL store: several processes and faults (ENGRAM_TEST_DATABASE_URL)', () => {
  it('migrates once when several stores open a fresh schema together, and again is a no-op', async () => {
    const schema = fresh();
    const stores = [open(schema), open(schema), open(schema)];
    await Promise.all(stores.map((s) => s.userIds()));
    await open(schema).userIds();
    const { pool } = postgresHandleOf(stores[0]!)!;
    const { rows } = await pool.query<{ version: number }>(`SELECT version FROM "${schema}".engram_migrations ORDER BY version`);
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => i + 1));
  });

  it('gives a session lease to exactly one of two stores asking at once, and fences the loser', async () => {
    const schema = fresh();
    const [a, b] = [open(schema), open(schema)];
    await a.appendMessages('u', 's', [{ id: 'm1', role: 'user', content: '我叫李明 / my name is Li Ming', createdAt: new Date(0), vector: null }]);
    const now = new Date(1_000);
    const until = new Date(60_000);
    const tokens = await Promise.all([a.acquireSessionLease('u', 's', 'wa', now, until), b.acquireSessionLease('u', 's', 'wb', now, until)]);
    expect(tokens.filter((t) => t !== null)).toHaveLength(1);
    const winner = tokens[0] !== null ? 'wa' : 'wb';
    const token = tokens.find((t) => t !== null)!;
    expect(await b.holdsSessionLease('u', 's', winner, token)).toBe(true);
    // Expired: the other takes over with a new token, and the first one's token no longer holds.
    const later = await a.acquireSessionLease('u', 's', winner === 'wa' ? 'wb' : 'wa', new Date(61_000), new Date(120_000));
    expect(later).toBe(token + 1);
    expect(await a.holdsSessionLease('u', 's', winner, token)).toBe(false);
  });

  it('rolls a transaction back when its function throws, and when its connection is killed mid-way', async () => {
    const store = open(fresh());
    await store.userIds();
    await expect(
      store.transaction(async (tx) => {
        await tx.insertMemory(memoryFixture({ id: 'a', userId: 'u', content: '用户喜欢猫' }), null, { actor: 'user' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const { pool } = postgresHandleOf(store)!;
    const failure = await store
      .transaction(async (tx) => {
        await tx.insertMemory(memoryFixture({ id: 'b', userId: 'u', content: 'The user likes dogs' }), null, { actor: 'user' });
        const [{ pid }] = (await pool.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE state = 'idle in transaction' AND datname = current_database() ORDER BY xact_start DESC LIMIT 1")).rows as [{ pid: number }];
        await pool.query('SELECT pg_terminate_backend($1)', [pid]);
        await tx.insertMemory(memoryFixture({ id: 'c', userId: 'u', content: '用户养了一只狗' }), null, { actor: 'user' });
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toMatchObject({ code: 'STORE_BUSY' });
    expect(await store.listMemories({ userId: 'u' })).toEqual([]);
    expect(await store.historyOfUser('u')).toEqual([]);
    // The pool recovers: the next call gets a new connection.
    await store.insertMemory(memoryFixture({ id: 'd', userId: 'u', content: '用户喜欢猫 and cats' }), null, { actor: 'user' });
    expect((await store.listMemories({ userId: 'u' })).map((m) => m.id)).toEqual(['d']);
  });

  it('claims due reminders for one caller at a time: two stores asking together get disjoint sets', async () => {
    const schema = fresh();
    const [a, b] = [open(schema), open(schema)];
    for (let i = 0; i < 30; i++) {
      await a.insertTodo({ id: `t${i}`, userId: 'u', content: i % 2 ? `Call mom ${i}` : `给妈妈打电话 ${i}`, remindAt: new Date(1_000), completed: false, reminded: false, createdAt: new Date(0), deliveryAttempts: 0 });
    }
    const now = new Date(2_000);
    const [x, y] = await Promise.all([a.dueReminders(now, 100), b.dueReminders(now, 100)]);
    const ids = [...x, ...y].map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(30);
    // Claimed: not due again while the claim runs, due again once it expired undelivered.
    expect(await a.dueReminders(now, 100)).toEqual([]);
    expect(await a.recordDelivery('u', 't0', 't0@1000', now)).toBe(true);
    expect(await b.recordDelivery('u', 't0', 't0@1000', now)).toBe(false);
    const afterClaim = await b.dueReminders(new Date(2_000 + 6 * 60_000), 100);
    expect(afterClaim.map((t) => t.id)).not.toContain('t0');
    expect(afterClaim).toHaveLength(29);
  });

  it('relays events between processes through LISTEN/NOTIFY, with dates intact (Chinese and English)', async () => {
    const schema = fresh();
    const [a, b] = [open(schema), open(schema)];
    const seenA: EngramEvent[] = [];
    const seenB: EngramEvent[] = [];
    const relayA = await startPgEventRelay(postgresHandleOf(a)!, { emit: (e) => seenA.push(e) }, silentLogger);
    const relayB = await startPgEventRelay(postgresHandleOf(b)!, { emit: (e) => seenB.push(e) }, silentLogger);
    try {
      const at = new Date('2026-03-02T10:00:00Z');
      relayA.emit({ type: 'todo.due', userId: 'u', todoId: 't1', content: '交报告 / hand in the report', remindAt: at, deliveryId: 't1@1', at });
      relayA.emit({ type: 'memory.changed', userId: '李明', at });
      await expect.poll(() => seenB.length, { timeout: 10_000 }).toBe(2);
      expect(seenB[0]).toMatchObject({ type: 'todo.due', content: '交报告 / hand in the report', remindAt: at, at });
      expect(seenB[1]).toMatchObject({ type: 'memory.changed', userId: '李明', at });
      // A process's own events reach its own stream once, not a second time through NOTIFY.
      expect(seenA).toHaveLength(2);
    } finally {
      await relayA.stop();
      await relayB.stop();
    }
  });
});

