import { request } from 'node:http';
import { connect } from 'node:net';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../deps.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { startServer, type RunningServer } from './serve.js';
import { testApp } from './test-app.js';

/**
 * What an attacker tried first (a page elsewhere against the open loopback mode, a tenant key
 * against every tenant's defaults, a revoked key's open stream, bodies that crashed a request) and
 * how each is refused now.
 */
const ADMIN = 'admin-secret-0123456789';
const make = closesAfterEach((o: Parameters<typeof testApp>[0] = {}) => testApp(o), (t) => t.memory.close());
let running: RunningServer[] = [];
afterEach(async () => {
  for (const s of running) await s.close();
  running = [];
});
const serve = async (env: Record<string, string> = {}) => {
  const db = join(mkdtempSync(join(tmpdir(), 'engram-guard-')), 'e.db');
  const s = await startServer({ port: 0, host: '127.0.0.1', env: { ENGRAM_DB: db, ENGRAM_EMBEDDER: 'hash', ...env }, logger: silentLogger });
  running.push(s);
  return { ...s, db };
};

/** A raw request (fetch will not set Host). */
function raw(url: string, o: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: o.method ?? 'GET', headers: o.headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

describe('a page elsewhere against a server on this machine', () => {
  it('a Host naming another site (DNS rebinding) is refused on loopback; the server’s own names are answered', async () => {
    const s = await serve();
    const port = new URL(s.url).port;
    for (const host of [`attacker.example:${port}`, 'attacker.example', `127.0.0.1.nip.io:${port}`]) {
      const res = await raw(`${s.url}/v1/users/me/export`, { headers: { host } });
      expect(res.status).toBe(403);
      expect(res.body).toContain('FORBIDDEN');
      // Nor can such a page mint the key that would end the open mode.
      expect((await raw(`${s.url}/v1/keys`, { method: 'POST', headers: { host, 'content-type': 'application/json' }, body: '{"tenantId":"default"}' })).status).toBe(403);
      expect((await raw(`${s.url}/mcp`, { method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' })).status).toBe(403);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) expect((await raw(`${s.url}/v1/users`, { headers: { host } })).status).toBe(200);
  });

  it('a keyless request from another origin’s page is refused (zh, en); the page itself and a key holder are not', async () => {
    const s = await serve();
    const host = new URL(s.url).host;
    for (const content of ['用户喜欢猫', 'The user likes cats']) {
      const body = JSON.stringify({ messages: [{ role: 'user', content }] });
      // text/plain: what a cross-site form or fetch sends without asking first.
      const forged = await raw(`${s.url}/v1/users/me/sessions/s1/messages`, { method: 'POST', headers: { host, origin: 'https://evil.example', 'content-type': 'text/plain' }, body });
      expect(forged.status).toBe(403);
      expect((await raw(`${s.url}/v1/users/me/sessions/s1/messages`, { method: 'POST', headers: { host, origin: 'null', 'content-type': 'application/json' }, body })).status).toBe(403);
      const own = await raw(`${s.url}/v1/users/me/sessions/s1/messages`, { method: 'POST', headers: { host, origin: `http://${host}`, 'content-type': 'application/json' }, body });
      expect(own.status).toBeLessThan(300);
    }
    // Only the page's own two turns were written.
    const window = await raw(`${s.url}/v1/users/me/sessions/s1/window`, { headers: { host } });
    expect((JSON.parse(window.body) as { items: unknown[] }).items).toHaveLength(2);
    // With a key, the key holder's page is theirs to run (CORS decides what it may read).
    const k = await raw(`${s.url}/v1/keys`, { method: 'POST', headers: { host, 'content-type': 'application/json' }, body: '{"tenantId":"default"}' });
    const key = (JSON.parse(k.body) as { key: string }).key;
    expect((await raw(`${s.url}/v1/users`, { headers: { host, origin: 'https://app.example', authorization: `Bearer ${key}` } })).status).toBe(200);
  });

  it('every response forbids framing (the page keeps its key in the browser), and a new database file is the owner’s alone', async () => {
    const s = await serve();
    for (const path of ['/', '/docs', '/v1/users', '/health']) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    expect(statSync(s.db).mode & 0o777).toBe(0o600);
  });
});

describe('one tenant’s key against everyone', () => {
  it('user "*" (every tenant’s defaults) is the admin key’s alone', async () => {
    const { json } = make({ adminKey: ADMIN });
    const k = await json('/v1/keys', { body: { tenantId: 'default' }, key: ADMIN });
    const key = String(k.body.key);
    for (const [method, body] of [['PUT', { retentionDays: 0.5 }], ['GET', undefined]] as const) {
      const res = await json('/v1/users/%2A/settings', { method, key, ...(body ? { body } : {}) });
      expect(res.status).toBe(403);
      expect(res.body.error?.code).toBe('FORBIDDEN');
    }
    expect((await json('/api/settings', { method: 'PUT', key, headers: { 'x-engram-user': '*' }, body: { memory_silent_minutes: 1 } })).status).toBe(403);
    const own = await json('/v1/users/alice/settings', { key });
    expect(own.body).toMatchObject({ retentionDays: 30 });
    expect((await json('/v1/users/%2A/settings', { method: 'PUT', key: ADMIN, body: { silentMinutes: 3 } })).status).toBe(200);
    expect((await json('/v1/users/alice/settings', { key })).body).toMatchObject({ silentMinutes: 3 });
  });

  it('a revoked key’s open event stream ends at the next event, and carries nothing after it', async () => {
    const s = await serve({ ENGRAM_ADMIN_KEY: ADMIN });
    const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
    const made = (await (await fetch(`${s.url}/v1/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ tenantId: 'acme' }) })).json()) as { key: string; record: { id: string } };
    const stream = await fetch(`${s.url}/v1/events`, { headers: { authorization: `Bearer ${made.key}` } });
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('event: ready')) seen += decoder.decode((await reader.read()).value);
    expect((await fetch(`${s.url}/v1/keys/${made.record.id}`, { method: 'DELETE', headers: admin })).status).toBe(200);
    await fetch(`${s.url}/v1/users/bob/memories`, { method: 'POST', headers: { ...admin, 'x-engram-tenant': 'acme' }, body: JSON.stringify({ content: '用户喜欢猫 The user likes cats' }) });
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) seen += decoder.decode(chunk.value);
    expect(seen).toContain('This API key was revoked');
    expect(seen).not.toContain('memory.changed');
    expect(seen).not.toContain('喜欢猫');
  });
});

describe('who a header names', () => {
  it('a key bound to one user naming another in X-Engram-User is refused on the compat routes too (it answered for the bound user)', async () => {
    const { json } = make({ adminKey: ADMIN });
    const bound = String((await json('/v1/keys', { body: { tenantId: 'acme', boundUserId: 'alice' }, key: ADMIN })).body.key);
    expect((await json('/api/v1/memories', { key: bound, headers: { 'x-engram-user': 'bob' } })).status).toBe(403);
    expect((await json('/api/v1/memories', { key: bound, headers: { 'x-engram-user': 'alice' } })).status).toBe(200);
    expect((await json('/api/v1/memories', { key: bound })).status).toBe(200);
  });

  it('a user named in UTF-8 in X-Engram-User is that user, not its bytes read as Latin-1 (zh, en)', async () => {
    const s = await serve();
    const { hostname, port } = new URL(s.url);
    for (const user of ['jürgen', 'josé', '李明']) {
      // The header's bytes exactly as a client sends UTF-8 (Node's own client re-encodes what it is given).
      const body = Buffer.from(JSON.stringify({ content: 'I like cats 我喜欢猫' }), 'utf8');
      const head = Buffer.concat([Buffer.from(`POST /api/topics/t1/messages HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\nX-Engram-User: `), Buffer.from(user, 'utf8'), Buffer.from('\r\n\r\n')]);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => socket.end(Buffer.concat([head, body])));
        let got = '';
        socket.on('data', (d: Buffer) => (got += d.toString()));
        socket.on('end', () => resolve(got));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
    }
    const users = JSON.parse((await raw(`${s.url}/v1/users`)).body) as { items: Array<{ userId: string }> };
    expect(users.items.map((u) => u.userId).sort()).toEqual(['josé', 'jürgen', '李明'].sort());
  });
});

describe('bodies that crashed a request', () => {
  it('JSON nested thousands deep is a 400, not a 500 (any JSON route, the chat doors included)', async () => {
    const { json } = make();
    const deep = `${'['.repeat(7_700)}${']'.repeat(7_700)}`;
    for (const path of ['/v1/users/u/memories', '/v1/chat/completions', '/mcp']) {
      const res = await json(path, { body: deep });
      expect(res.status).toBeLessThan(500);
    }
    const res = await json('/v1/users/u/memories', { body: deep });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toContain('nested more than 100 levels');
    // A chat with tool calls nests a dozen levels: still read.
    expect((await json('/v1/users/u/memories', { body: { content: '用户喜欢猫', structuredData: { a: { b: { c: { d: [[[{ e: 1 }]]] } } } } } })).status).toBe(201);
  });

  it('the streamed chat of the compat API: a long topic id and a missing body are 400s (zh, en)', async () => {
    const { app } = make();
    const long = await app.request(`/api/topics/${'x'.repeat(300)}/messages/stream`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-engram-user': 'u' }, body: JSON.stringify({ content: '你好 hello' }) });
    expect(long.status).toBe(400);
    const empty = await app.request('/api/topics/t1/messages/stream', { method: 'POST', headers: { 'x-engram-user': 'u' } });
    expect(empty.status).toBe(400);
  });

  it('a date past year 9999 (or before year 1) is refused where it comes in, so every export imports back (zh, en)', async () => {
    const { json } = make();
    for (const happenedAt of ['+275760-09-13T00:00:00Z', '-000001-01-01T00:00:00Z', '+099999-01-01T00:00:00Z', '10000-01-01T00:00:00Z']) {
      for (const content of ['用户喜欢猫', 'The user likes cats']) {
        const res = await json('/v1/users/u/memories', { body: { content, happenedAt } });
        expect(res.status).toBe(400);
        expect(res.body.error?.message).toMatch(/happenedAt: must be a date/);
      }
    }
    expect((await json('/v1/users/u/memories', { body: { content: '用户喜欢猫', happenedAt: '9999-12-31T00:00:00Z' } })).status).toBe(201);
    const exported = await json('/v1/users/u/export');
    expect((await json('/v1/users/v/import', { body: exported.body })).status).toBe(200);
  });
});

describe('the admin key', () => {
  it('one a person could guess is refused at start, with how to make one', async () => {
    const error = await serve({ ENGRAM_ADMIN_KEY: 'change-me' }).catch((e: unknown) => e);
    expect(String(error)).toMatch(/ENGRAM_ADMIN_KEY must be at least 16 characters.*openssl rand -hex 24/);
    expect((await serve({ ENGRAM_ADMIN_KEY: 'change-me-to-a-long-secret' })).url).toMatch(/^http:/);
  });
});

describe('a batch of tool calls', () => {
  it('an MCP JSON-RPC batch counts each call against the key’s rate (100 searches in one POST were one request)', async () => {
    const { json } = make({ adminKey: ADMIN, rateLimit: { perMinute: 5 } });
    const key = String((await json('/v1/keys', { body: { tenantId: 'acme' }, key: ADMIN })).body.key);
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_memory', arguments: { query: id % 2 ? '猫' : 'cats' } } });
    const batch = await json('/mcp', { key, body: Array.from({ length: 10 }, (_, i) => call(i)), headers: { accept: 'application/json, text/event-stream' } });
    expect(batch.status).toBe(429);
    expect(batch.body.error?.code).toBe('RATE_LIMITED');
  });
});
