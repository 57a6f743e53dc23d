import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../src/embedders/hash-embedder.js';
import { createMemory, type MemoryEngine } from '../../src/memory.js';
import { callbackNotifier } from '../../src/notify/notifier.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { fixedClock } from '../../src/testing/clock.js';
import { compileFixture, count, go, indexAgreement, inspect, spawnChild, tempDir } from './harness.js';

const ROUNDS = Number(process.env.ENGRAM_KILL_ROUNDS ?? 2);
const SEED = Number(process.env.ENGRAM_RELIABILITY_SEED ?? 20261124);
let state = SEED;
const random = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const lines = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean) : []);
let kills = 0;

interface Files {
  file: string;
  ack: string;
  sent: string;
}

/** Starts the worker, lets it complete a random number of steps, then kills it at a random moment. */
async function killAtRandom(mode: string, f: Files): Promise<void> {
  const child = await compileFixture('kill-child.ts');
  const goFile = `${f.file}.go-${kills}`;
  const before = lines(f.ack).length;
  const c = spawnChild(child, [f.file, goFile, mode, f.ack, f.sent]);
  await c.ready;
  go(goFile);
  const steps = 1 + Math.floor(random() * 3);
  let exited = false;
  void c.done.then(() => (exited = true));
  while (!exited && lines(f.ack).length < before + steps) await sleep(5);
  await sleep(Math.floor(random() * 150));
  c.kill();
  const result = await c.done;
  kills++;
  expect(result.signal, `${mode} worker ended on its own: ${result.stderr}`).toBe('SIGKILL');
}

const reopen = (f: Files, dimensions = 32): MemoryEngine =>
  createMemory({
    store: openSqliteStore({ path: f.file }),
    embedder: createHashEmbedder({ dimensions }),
    clock: fixedClock('2026-03-01T00:00:00Z'),
    workerId: 'kill-worker', // the same worker restarted reclaims its own lease at once
    notifier: callbackNotifier((r) => appendFileSync(f.sent, `${r.deliveryId}\n`)),
  });

function agree(db: Database.Database): void {
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  const a = indexAgreement(db);
  expect([a.memoryFts, a.memoryVec]).toEqual([a.memories, a.memories]);
  expect([a.messageFts, a.messageVec]).toEqual([a.messages, a.messages]);
}

