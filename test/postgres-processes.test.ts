import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../src/embedders/hash-embedder.js';
import { createMemory } from '../src/memory.js';
import { openPostgresStore } from '../src/store/postgres/postgres-store.js';
import { testDatabaseUrl } from '../src/store/postgres/test-postgres.js';
import { fixedClock } from '../src/testing/clock.js';

const url = testDatabaseUrl();
const child = join(import.meta.dirname, 'fixtures', 'pg-worker-child.ts');
let server: Server;
let hook: string;
const received: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['x-engram-delivery']));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function runChild(schema: string, crashAt?: string): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', child, url!, schema, hook], { env: { ...process.env, ...(crashAt ? { CRASH_AT: crashAt } : {}) } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    p.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The seed both workers find: one memory to update, a three-message session, twenty due reminders. */
async function seed(schema: string): Promise<void> {
  const memory = createMemory({ store: openPostgresStore({ url: url!, schema }), embedder: createHashEmbedder({ dimensions: 64 }), clock: fixedClock('2026-03-02T10:00:00Z') });
  await memory.add({ userId: 'u', kind: 'identity', content: '用户是程序员' });
  await memory.appendMessages({
    messages: [
      { id: 'msg-1', userId: 'u', sessionId: 's', role: 'user', content: '我叫李明', createdAt: '2026-03-02T09:00:00Z' },
      { id: 'msg-2', userId: 'u', sessionId: 's', role: 'assistant', content: '你好李明', createdAt: '2026-03-02T09:00:01Z' },
      { id: 'msg-3', userId: 'u', sessionId: 's', role: 'user', content: 'I love cats, and I use FastAPI at work', createdAt: '2026-03-02T09:00:02Z' },
    ],
  });
  for (let i = 0; i < 20; i++) {
    await memory.deps.store.insertTodo({
      id: `todo-${i}`, userId: 'u', content: `提醒 ${i} / reminder ${i}`, remindAt: new Date('2026-03-02T09:00:00Z'),
      completed: false, reminded: false, createdAt: new Date('2026-03-01T00:00:00Z'), deliveryAttempts: 0,
    });
  }
  await memory.close();
}

describe.skipIf(!url)('several processes on one PostgreSQL database (issue 13 item 3)', () => {
  it('one worker killed mid-extraction: every operation applied exactly once, every reminder delivered once', async () => {
    const schema = `procs_${randomBytes(5).toString('hex')}`;
    await seed(schema);
    // Two processes at once: both deliver reminders (contending for the same twenty), then both
    // extract the same session; the first one dies while applying the batch.
    const [a, b] = await Promise.all([runChild(schema, 'applying'), runChild(schema)]);
    expect(b.code, b.stderr).toBe(0);
    expect(a.signal === 'SIGKILL' || a.code === 0, a.stderr).toBe(true);
    // Two more take over whatever is left (the dead worker's lease is taken over at once).
    const [c, d] = await Promise.all([runChild(schema), runChild(schema)]);
    expect(c.code, c.stderr).toBe(0);
    expect(d.code, d.stderr).toBe(0);

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const q = async (sql: string) => (await db.query(`SET search_path TO "${schema}"; ${sql}`) as unknown as Array<pg.QueryResult>)[1]!.rows;
      const count = async (sql: string) => Number((await q(sql))[0]!.n);
      expect(await count('SELECT count(*) AS n FROM messages')).toBe(3);
      const active = (await q("SELECT content FROM memories WHERE user_id = 'u' AND status = 'active' ORDER BY content")).map((r) => r.content as string);
      expect(active).toEqual(['The user loves cats', '用户叫李明', '用户是后端工程师，使用 FastAPI'].sort());
      expect((await q("SELECT content FROM memories WHERE status = 'archived'")).map((r) => r.content)).toEqual(['用户是程序员']);
      expect(await count("SELECT count(*) AS n FROM memory_history WHERE action = 'create'")).toBe(3);
      expect(await count("SELECT count(*) AS n FROM extraction_runs WHERE outcome = 'applied'")).toBe(1);
      expect(await count("SELECT processed_seq AS n FROM sessions WHERE id = 's'")).toBe(2);
      expect(await count('SELECT count(*) AS n FROM reminder_deliveries')).toBe(20);
      expect(await count('SELECT count(*) AS n FROM todos WHERE reminded = 1')).toBe(20);
    } finally {
      await db.end();
    }
    // Claimed with SKIP LOCKED, each reminder reached the receiver once, not merely once after dedup.
    expect(received.filter((id) => id.startsWith('todo-')).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `todo-${i}@${Date.parse('2026-03-02T09:00:00Z')}`).sort());
  }, 240_000);
});
