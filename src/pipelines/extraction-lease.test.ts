import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngramError } from '../errors.js';
import { createHashEmbedder } from '../embedders/hash-embedder.js';
import { createMemory, type CreateMemoryOptions, type MemoryEngine } from '../memory.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { fixedClock, type ManualClock } from '../testing/clock.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { defaultWorkerId, isAbandonedWorker } from './worker-id.js';

let dir: string;
let file: string;
let engines: MemoryEngine[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'engram-lease-'));
  file = path.join(dir, 'lease.db');
});
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
  rmSync(dir, { recursive: true, force: true });
});

const LEASE = 60_000;
const make = (clock: ManualClock, o: Partial<CreateMemoryOptions>) => {
  const e = createMemory({ store: openSqliteStore({ path: file }), embedder: createHashEmbedder({ dimensions: 32 }), clock, ...o });
  engines.push(e);
  return e;
};
const batch = {
  operations: [
    { op: 'add', kind: 'preference', content: '用户喜欢猫' },
    { op: 'add', kind: 'todo', content: 'The user must submit the report tomorrow', todo: { content: 'Submit the report', dueText: 'tomorrow' } },
  ],
  reason: 'lease test',
};
const say = (e: MemoryEngine) =>
  e.appendMessages({ messages: [
    { id: 'a', userId: 'u', sessionId: 's', role: 'user', content: '我喜欢猫', createdAt: '2026-03-01T09:00:00Z' },
    { id: 'b', userId: 'u', sessionId: 's', role: 'user', content: 'I have to submit the report tomorrow', createdAt: '2026-03-01T09:00:01Z' },
  ] });
const rows = (sql: string) => {
  const db = new Database(file, { readonly: true });
  const n = (db.prepare(sql).get() as { n: number }).n;
  db.close();
  return n;
};

describe('extraction lease', () => {
  it('is checked at commit: a worker whose model call outlived the lease cannot apply its batch a second time', async () => {
    const clock = fixedClock('2026-03-01T10:00:00Z');
    let b!: MemoryEngine;
    let takeover: unknown;
    const slow = scriptedModel(async () => {
      clock.advance(LEASE * 2); // the call outlives the lease (no renewal ran: the timer is far off)…
      takeover = await b.extract('u', 's'); // …so another worker takes the session over and applies it
      return batch;
    });
    const a = make(clock, { model: slow, workerId: 'A', extraction: { leaseMs: LEASE, renewEveryMs: 2_000_000_000 } });
    b = make(clock, { model: scriptedModel(() => batch), workerId: 'B', extraction: { leaseMs: LEASE } });
    await say(a);
    const late = await a.extract('u', 's');
    expect(takeover).toMatchObject({ status: 'applied', added: 2 });
    expect(late).toMatchObject({ status: 'busy', added: 0, error: { code: 'CONFLICT' } });
    expect(rows("SELECT count(*) AS n FROM memories WHERE content = '用户喜欢猫'")).toBe(1);
    expect(rows('SELECT count(*) AS n FROM todos')).toBe(1);
    const runs = await a.extractionRuns('u', 's');
    expect(runs.map((r) => r.outcome).sort()).toEqual(['applied', 'failed']);
    expect(runs.find((r) => r.outcome === 'failed')!.error).toMatch(/lease lost/);
    // The loser does not count as a failure of the session.
    expect((await a.getSession('u', 's')).failures).toBe(0);
  });

  it('is renewed while the model call runs, so no other worker takes the session meanwhile', async () => {
    const clock = fixedClock('2026-03-01T10:00:00Z');
    let b!: MemoryEngine;
    let meanwhile: unknown;
    const leaseUntil = () => {
      const db = new Database(file, { readonly: true });
      const v = (db.prepare("SELECT lease_until AS v FROM sessions WHERE id = 's'").get() as { v: number }).v;
      db.close();
      return v;
    };
    const slow = scriptedModel(async () => {
      for (let step = 0; step < 3; step++) {
        clock.advance(LEASE * 0.8);
        const wanted = clock.now().getTime() + LEASE;
        // Wait for the renewal timer to extend the lease from the new time (an event, not a duration).
        for (let tries = 0; leaseUntil() < wanted; tries++) {
          if (tries > 500) throw new Error('the lease was never renewed');
          await new Promise((r) => setTimeout(r, 10));
        }
      }
      meanwhile = await b.extract('u', 's'); // 2.4 leases after the start
      return batch;
    });
    const a = make(clock, { model: slow, workerId: 'A', extraction: { leaseMs: LEASE, renewEveryMs: 5 } });
    b = make(clock, { model: scriptedModel(() => batch), workerId: 'B', extraction: { leaseMs: LEASE } });
    await say(a);
    expect(await a.extract('u', 's')).toMatchObject({ status: 'applied', added: 2 });
    expect(meanwhile).toMatchObject({ status: 'busy' });
    expect(rows('SELECT count(*) AS n FROM memories')).toBe(2);
    expect(rows('SELECT count(*) AS n FROM sessions WHERE lease_owner IS NOT NULL')).toBe(0);
  });

  it('extract on a session that does not exist is NOT_FOUND, not "busy" (in Chinese and English ids)', async () => {
    const e = make(fixedClock(), {});
    for (const sessionId of ['no-such-session', '不存在的会话']) {
      await expect(e.extract('u', sessionId)).rejects.toSatisfy((error) => EngramError.hasCode(error, 'NOT_FOUND'));
    }
  });
});

describe('worker id', () => {
  it('defaults to <host>:<pid>, stable within the process', () => {
    expect(defaultWorkerId()).toBe(`${hostname()}:${process.pid}`);
    expect(defaultWorkerId()).toBe(defaultWorkerId());
  });

  it('declares a lease abandoned only for a dead process of this host', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    expect(isAbandonedWorker(`${hostname()}:${gone.stdout}`)).toBe(true);
    expect(isAbandonedWorker(`${hostname()}:${process.pid}`)).toBe(false);
    expect(isAbandonedWorker(`${hostname()}:${process.ppid}`)).toBe(false);
    expect(isAbandonedWorker(`another-host:${gone.stdout}`)).toBe(false);
    expect(isAbandonedWorker('worker-1')).toBe(false);
  });
});