/** After each kill: restart (a new connection, finishing interrupted work where a caller would), then check. */
const checks: Record<string, (f: Files, round: number) => Promise<void>> = {
  add: async (f, round) => {
    const db = inspect(f.file);
    agree(db);
    const m = count(db, 'SELECT count(*) AS n FROM memories');
    const acked = lines(f.ack).length;
    expect(m).toBeGreaterThanOrEqual(acked);
    expect(m).toBeLessThanOrEqual(acked + round + 1); // at most the one in flight per kill
    expect(count(db, "SELECT count(*) AS n FROM memory_history WHERE action = 'create'")).toBe(m);
    db.close();
  },
  append: async (f) => {
    const db = inspect(f.file);
    agree(db);
    const groups = db.prepare("SELECT substr(id, 1, instr(id, '-') - 1) AS k, count(*) AS n FROM messages GROUP BY k").all() as Array<{ k: string; n: number }>;
    for (const g of groups) expect(g.n, `append ${g.k}`).toBe(3);
    for (const k of lines(f.ack)) expect(groups.some((g) => g.k === k), `acknowledged append ${k}`).toBe(true);
    db.close();
  },
  import: async (f) => {
    const db = inspect(f.file);
    agree(db);
    const users = db.prepare("SELECT user_id AS u, count(*) AS n FROM memories WHERE user_id LIKE 'imp-%' GROUP BY user_id").all() as Array<{ u: string; n: number }>;
    for (const u of users) expect(u.n, u.u).toBe(5);
    for (const line of lines(f.ack)) expect(users.some((u) => `user ${u.u}` === line), line).toBe(true);
    expect(count(db, "SELECT count(*) AS n FROM memory_history WHERE user_id LIKE 'imp-%'")).toBe(users.length * 5);
    db.close();
  },
  reindex: async (f) => {
    const db = inspect(f.file);
    const dims = Number((db.prepare("SELECT value FROM engram_meta WHERE key = 'embedder_dimensions'").get() as { value: string }).value);
    db.close();
    const engine = reopen(f, dims);
    const status = await engine.reindexStatus();
    if (!status.complete) expect((await engine.reindex()).status.complete).toBe(true);
    expect((await engine.reindexStatus()).total.memories).toBe(40);
    await engine.close();
    const after = inspect(f.file);
    agree(after);
    after.close();
  },
  extract: async (f) => {
    const engine = reopen(f);
    for (let i = 0; i < 10 && (await engine.extract('u', 's')).status !== 'nothing'; i++);
    await engine.close();
    const db = inspect(f.file);
    agree(db);
    const ids = (db.prepare("SELECT id FROM messages WHERE user_id = 'u'").all() as Array<{ id: string }>).map((r) => Number(r.id.slice(1)));
    for (const k of ids) {
      // "喜欢" before the number keeps m0 from matching m10's "喜欢10号公交车".
      const n = count(db, "SELECT count(*) AS n FROM memories WHERE content LIKE ? OR content LIKE ?", `%喜欢${k}号公交车%`, `%number ${k} bus%`);
      expect(n, `memories from message m${k}`).toBe(1);
    }
    expect(count(db, "SELECT processed_seq AS n FROM sessions WHERE id = 's'")).toBe(ids.length - 1);
    const runs = db.prepare("SELECT from_seq, through_seq FROM extraction_runs WHERE outcome != 'failed' ORDER BY from_seq").all() as Array<{ from_seq: number; through_seq: number }>;
    for (let i = 1; i < runs.length; i++) expect(runs[i]!.from_seq).toBeGreaterThan(runs[i - 1]!.through_seq);
    db.close();
  },
  lifecycle: async (f) => {
    const db = inspect(f.file);
    agree(db);
    const memories = db.prepare('SELECT id, importance, status FROM memories').all() as Array<{ id: string; importance: number; status: string }>;
    for (const m of memories) {
      const events = db.prepare('SELECT after FROM memory_history WHERE memory_id = ? ORDER BY seq DESC').all(m.id) as Array<{ after: string | null }>;
      const last = events.map((e) => (e.after ? (JSON.parse(e.after) as { importance?: number; status?: string }) : {})).find((a) => a.importance !== undefined);
      if (last) expect(last.importance, `memory ${m.id}: row and history agree`).toBeCloseTo(m.importance, 9);
    }
    db.close();
  },
  remind: async (f) => {
    const engine = reopen(f);
    await engine.deliverReminders();
    await engine.close();
    const db = inspect(f.file);
    agree(db);
    const todos = count(db, 'SELECT count(*) AS n FROM todos');
    expect(count(db, 'SELECT count(*) AS n FROM todos WHERE reminded = 1')).toBe(todos);
    expect(count(db, 'SELECT count(DISTINCT todo_id) AS n FROM reminder_deliveries')).toBe(todos);
    expect(count(db, 'SELECT count(*) AS n FROM reminder_deliveries')).toBe(todos);
    db.close();
    const sent = lines(f.sent);
    const perId = new Map<string, number>();
    for (const id of sent) perId.set(id, (perId.get(id) ?? 0) + 1);
    expect(perId.size).toBe(todos); // every reminder reached the receiver…
    expect(Math.max(...perId.values())).toBeLessThanOrEqual(2); // …at most re-sent once after a kill, with the same idempotency key
  },
};

describe('kill -9 at random points, then restart', () => {
  for (const mode of Object.keys(checks)) {
    it(`${mode}: all-or-nothing and exactly once across ${ROUNDS} kills`, async () => {
      const dir = tempDir(`kill-${mode}`);
      const f = { file: path.join(dir, 'k.db'), ack: path.join(dir, 'ack'), sent: path.join(dir, 'sent') };
      for (let round = 0; round < ROUNDS; round++) {
        await killAtRandom(mode, f);
        await checks[mode]!(f, round);
      }
      console.log(`kill-points: mode=${mode} seed=${SEED} kills=${ROUNDS} acknowledged=${lines(f.ack).length} totalKills=${kills}`);
    });
  }
});
