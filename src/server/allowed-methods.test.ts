import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testApp } from './test-app.js';

const make = closesAfterEach((o: Parameters<typeof testApp>[0] = {}) => testApp(o), (t) => t.memory.close());

describe('a wrong method on a path that exists', () => {
  it('is a 405 with Allow naming the path’s methods, in the usual error body (zh/en)', async () => {
    const { json } = make();
    const cases = [
      ['GET', '/v1/users/alice/search', undefined, ['POST']],
      ['PUT', '/v1/users/alice/memories', { content: '用户喜欢猫' }, ['GET', 'HEAD', 'POST']],
      ['POST', `/v1/users/${encodeURIComponent('李明')}/memories/m-1`, { content: 'The user likes cats' }, ['GET', 'HEAD', 'PATCH', 'DELETE']],
      ['DELETE', '/v1/users/alice/settings', undefined, ['GET', 'HEAD', 'PUT']],
      ['POST', '/v1/users', { userId: 'alice' }, ['GET', 'HEAD']],
      ['POST', '/health', undefined, ['GET', 'HEAD']],
    ] as const;
    for (const [method, path, body, allow] of cases) {
      const r = await json(path, { method, ...(body ? { body } : {}) });
      expect([method, path, r.status, r.headers.get('allow')]).toEqual([method, path, 405, allow.join(', ')]);
      expect(r.body.error).toMatchObject({ code: 'METHOD_NOT_ALLOWED', details: { method, allow } });
      expect(r.body.error?.message).toContain(`${method} is not allowed`);
      expect(typeof (r.body.error as { requestId?: string }).requestId).toBe('string');
    }
    expect(await json('/v1/users').then((r) => r.body.items)).toEqual([]);
  });

  it('keeps 404 for a path no method has, the key check before either, and counts routers mounted later', async () => {
    const admin = 'admin-secret-0123456789';
    const { json } = make({ adminKey: admin, mount: (app) => app.post('/v1/extra', (c) => c.json({ ok: true })) });
    // The web page's fallback (GET on every other path) is no route of a path: a POST to a page path stays 404.
    for (const path of ['/v1/users/alice/nothing', '/v1/nothing-here', '/v1/users/alice/memories/m-1/nope', '/users/li-ming']) {
      const r = await json(path, { method: 'PUT', key: admin, body: {} });
      expect([path, r.status, r.body.error?.code, r.headers.get('allow')]).toEqual([path, 404, 'NOT_FOUND', null]);
    }
    expect((await json('/v1/users/alice/search')).status).toBe(401);
    const mounted = await json('/v1/extra', { key: admin });
    expect([mounted.status, mounted.headers.get('allow')]).toEqual([405, 'POST']);
    expect((await json('/v1/extra', { key: admin, body: {} })).body).toEqual({ ok: true });
  });
});
