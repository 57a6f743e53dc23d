import { describe, expect, it } from 'vitest';
import { externalUserId, scopedUserId, splitUserId } from './auth.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testApp } from './test-app.js';

const make = closesAfterEach((o: Parameters<typeof testApp>[0] = {}) => testApp(o), (t) => t.memory.close());
const ADMIN = 'admin-secret-0123456789';

describe('tenants and keys', () => {
  it('maps external ids per tenant and back', () => {
    expect(scopedUserId({ tenantId: 'acme' }, '李明')).toBe('t:acme:李明');
    expect(scopedUserId({ tenantId: 'default' }, 'alice')).toBe('alice');
    expect(externalUserId({ tenantId: 'acme' }, 't:acme:李明')).toBe('李明');
    expect(externalUserId({ tenantId: 'globex' }, 't:acme:李明')).toBeNull();
    expect(externalUserId({ tenantId: 'default' }, 't:acme:李明')).toBeNull();
    expect(() => scopedUserId({ tenantId: 'default' }, 't:acme:x')).toThrow(/must not start/);
  });

  it('without an admin key or keys, loopback runs open; once a key exists, requests need one', async () => {
    const { json } = make();
    expect((await json('/v1/users')).status).toBe(200);
    const k = await json('/v1/keys', { body: { tenantId: 'acme' } });
    expect(k.status).toBe(201);
    const none = await json('/v1/users');
    expect(none.status).toBe(401);
    expect(none.body.error?.code).toBe('UNAUTHORIZED');
    expect(typeof (none.body.error as { requestId?: string }).requestId).toBe('string');
    expect((await json('/v1/users', { key: String(k.body.key) })).status).toBe(200);
  });

  it('reads no body before the key is checked: a request without one gets 401, never a parse of what it sent (zh/en)', async () => {
    const { json, app } = make({ adminKey: ADMIN });
    for (const body of ['{"content": "用户喜欢猫",', '{"content": "The user likes cats",']) {
      const unread = await json('/v1/users/u/memories', { body });
      expect(unread.status).toBe(401);
      expect(unread.body.error?.code).toBe('UNAUTHORIZED');
      // The same body with the key is read, and refused as malformed.
      expect((await json('/v1/users/u/memories', { body, key: ADMIN })).body.error?.code).toBe('INVALID_INPUT');
    }
    // A body that never ends is never waited for without a key.
    const endless = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{"version": 1, "memories": [')) });
    const r = await app.request('/v1/users/u/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body: endless, duplex: 'half' } as RequestInit);
    expect(r.status).toBe(401);
  });

  it('the same userId in two tenants is two people; responses show the external id', async () => {
    const { json } = make({ adminKey: ADMIN });
    const a = String((await json('/v1/keys', { key: ADMIN, body: { tenantId: 'acme' } })).body.key);
    const b = String((await json('/v1/keys', { key: ADMIN, body: { tenantId: 'globex', name: 'backend' } })).body.key);
    const made = await json('/v1/users/li-ming/memories', { key: a, body: { content: '用户喜欢猫', kind: 'preference' } });
    expect(made.body.userId).toBe('li-ming');
    await json('/v1/users/li-ming/memories', { key: b, body: { content: 'The user prefers dogs', kind: 'preference' } });
    const seenA = await json('/v1/users/li-ming/memories', { key: a });
    expect((seenA.body.items as Array<{ content: string; userId: string }>).map((m) => [m.content, m.userId])).toEqual([['用户喜欢猫', 'li-ming']]);
    const seenB = await json('/v1/users/li-ming/search', { key: b, body: { query: '猫 cats' } });
    expect((seenB.body.items as Array<{ memory: { content: string } }>).map((r) => r.memory.content)).toEqual(['The user prefers dogs']);
    // another tenant's memory id is simply not found
    const other = await json(`/v1/users/li-ming/memories/${String(made.body.id)}`, { key: b });
    expect(other.status).toBe(404);
    expect(other.body.error?.code).toBe('NOT_FOUND');
    expect((await json('/v1/users', { key: a })).body.items).toEqual([{ userId: 'li-ming' }]);
    // the admin acts in a tenant through X-Engram-Tenant
    const admin = await json('/v1/users/li-ming/memories', { key: ADMIN, headers: { 'x-engram-tenant': 'globex' } });
    expect((admin.body.items as Array<{ content: string }>).map((m) => m.content)).toEqual(['The user prefers dogs']);
  });

  it.each([
    ['zh', '用'.repeat(200), '用户喜欢猫'],
    ['en', 'u'.repeat(200), 'The user loves cats'],
  ])('%s: the longest user id a route takes, in the longest tenant id, is a user (scoped, it is longer than a caller\'s id may be)', async (_lang, userId, content) => {
    const { json } = make({ adminKey: ADMIN });
    const key = String((await json('/v1/keys', { key: ADMIN, body: { tenantId: 't'.repeat(64) } })).body.key);
    const made = await json(`/v1/users/${encodeURIComponent(userId)}/memories`, { key, body: { content } });
    expect(made.status).toBe(201);
    expect(made.body.userId).toBe(userId);
    const listed = await json(`/v1/users/${encodeURIComponent(userId)}/memories`, { key });
    expect((listed.body.items as Array<{ content: string }>).map((m) => m.content)).toEqual([content]);
  });

  it('a key bound to one user may not act for another; tenant keys may not manage keys', async () => {
    const { json } = make({ adminKey: ADMIN });
    const bound = String((await json('/v1/keys', { key: ADMIN, body: { tenantId: 'acme', boundUserId: '李明' } })).body.key);
    expect((await json(`/v1/users/${encodeURIComponent('李明')}/memories`, { key: bound })).status).toBe(200);
    const other = await json('/v1/users/alice/memories', { key: bound });
    expect(other.status).toBe(403);
    expect(other.body.error?.code).toBe('FORBIDDEN');
    const keys = await json('/v1/keys', { key: bound, body: { tenantId: 'acme' } });
    expect(keys.status).toBe(403);
    expect((await json('/metrics', { key: bound })).status).toBe(403);
  });

  it('a user id of spaces (ASCII or ideographic) is refused in every tenant, checked as the caller gave it, not once prefixed (zh/en)', async () => {
    const { json, memory } = make({ adminKey: ADMIN });
    const tenant = String((await json('/v1/keys', { key: ADMIN, body: { tenantId: 'acme' } })).body.key);
    const callers: Array<{ key: string; headers: Record<string, string> }> = [
      { key: tenant, headers: {} },
      { key: ADMIN, headers: {} },
      { key: ADMIN, headers: { 'x-engram-tenant': 'acme' } },
    ];
    for (const { key, headers } of callers) {
      for (const [id, content] of [['%20%20', '用户喜欢猫'], ['%E3%80%80', 'The user likes cats'], ['%20%E3%80%80%09', '用户喜欢狗']] as const) {
        const made = await json(`/v1/users/${id}/memories`, { key, headers, body: { content } });
        expect([id, headers, made.status, made.body.error?.code]).toEqual([id, headers, 400, 'INVALID_INPUT']);
        expect(made.body.error?.message).toBe('Invalid userId: must not be empty');
        expect((await json(`/v1/users/${id}/search`, { key, headers, body: { query: content } })).status).toBe(400);
        expect((await json(`/v1/users/${id}/settings`, { method: 'PUT', key, headers, body: { silentMinutes: 5 } })).status).toBe(400);
      }
      // The seed-shaped routes take the user from a header (UTF-8 bytes, as a client sends them): spaces there name no user.
      expect((await json('/api/v1/memories', { key, headers: { ...headers, 'x-engram-user': Buffer.from('\u3000 ').toString('latin1') } })).status).toBe(400);
    }
    expect((await json('/v1/users', { key: tenant })).body.items).toEqual([]);
    expect(await memory.deps.store.userIds()).toEqual([]);
    expect(() => scopedUserId({ tenantId: 'acme' }, '  ')).toThrow(/must not be empty/);
    expect(() => scopedUserId({ tenantId: 'acme' }, '\u3000')).toThrow(/must not be empty/);
    expect(scopedUserId({ tenantId: 'acme' }, ' 李明 ')).toBe('t:acme: 李明 ');
    // A key bound to such an id could never act: refused when it is made.
    for (const boundUserId of ['  ', '\u3000', '*']) {
      const key = await json('/v1/keys', { key: ADMIN, body: { tenantId: 'acme', boundUserId } });
      expect([boundUserId, key.status, key.body.error?.details?.field]).toEqual([boundUserId, 400, 'boundUserId']);
    }
    expect((await json('/v1/keys', { key: ADMIN, body: { tenantId: 'default', boundUserId: 't:acme:bob' } })).status).toBe(400);
    expect((await json('/v1/keys', { key: ADMIN, body: { tenantId: 'acme', boundUserId: '李明' } })).status).toBe(201);
  });

  it('a revoked key, an unknown key and a malformed header get 401 with a code', async () => {
    const { json } = make({ adminKey: ADMIN });
    const created = await json('/v1/keys', { key: ADMIN, body: { tenantId: 'acme' } });
    const key = String(created.body.key);
    const id = String((created.body.record as { id: string }).id);
    expect((await json('/v1/keys', { key: ADMIN })).body.items).toHaveLength(1);
    expect((await json(`/v1/keys/${id}`, { key: ADMIN, method: 'DELETE' })).body.revokedAt).toBeTypeOf('string');
    const revoked = await json('/v1/users', { key });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error?.message).toMatch(/revoked/);
    expect((await json('/v1/users', { key: 'ek_nope' })).status).toBe(401);
    expect((await json('/v1/users', { headers: { authorization: 'Basic abc' } })).body.error?.code).toBe('UNAUTHORIZED');
  });

  it('rate-limits per key with 429 and Retry-After', async () => {
    const { json, memory } = make({ adminKey: ADMIN, rateLimit: { perMinute: 3 } });
    const key = String((await json('/v1/keys', { key: ADMIN, body: { tenantId: 'acme' } })).body.key);
    for (let i = 0; i < 3; i++) expect((await json('/v1/users', { key })).status).toBe(200);
    const limited = await json('/v1/users', { key });
    expect(limited.status).toBe(429);
    expect(limited.body.error?.code).toBe('RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('20');
    memory.clock.advance(20_000);
    expect((await json('/v1/users', { key })).status).toBe(200);
  });
});

describe('splitUserId: engine ids back to a tenant and its own user id', () => {
  it('reads scoped ids in Chinese and English, and leaves the default tenant alone', () => {
    expect(splitUserId('t:acme:李明')).toEqual({ tenantId: 'acme', userId: '李明' });
    expect(splitUserId('t:globex:alice:2')).toEqual({ tenantId: 'globex', userId: 'alice:2' });
    expect(splitUserId('li-ming')).toEqual({ tenantId: 'default', userId: 'li-ming' });
  });
});
