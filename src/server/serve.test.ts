import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger, type Logger } from '../deps.js';
import { createHashEmbedder } from '../embedders/hash-embedder.js';
import type { Embedder } from '../embedders/embedder.js';
import { testMemory } from '../testing/test-memory.js';
import { checkBinding, startServer, warmEmbedder, type RunningServer } from './serve.js';

let running: RunningServer[] = [];
afterEach(async () => {
  for (const s of running) await s.close();
  running = [];
});
const env = (extra: Record<string, string> = {}) => ({ ENGRAM_DB: join(mkdtempSync(join(tmpdir(), 'engram-serve-')), 'e.db'), ENGRAM_EMBEDDER: 'hash', ...extra });
const start = async (o: Partial<Parameters<typeof startServer>[0]> = {}) => {
  const s = await startServer({ port: 0, host: '127.0.0.1', env: env(), logger: silentLogger, ...o });
  running.push(s);
  return s;
};

/** Reads server-sent events from a fetch body until `until` returns true. */
async function readEvents(res: Response, until: (events: Array<{ event: string; data: string }>) => boolean) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: Array<{ event: string; data: string }> = [];
  while (!until(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) events.push({ event, data });
    }
  }
  await reader.cancel();
  return events;
}

describe('the server over loopback', () => {
  it('serves health and the API on a free port, open on loopback without keys', async () => {
    const s = await start();
    expect(s.protected).toBe(false);
    expect(await (await fetch(`${s.url}/health`)).json()).toEqual({ status: 'ok' });
    const r = await fetch(`${s.url}/v1/users/${encodeURIComponent('李明')}/memories`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: '用户喜欢猫' }) });
    expect(r.status).toBe(201);
    expect(((await r.json()) as { userId: string }).userId).toBe('李明');
  });

  it('over a real socket, a body past the limit gets 413 whether its length is declared or chunked, and nothing is stored', async () => {
    const s = await start({ env: env({ ENGRAM_BODY_LIMIT: '1024' }) });
    const url = `${s.url}/v1/users/u/memories`;
    const declared = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: '用户喜欢猫'.repeat(100) }) });
    expect(declared.status).toBe(413);
    const parts = [`{"content": "${'I like cats. '.repeat(60)}`, `${'我喜欢猫。'.repeat(60)}"}`];
    const chunked = await fetch(url, {
      method: 'POST', headers: { 'content-type': 'application/json' }, duplex: 'half',
      body: new ReadableStream<Uint8Array>({ pull(c) { const p = parts.shift(); if (p === undefined) c.close(); else c.enqueue(new TextEncoder().encode(p)); } }),
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
    const fine = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'I like cats 我喜欢猫' }) });
    expect(fine.status).toBe(201);
    const list = (await (await fetch(url)).json()) as { items: unknown[] };
    expect(list.items).toHaveLength(1);
  });

  it('refuses a non-loopback address without keys, and requires keys with ENGRAM_ADMIN_KEY', async () => {
    await expect(startServer({ port: 0, host: '0.0.0.0', env: env(), logger: silentLogger })).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    const s = await start({ env: env({ ENGRAM_ADMIN_KEY: 'admin-key-for-test' }) });
    expect(s.protected).toBe(true);
    expect((await fetch(`${s.url}/v1/users`)).status).toBe(401);
    expect((await fetch(`${s.url}/v1/users`, { headers: { authorization: 'Bearer admin-key-for-test' } })).status).toBe(200);
  });

  it('a port already in use is a clear CONFIG_INVALID, and the second server lets go of its store', async () => {
    const first = await start();
    const second = env();
    await expect(startServer({ port: first.port, host: '127.0.0.1', env: second, logger: silentLogger })).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining(`Port ${first.port} on 127.0.0.1 is already in use`) });
    // Its store was closed: the same file opens again at once.
    const again = await start({ env: second });
    expect((await fetch(`${again.url}/health`)).status).toBe(200);
  });

  it('streams memory.changed and extraction.done events of the caller\'s tenant on /v1/events', async () => {
    const s = await start({ env: env({ ENGRAM_ADMIN_KEY: 'admin-key-for-test' }) });
    const admin = { authorization: 'Bearer admin-key-for-test', 'content-type': 'application/json' };
    const mk = async (tenantId: string) => ((await (await fetch(`${s.url}/v1/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ tenantId }) })).json()) as { key: string }).key;
    const acme = await mk('acme');
    const globex = await mk('globex');
    const stream = await fetch(`${s.url}/v1/events`, { headers: { authorization: `Bearer ${acme}` } });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const reading = readEvents(stream, (e) => e.some((x) => x.event === 'extraction.done'));
    const post = (key: string, path: string, body?: unknown) =>
      fetch(`${s.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    await new Promise((r) => setTimeout(r, 50));
    await post(globex, '/v1/users/bob/memories', { content: 'Globex secret: the user likes sailing' });
    await post(acme, '/v1/users/bob/memories', { content: '用户喜欢猫' });
    await post(acme, '/v1/users/bob/sessions/s1/messages', { messages: [{ role: 'user', content: 'I am allergic to peanuts' }] });
    await post(acme, '/v1/users/bob/sessions/s1/extract');
    const events = await reading;
    expect(events[0]!.event).toBe('ready');
    const changed = events.filter((e) => e.event === 'memory.changed').map((e) => JSON.parse(e.data) as { userId: string });
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((e) => e.userId === 'bob')).toBe(true);
    expect(events.map((e) => e.data).join('\n')).not.toContain('t:');
    const done = JSON.parse(events.find((e) => e.event === 'extraction.done')!.data) as { sessionId: string; report: { status: string } };
    expect(done).toMatchObject({ sessionId: 's1', report: { status: 'applied' } });
    // only acme's user produced events: globex's write came first and is absent
    expect(changed).toHaveLength(2);
  });

  it('the scheduler in the server delivers a due reminder as a todo.due event (and to a signed webhook)', async () => {
    const received: Array<{ body: string; signature: string | null }> = [];
    const { createServer } = await import('node:http');
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push({ body, signature: req.headers['x-engram-signature'] as string | null });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()));
    const hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`;
    try {
      const s = await start({ env: env({ ENGRAM_TICK_MS: '100', ENGRAM_WEBHOOK_URL: hookUrl, ENGRAM_WEBHOOK_SECRET: 'shh' }) });
      const stream = await fetch(`${s.url}/v1/events`);
      const reading = readEvents(stream, (e) => e.some((x) => x.event === 'todo.due'));
      const now = Date.now();
      const todo = await fetch(`${s.url}/v1/users/${encodeURIComponent('李明')}/todos`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: '给妈妈打电话', dueAt: new Date(now + 3_600_000).toISOString(), remindAt: new Date(now - 1000).toISOString() }),
      });
      expect(todo.status).toBe(201);
      const events = await reading;
      const due = JSON.parse(events.find((e) => e.event === 'todo.due')!.data) as { userId: string; content: string };
      expect(due).toMatchObject({ userId: '李明', content: '给妈妈打电话' });
      expect(received).toHaveLength(1);
      expect(received[0]!.signature).toMatch(/^sha256=/);
      expect(received[0]!.body).toContain('给妈妈打电话');
      // The operator's webhook serves every tenant: it names the tenant and that tenant's id of the user.
      expect(JSON.parse(received[0]!.body)).toMatchObject({ tenantId: 'default', userId: '李明' });
    } finally {
      await new Promise<void>((r) => hook.close(() => r()));
    }
  });

  it('a repeating todo: the todo.due event says how it repeats, and the scheduler moves it to its next time (zh)', async () => {
    const s = await start({ env: env({ ENGRAM_TICK_MS: '100' }) });
    const stream = await fetch(`${s.url}/v1/events`);
    const reading = readEvents(stream, (e) => e.some((x) => x.event === 'todo.due'));
    const now = Date.now();
    // Occurrences fall on whole minutes of the wall clock.
    const dueAt = new Date(Math.ceil((now + 3_600_000) / 60_000) * 60_000);
    const made = await fetch(`${s.url}/v1/users/li/todos`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: '吃药', dueAt: dueAt.toISOString(), remindAt: new Date(now - 1000).toISOString(), repeat: { every: 'day', timeZone: 'Asia/Shanghai' } }),
    });
    expect(made.status).toBe(201);
    const due = JSON.parse((await reading).find((e) => e.event === 'todo.due')!.data) as Record<string, unknown>;
    expect(due).toMatchObject({ userId: 'li', content: '吃药', repeat: { every: 'day', interval: 1, timeZone: 'Asia/Shanghai' } });
    await expect.poll(async () => ((await (await fetch(`${s.url}/v1/users/li/todos`)).json()) as { items: Array<{ dueAt: string; reminded: boolean }> }).items[0])
      .toMatchObject({ dueAt: new Date(dueAt.getTime() + 86_400_000).toISOString(), reminded: false });
  });

  it('exposes Prometheus metrics', async () => {
    const s = await start();
    await fetch(`${s.url}/v1/users/u/memories`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'The user likes jazz', kind: 'preference' }) });
    await fetch(`${s.url}/v1/users/u/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'jazz' }) });
    const text = await (await fetch(`${s.url}/metrics`)).text();
    expect(text).toContain('engram_memories{kind="preference",status="active"} 1');
    expect(text).toMatch(/engram_recall_duration_seconds_count 1/);
    expect(text).toContain('engram_http_requests_total{method="POST",route="/v1/users/:userId/memories",status="201"} 1');
    expect(text).toContain('engram_memory_importance_average 0.5');
  });
});

