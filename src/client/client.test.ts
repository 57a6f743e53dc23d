import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../deps.js';
import { startServer, type RunningServer } from '../server/serve.js';
import { createClient, EngramHttpError } from './index.js';

const ADMIN = 'client-test-admin-key';
let server: RunningServer;
beforeAll(async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'engram-client-')), 'e.db');
  server = await startServer({ port: 0, host: '127.0.0.1', env: { ENGRAM_DB: db, ENGRAM_EMBEDDER: 'hash', ENGRAM_ADMIN_KEY: ADMIN }, logger: silentLogger });
});
afterAll(async () => server.close());

describe('engram/client against the server over loopback', () => {
  it('manages keys and works as a tenant, in Chinese and English', async () => {
    const admin = createClient({ baseUrl: server.url, apiKey: ADMIN });
    const { key, record } = await admin.createKey({ tenantId: 'acme', name: '客户端' });
    expect(record.tenantId).toBe('acme');
    const c = createClient({ baseUrl: `${server.url}/`, apiKey: key });
    expect(await c.health()).toEqual({ status: 'ok' });

    const cat = await c.add({ userId: '李明', content: '用户喜欢猫', kind: 'preference' });
    expect(cat).toMatchObject({ userId: '李明', content: '用户喜欢猫' });
    await c.add({ userId: '李明', content: 'The user is allergic to peanuts', kind: 'fact' });
    expect(await c.listUsers()).toEqual(['李明']);
    expect((await c.get('李明', cat.id)).id).toBe(cat.id);
    const page = await c.list({ userId: '李明', kinds: ['preference'], limit: 10 });
    expect(page.items.map((m) => m.content)).toEqual(['用户喜欢猫']);
    expect((await c.update('李明', cat.id, { importance: 0.9 })).importance).toBe(0.9);
    expect((await c.recall({ userId: '李明', query: 'peanuts' }))[0]!.memory.content).toContain('peanuts');
    const block = await c.context({ userId: '李明', query: 'is the user allergic to peanuts?', tokenBudget: 300 });
    expect(block.tokens).toBeLessThanOrEqual(300);
    expect((await c.delete('李明', cat.id)).status).toBe('deleted');
    expect((await c.restore('李明', cat.id)).status).toBe('active');
    expect((await c.history('李明', cat.id)).map((h) => h.action)).toEqual(['create', 'update', 'delete', 'restore']);

    await c.appendMessages({ userId: '李明', sessionId: 's1', messages: [{ role: 'user', content: '我叫李明，我住在北京' }, { role: 'user', content: 'I work as a nurse' }] });
    expect(await c.workingWindow('李明', 's1')).toHaveLength(2);
    const report = await c.extract('李明', 's1');
    expect(report.status).toBe('applied');
    expect(report.added).toBeGreaterThan(0);
    expect((await c.listSessions('李明')).map((x) => x.id)).toEqual(['s1']);
    expect((await c.setSettings('李明', { silentMinutes: 5 })).silentMinutes).toBe(5);
    const todo = await c.addTodo({ userId: '李明', content: 'Renew the passport', dueAt: new Date('2030-01-01T09:00:00Z') });
    expect(todo.dueAt).toBe('2030-01-01T09:00:00.000Z');
    expect(await c.editTodo('李明', todo.id, { dueAt: new Date('2030-01-02T09:00:00Z') })).toMatchObject({ dueAt: '2030-01-02T09:00:00.000Z', remindAt: '2030-01-02T08:00:00.000Z' });
    const meeting = await c.addTodo({ userId: '李明', content: '明天下午三点开会' });
    expect((await c.editTodo('李明', meeting.id, { when: '周六上午十点', remindAt: null })).remindAt).toBeUndefined();
    expect(await c.editTodo('李明', todo.id, { remind: '提前一天' })).toMatchObject({ dueAt: '2030-01-02T09:00:00.000Z', remindAt: '2030-01-01T09:00:00.000Z' });
    await expect(c.editTodo('李明', meeting.id, { remind: 'whenever' })).rejects.toSatisfy((e: unknown) => EngramHttpError.isInstance(e) && e.code === 'INVALID_INPUT' && e.status === 400);
    await expect(c.editTodo('李明', meeting.id, { when: '会议室B' })).rejects.toSatisfy((e: unknown) => EngramHttpError.isInstance(e) && e.code === 'INVALID_INPUT' && e.status === 400);
    expect((await c.completeTodo('李明', todo.id)).completed).toBe(true);
    const weekly = await c.addTodo({ userId: '李明', content: '每周一交周报', repeat: { every: 'week', weekdays: [1] } });
    expect(weekly.repeat).toMatchObject({ every: 'week', weekdays: [1] });
    expect((await c.completeTodo('李明', weekly.id, { series: true })).completed).toBe(true);
    await c.purge('李明', cat.id);
    await expect(c.get('李明', cat.id)).rejects.toSatisfy((e: unknown) => EngramHttpError.isInstance(e) && e.code === 'NOT_FOUND' && e.status === 404);
    expect((await c.forget({ userId: '李明' })).memories).toBeGreaterThan(0);
    expect(await c.listUsers()).toEqual([]);
  });

  it('raises typed errors: validation, auth, revoked keys, the network', async () => {
    const admin = createClient({ baseUrl: server.url, apiKey: ADMIN });
    const { key, record } = await admin.createKey({ tenantId: 'globex' });
    const c = createClient({ baseUrl: server.url, apiKey: key });
    const bad = await c.list({ userId: 'u', limit: 100_000 }).catch((e: unknown) => e);
    expect(EngramHttpError.isInstance(bad) && bad.code === 'INVALID_INPUT' && bad.status === 400 && typeof bad.requestId === 'string').toBe(true);
    const forbidden = await c.createKey({ tenantId: 'globex' }).catch((e: unknown) => e);
    expect(EngramHttpError.isInstance(forbidden) && forbidden.code).toBe('FORBIDDEN');
    await admin.revokeKey(record.id);
    const revoked = await c.listUsers().catch((e: unknown) => e);
    expect(EngramHttpError.isInstance(revoked) && revoked.code).toBe('UNAUTHORIZED');
    const down = await createClient({ baseUrl: 'http://127.0.0.1:1' }).health().catch((e: unknown) => e);
    expect(EngramHttpError.isInstance(down) && down.code).toBe('NETWORK');
  });

  it.each([
    ['zh', 'hooli', '用户每天早上喝咖啡', '用户每天早上喝两杯咖啡'],
    ['en', 'pied-piper', 'The user drinks coffee every morning', 'The user drinks two cups of coffee every morning'],
  ])('%s: update with ifVersion is refused (412 PRECONDITION_FAILED) after another client changed the memory', async (_, tenantId, content, edited) => {
    const admin = createClient({ baseUrl: server.url, apiKey: ADMIN });
    const c = createClient({ baseUrl: server.url, apiKey: (await admin.createKey({ tenantId })).key });
    const read = await c.add({ userId: 'u', content, kind: 'pattern', importance: 0.3 });
    expect(read.version).toEqual(expect.any(String));
    const other = await c.update('u', read.id, { importance: 0.9, kind: 'preference' });
    const refused = await c.update('u', read.id, { content: edited }, { ifVersion: read.version! }).catch((e: unknown) => e);
    expect(EngramHttpError.isInstance(refused) && [refused.status, refused.code, refused.details?.current]).toEqual([412, 'PRECONDITION_FAILED', other.version]);
    expect(await c.update('u', read.id, { content: edited }, { ifVersion: (await c.get('u', read.id)).version! })).toMatchObject({ content: edited, kind: 'preference', importance: 0.9 });

    // delete, restore and purge take the version too.
    const code = (e: unknown) => (EngramHttpError.isInstance(e) ? [e.status, e.code] : e);
    expect(code(await c.delete('u', read.id, { ifVersion: read.version! }).catch((e: unknown) => e))).toEqual([412, 'PRECONDITION_FAILED']);
    const deleted = await c.delete('u', read.id, { ifVersion: (await c.get('u', read.id)).version! });
    expect(deleted.status).toBe('deleted');
    expect(code(await c.restore('u', read.id, { ifVersion: read.version! }).catch((e: unknown) => e))).toEqual([412, 'PRECONDITION_FAILED']);
    const restored = await c.restore('u', read.id, { ifVersion: deleted.version! });
    expect(restored.status).toBe('active');
    expect(code(await c.purge('u', read.id, { ifVersion: deleted.version! }).catch((e: unknown) => e))).toEqual([412, 'PRECONDITION_FAILED']);
    await c.purge('u', read.id, { ifVersion: restored.version! });
    expect(code(await c.get('u', read.id).catch((e: unknown) => e))).toEqual([404, 'NOT_FOUND']);
  });

  it.each([
    ['zh', 'initech', '用户住在上海', '用户每天在上海坐地铁', '我住在哪里？', '你住在上海。'],
    ['en', 'umbrella', 'The user lives in Berlin', 'The user commutes by U-Bahn in Berlin', 'Where do I live?', 'You live in Berlin.'],
  ])('%s: relate, unrelate and reportReply (issues 12.6 and 9)', async (_, tenantId, home, commute, message, reply) => {
    const admin = createClient({ baseUrl: server.url, apiKey: ADMIN });
    const c = createClient({ baseUrl: server.url, apiKey: (await admin.createKey({ tenantId })).key });
    const a = await c.add({ userId: 'u', content: home, kind: 'fact', importance: 0.5 });
    const b = await c.add({ userId: 'u', content: commute, kind: 'fact' });
    const link = await c.relate({ userId: 'u', sourceId: b.id, targetId: a.id, type: 'supports', strength: 0.7 });
    expect(link).toMatchObject({ sourceId: b.id, targetId: a.id, type: 'supports', strength: 0.7 });
    expect((await c.relations('u', a.id)).map((r) => r.id)).toEqual([link.id]);
    await c.unrelate('u', a.id, link.id);
    expect(await c.relations('u', a.id)).toEqual([]);
    await expect(c.unrelate('u', a.id, link.id)).rejects.toSatisfy((e: unknown) => EngramHttpError.isInstance(e) && e.code === 'NOT_FOUND');
    const report = await c.reportReply({ userId: 'u', message, reply, recalledIds: [a.id] });
    expect(report.used.map((x) => x.id)).toEqual([a.id]);
    expect((await c.get('u', a.id)).importance).toBeGreaterThan(0.5);
  });
});
