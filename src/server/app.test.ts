import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../testing/closes-after-each.js';
import type { Activity } from '../util/activity.js';
import { testApp } from './test-app.js';

const make = closesAfterEach((o: Parameters<typeof testApp>[0] = {}) => testApp(o), (t) => t.memory.close());

describe('the HTTP app', () => {
  it('answers health, ready, the OpenAPI 3.1 document, the docs and a page', async () => {
    const { json, app } = make();
    expect((await json('/health')).body).toEqual({ status: 'ok' });
    expect((await json('/ready')).body).toEqual({ status: 'ready' });
    const doc = await json('/openapi.json');
    expect(doc.body.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.body.paths as object);
    for (const p of ['/v1/users/{userId}/memories', '/v1/users/{userId}/memories/{id}', '/v1/users/{userId}/search', '/v1/users/{userId}/context', '/v1/users/{userId}/sessions/{sessionId}/extract', '/v1/keys']) expect(paths).toContain(p);
    const docs = await app.request('/docs');
    expect(await docs.text()).toContain('swagger-ui-bundle.js');
    const bundle = await app.request('/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    const page = await app.request('/', { headers: {} });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app">');
    const unbuilt = make({ webDir: join(tmpdir(), 'engram-no-web-build') }).app;
    expect(await (await unbuilt.request('/')).text()).toContain('/docs');
  });

  it('serves a built web page at / with its own routes falling back to index.html, API 404s stay JSON', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const web = mkdtempSync(join(tmpdir(), 'engram-web-'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>Engram 记忆</title>');
    writeFileSync(join(web, 'app.js'), 'console.log(1)');
    const { app, json } = make({ webDir: web });
    expect(await (await app.request('/')).text()).toContain('Engram 记忆');
    expect(await (await app.request('/app.js')).text()).toBe('console.log(1)');
    expect(await (await app.request('/users/li-ming')).text()).toContain('Engram 记忆');
    const api = await json('/v1/nope');
    expect(api.status).toBe(404);
    expect(api.body.error?.code).toBe('NOT_FOUND');
    const doc = await json('/openapi.json');
    expect(Object.keys(doc.body.paths as object)).toEqual(expect.arrayContaining(['/v1/events', '/health', '/metrics']));
  });

  it('counts every request in flight in its activity until the handler has answered, errors included', async () => {
    const log: string[] = [];
    let inFlight = 0;
    const activity: Activity = {
      begin() {
        inFlight++;
        log.push('begin');
        return () => {
          inFlight--;
          log.push('end');
        };
      },
      whenIdle: (task) => void setImmediate(task),
    };
    const { json } = make({ activity });
    const added = await json('/v1/users/li-ming/memories', { body: { content: '用户喜欢猫 — the user likes cats', kind: 'preference' } });
    expect(added.status).toBe(201);
    expect(log.splice(0)).toEqual(['begin', 'end']);
    expect((await json('/v1/users/li-ming/memories', { body: { content: '' } })).status).toBe(400);
    expect((await json('/v1/nope')).status).toBe(404);
    expect(log.splice(0)).toEqual(['begin', 'end', 'begin', 'end']);
    expect(inFlight).toBe(0);
  });

  it('creates, reads, patches, lists, deletes, restores and purges memories in Chinese and English', async () => {
    const { json } = make();
    const zh = await json('/v1/users/li-ming/memories', { body: { content: '用户喜欢猫', kind: 'preference' } });
    expect(zh.status).toBe(201);
    expect(zh.body).toMatchObject({ userId: 'li-ming', content: '用户喜欢猫', kind: 'preference' });
    expect(typeof zh.body.createdAt).toBe('string');
    const en = await json('/v1/users/li-ming/memories', { body: { content: 'The user works as a nurse in Shanghai', kind: 'identity' } });
    const id = String(zh.body.id);
    expect((await json(`/v1/users/li-ming/memories/${id}`)).body.content).toBe('用户喜欢猫');
    const patched = await json(`/v1/users/li-ming/memories/${id}`, { method: 'PATCH', body: { content: '用户喜欢猫和狗', importance: 0.8 } });
    expect(patched.body).toMatchObject({ content: '用户喜欢猫和狗', importance: 0.8 });

    const list = await json('/v1/users/li-ming/memories?limit=1&sort=createdAt&order=asc');
    expect((list.body.items as Array<{ id: string }>).map((m) => m.id)).toEqual([id]);
    const next = await json(`/v1/users/li-ming/memories?limit=1&sort=createdAt&order=asc&cursor=${String(list.body.nextCursor)}`);
    expect((next.body.items as Array<{ id: string }>).map((m) => m.id)).toEqual([en.body.id]);
    expect(next.body.nextCursor).toBeNull();
    const prefs = await json('/v1/users/li-ming/memories?kind=preference');
    expect((prefs.body.items as unknown[]).length).toBe(1);
    const q = await json(`/v1/users/li-ming/memories?q=${encodeURIComponent('nurse')}`);
    expect((q.body.items as Array<{ id: string }>)[0]!.id).toBe(en.body.id);

    expect((await json(`/v1/users/li-ming/memories/${id}`, { method: 'DELETE' })).body).toMatchObject({ status: 'deleted' });
    expect((await json('/v1/users/li-ming/memories')).body.items).toHaveLength(1);
    expect((await json('/v1/users/li-ming/memories?status=deleted')).body.items).toHaveLength(1);
    expect((await json(`/v1/users/li-ming/memories/${id}/restore`, { method: 'POST' })).body.status).toBe('active');
    const history = await json(`/v1/users/li-ming/memories/${id}/history`);
    expect((history.body.items as Array<{ action: string }>).map((h) => h.action)).toEqual(['create', 'update', 'delete', 'restore']);
    expect((await json(`/v1/users/li-ming/memories/${id}/relations`)).body.items).toEqual([]);
    expect((await json(`/v1/users/li-ming/memories/${id}/purge`, { method: 'POST' })).body.status).toBe('purged');
    expect((await json(`/v1/users/li-ming/memories/${id}`)).status).toBe(404);
    expect((await json(`/v1/users/li-ming/memories/${String(en.body.id)}?purge=true`, { method: 'DELETE' })).body.status).toBe('purged');
  });

  it('searches with score parts and builds a context block within the budget (Chinese and English)', async () => {
    const { json } = make();
    await json('/v1/users/u1/memories', { body: { content: '用户喜欢猫', kind: 'preference' } });
    await json('/v1/users/u1/memories', { body: { content: 'The user is allergic to peanuts', kind: 'fact' } });
    const zh = await json('/v1/users/u1/search', { body: { query: '猫', limit: 5 } });
    expect(zh.status).toBe(200);
    const first = (zh.body.items as Array<{ memory: { content: string }; score: Record<string, unknown> }>)[0]!;
    expect(first.memory.content).toBe('用户喜欢猫');
    expect(first.score).toHaveProperty('relevance');
    const en = await json('/v1/users/u1/search', { body: { query: 'peanuts allergy', recipe: 'keyword' } });
    expect((en.body.items as Array<{ memory: { content: string } }>)[0]!.memory.content).toContain('peanuts');
    const ctx = await json('/v1/users/u1/context', { body: { query: 'is the user allergic to peanuts?', tokenBudget: 200 } });
    expect(ctx.status).toBe(200);
    expect(ctx.body.tokens as number).toBeLessThanOrEqual(200);
    expect(String(ctx.body.text)).toContain('peanuts');
  });

  it('appends messages, lists them, gives the working window, extracts with seed 002 fields and ends the session', async () => {
    const { json } = make();
    const base = '/v1/users/li-ming/sessions/s1';
    const a = await json(`${base}/messages`, { body: { messages: [{ role: 'user', content: '我叫李明，我喜欢猫' }, { role: 'user', content: 'I am allergic to peanuts' }] } });
    expect(a.status).toBe(200);
    expect((a.body.appended as unknown[]).length).toBe(2);
    expect((await json(`${base}/messages`)).body.items).toHaveLength(2);
    expect((await json(`${base}/window?size=1`)).body.items).toHaveLength(1);
    const sessions = await json('/v1/users/li-ming/sessions');
    expect((sessions.body.items as Array<{ id: string }>).map((s) => s.id)).toEqual(['s1']);
    const r = await json(`${base}/extract`, { method: 'POST' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ sessionId: 's1', status: 'applied' });
    for (const k of ['added', 'updated', 'skipped', 'reason']) expect(r.body).toHaveProperty(k);
    expect(r.body.added as number).toBeGreaterThan(0);
    expect((await json(`${base}/end`, { method: 'POST' })).body).toEqual({ sessionId: 's1', ended: true });
    expect((await json('/v1/users/li-ming/sessions/nope/extract', { method: 'POST' })).status).toBe(404);
  });

  it('reports the store gauges on /metrics from the store itself (SQLite and PostgreSQL), zh and en', async () => {
    const { json, app } = make();
    await json('/v1/users/li-ming/memories', { body: { content: '用户喜欢猫', kind: 'preference', importance: 0.8 } });
    await json('/v1/users/alice/memories', { body: { content: 'The user likes jazz', kind: 'preference', importance: 0.4 } });
    await json('/v1/users/alice/memories', { body: { content: 'The user lives in Berlin', kind: 'identity', importance: 0.6 } });
    await json('/v1/users/li-ming/sessions/s1/messages', { body: { messages: [{ role: 'user', content: '我叫李明，我对花生过敏' }, { role: 'user', content: 'I am allergic to peanuts' }] } });
    expect((await json('/v1/users/li-ming/sessions/s1/extract', { method: 'POST' })).body).toMatchObject({ status: 'applied' });
    const text = await (await app.request('/metrics')).text();
    const added = Number(/^engram_memories\{kind="preference",status="active"\} (\d+)$/m.exec(text)?.[1]);
    expect(added).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^engram_memories\{kind="identity",status="active"\} \d+$/m);
    expect(text).toMatch(/^engram_extraction_runs\{outcome="applied"\} 1$/m);
    expect(Number(/^engram_memory_importance_average ([\d.]+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
  });
});
