import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../src/notify/webhook-notifier.js';
import { callbackNotifier } from '../src/notify/notifier.js';
import { testMemory } from '../src/testing/test-memory.js';

const child = join(import.meta.dirname, 'fixtures', 'reminder-child.ts');
let server: Server;
let url: string;
const received: Array<{ delivery: string; body: string; verified: boolean }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ delivery: String(req.headers['x-engram-delivery']), body, verified: verifyWebhookSignature(body, String(req.headers['x-engram-signature']), 'shh') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function runChild(path: string, crashAt?: string): Promise<{ code: number | null; signal: string | null; stdout: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', child, path, url], { env: { ...process.env, ...(crashAt ? { CRASH_AT: crashAt } : {}) } });
    let stdout = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    p.on('exit', (code, signal) => resolve({ code, signal, stdout }));
  });
}

describe('reminders (seed 000 §5)', () => {
  it('are delivered exactly once across a crash between the POST and the record', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'engram-remind-')), 'r.db');
    expect((await runChild(path, 'notified')).signal).toBe('SIGKILL');
    const restarted = await runChild(path);
    expect(restarted.code).toBe(0);
    expect(JSON.parse(restarted.stdout)).toMatchObject({ delivered: ['todo-1'] });
    const third = await runChild(path);
    expect(JSON.parse(third.stdout)).toMatchObject({ delivered: [] });
    // The receiver saw the same delivery id twice (the crash) and drops the duplicate: one reminder.
    expect(received.every((r) => r.verified)).toBe(true);
    expect(new Set(received.map((r) => r.delivery))).toEqual(new Set(['todo-1@1772517600000']));
    expect(JSON.parse(received[0]!.body)).toMatchObject({ todoId: 'todo-1', content: '下午三点开会 / meeting at 3pm' });
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM reminder_deliveries').get()).toEqual({ n: 1 });
    expect(db.prepare("SELECT reminded FROM todos WHERE id = 'todo-1'").get()).toEqual({ reminded: 1 });
    db.close();
  });

  it('a failed delivery is retried with backoff, and a completed todo is never reminded', async () => {
    let fail = true;
    const got: string[] = [];
    const memory = testMemory({ notifier: callbackNotifier((r) => { if (fail) throw new Error('phone offline'); got.push(r.content); }) });
    memory.clock.set('2026-03-03T06:00:00Z');
    const base = { userId: 'u', completed: false, reminded: false, createdAt: new Date('2026-03-01T00:00:00Z'), deliveryAttempts: 0, remindAt: new Date('2026-03-03T05:00:00Z') };
    await memory.deps.store.insertTodo({ ...base, id: 't1', content: 'Call mom' });
    await memory.deps.store.insertTodo({ ...base, id: 't2', content: '交报告' });
    await memory.completeTodo('u', 't2');
    expect(await memory.deliverReminders()).toMatchObject({ delivered: [], failed: [{ todoId: 't1' }] });
    expect((await memory.listTodos({ userId: 'u' })).find((t) => t.id === 't1')).toMatchObject({ deliveryAttempts: 1, lastDeliveryError: expect.stringContaining('phone offline') });
    fail = false;
    expect(await memory.deliverReminders()).toMatchObject({ delivered: [] });
    memory.clock.advance(2 * 60_000);
    expect(await memory.deliverReminders()).toMatchObject({ delivered: ['t1'] });
    expect(await memory.deliverReminders()).toMatchObject({ delivered: [] });
    expect(got).toEqual(['Call mom']);
    await memory.close();
  });
});