describe('warming the embedder at start', () => {
  /** A hash embedder with a `warm` that counts its calls and fails when told to. */
  const warmable = (fail = false): Embedder & { warmed: number } => {
    const inner = createHashEmbedder({ dimensions: 64 });
    const e = { id: inner.id, dimensions: inner.dimensions, embed: inner.embed, warmed: 0, warm: async () => {
      e.warmed++;
      if (fail) throw new Error('model files missing');
    } };
    return e;
  };
  const recordingLogger = () => {
    const lines: Array<{ level: string; msg: string; data?: Record<string, unknown> }> = [];
    const log = (level: string) => (msg: string, data?: Record<string, unknown>) => void lines.push({ level, msg, ...(data ? { data } : {}) });
    const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
    return { lines, logger };
  };

  it('the server loads a local model as it starts, before any request needs it', async () => {
    const embedder = warmable();
    const memory = testMemory({ embedder });
    const { lines, logger } = recordingLogger();
    const s = await start({ memory, logger });
    await expect.poll(() => lines.some((l) => l.msg === 'embedder ready')).toBe(true);
    expect(embedder.warmed).toBe(1);
    // 用户喜欢猫 / the user likes cats: recall works as before once warm.
    await memory.add({ userId: 'u', content: '用户喜欢猫' });
    await memory.add({ userId: 'u', content: 'The user likes cats' });
    const r = await fetch(`${s.url}/v1/users/u/memories`);
    expect(r.status).toBe(200);
  });

  it('answers /ready with 503 "starting" until the model is loaded, and serves meanwhile', async () => {
    let loaded!: () => void;
    const gate = new Promise<void>((resolve) => (loaded = resolve));
    const inner = createHashEmbedder({ dimensions: 64 });
    const embedder: Embedder = { id: inner.id, dimensions: 64, embed: inner.embed, warm: () => gate };
    const memory = testMemory({ embedder });
    const s = await start({ memory });
    const ready = async () => {
      const r = await fetch(`${s.url}/ready`);
      return { status: r.status, body: await r.json() };
    };
    expect(await ready()).toEqual({ status: 503, body: { status: 'starting' } });
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
    await memory.add({ userId: 'u', content: '用户喜欢猫' });
    expect((await fetch(`${s.url}/v1/users/u/memories`)).status).toBe(200);
    loaded();
    await expect.poll(ready).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('a model that fails to load is logged and the server keeps serving: the first embed tries again', async () => {
    const embedder = warmable(true);
    const { lines, logger } = recordingLogger();
    await warmEmbedder({ deps: testMemory({ embedder }).deps }, logger);
    expect(embedder.warmed).toBe(1);
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', data: expect.objectContaining({ error: 'model files missing' }) })]);
  });

  it('an embedder with nothing to load (an HTTP endpoint) is not called at start', async () => {
    const inner = createHashEmbedder({ dimensions: 64 });
    let calls = 0;
    const embedder: Embedder = { id: inner.id, dimensions: 64, embed: (t) => { calls++; return inner.embed(t); } };
    const { lines, logger } = recordingLogger();
    await warmEmbedder({ deps: testMemory({ embedder }).deps }, logger);
    expect(calls).toBe(0);
    expect(lines).toEqual([]);
  });

  describe('the store embedded by another embedder', () => {
    /** A store embedded by hash@64, with a memory and a message in each language. */
    const oldStore = async (): Promise<string> => {
      const path = join(mkdtempSync(join(tmpdir(), 'engram-serve-')), 'e.db');
      const first = testMemory({ path, embedder: createHashEmbedder({ dimensions: 64 }) });
      await first.add({ userId: 'u', content: '用户喜欢猫' });
      await first.add({ userId: 'u', content: 'The user loves cats' });
      await first.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: '我喜欢猫' }, { userId: 'u', sessionId: 's', role: 'user', content: 'I love cats' }] });
      await first.close();
      return path;
    };
    const later = (supersedes: string[]): Embedder => ({ ...createHashEmbedder({ dimensions: 32 }), id: 'hash-next@32', supersedes });

    it('is re-embedded at start, before any request, when it was an earlier version of the embedder', async () => {
      const memory = testMemory({ path: await oldStore(), embedder: later(['hash@64']) });
      await start({ memory });
      await vi.waitFor(async () => expect(await memory.reindexStatus()).toMatchObject({ embedder: { id: 'hash-next@32' }, pending: { memories: 0, messages: 0 } }), { timeout: 10_000 });
      for (const query of ['猫', 'cats']) expect((await memory.recall({ userId: 'u', query }))[0]!.memory.embedderId).toBe('hash-next@32');
    });

    it('has the rows a cut-short upgrade left without a vector embedded at start', async () => {
      const path = await oldStore();
      const cut = testMemory({ path, embedder: later(['hash@64']) });
      // What a reindex does first, then the process ends: bound to the new embedder, every vector dropped.
      await cut.deps.store.bindEmbedder({ id: 'hash-next@32', dimensions: 32 }, { replace: true });
      expect(await cut.reindexStatus()).toMatchObject({ complete: false, pending: { memories: 2, messages: 2 } });
      await cut.close();
      const memory = testMemory({ path, embedder: later(['hash@64']) });
      const { lines, logger } = recordingLogger();
      await start({ memory, logger });
      await vi.waitFor(async () => expect(await memory.reindexStatus()).toMatchObject({ complete: true, pending: { memories: 0, messages: 0 } }), { timeout: 10_000 });
      expect(lines).toContainEqual(expect.objectContaining({ level: 'warn', data: expect.objectContaining({ code: 'REINDEX_RESUMED', pending: { memories: 2, messages: 2 } }) }));
    });

    it('is reported at start when it needs a reindex, and the server keeps serving', async () => {
      const memory = testMemory({ path: await oldStore(), embedder: later(['hash@128']) });
      const { lines, logger } = recordingLogger();
      await checkBinding(memory, logger);
      expect(lines).toEqual([expect.objectContaining({ level: 'warn', data: expect.objectContaining({ code: 'EMBEDDER_MISMATCH', embedder: 'hash-next@32' }) })]);
      await memory.close();
    });
  });
});
