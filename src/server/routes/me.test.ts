import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../../testing/closes-after-each.js';
import { testApp } from '../test-app.js';

const make = closesAfterEach((o: Parameters<typeof testApp>[0] = {}) => testApp(o), (t) => t.memory.close());
const ADMIN = 'admin-key-for-tests-0123456789';

describe('GET /v1/me: who the key is', () => {
  it('says admin, tenant and the bound user (Chinese and English ids); a wrong key is still 401', async () => {
    const { json } = make({ adminKey: ADMIN });
    const acme = String((await json('/v1/keys', { key: ADMIN, body: { tenantId: 'acme' } })).body.key);
    const liMing = String((await json('/v1/keys', { key: ADMIN, body: { tenantId: 'acme', boundUserId: '李明' } })).body.key);
    const alice = String((await json('/v1/keys', { key: ADMIN, body: { tenantId: 'globex', boundUserId: 'alice' } })).body.key);
    expect((await json('/v1/me', { key: ADMIN })).body).toEqual({ access: 'admin', tenantId: 'default' });
    expect((await json('/v1/me', { key: ADMIN, headers: { 'x-engram-tenant': 'acme' } })).body).toEqual({ access: 'admin', tenantId: 'acme' });
    expect((await json('/v1/me', { key: acme })).body).toEqual({ access: 'tenant', tenantId: 'acme' });
    expect((await json('/v1/me', { key: liMing })).body).toEqual({ access: 'tenant', tenantId: 'acme', boundUserId: '李明' });
    expect((await json('/v1/me', { key: alice })).body).toEqual({ access: 'tenant', tenantId: 'globex', boundUserId: 'alice' });
    const wrong = await json('/v1/me', { key: 'ek_wrong' });
    expect([wrong.status, wrong.body.error?.code]).toEqual([401, 'UNAUTHORIZED']);
  });

  it('without a key: "none" where one is needed (200, not a 401 the page would log), "open" in the open mode until a key exists', async () => {
    const closed = make({ adminKey: ADMIN });
    const none = await closed.json('/v1/me');
    expect([none.status, none.body]).toEqual([200, { access: 'none' }]);
    // Only the question is answered without a key: everything else is still refused.
    expect((await closed.json('/v1/users')).status).toBe(401);
    const open = make();
    expect((await open.json('/v1/me')).body).toEqual({ access: 'open', tenantId: 'default' });
    await open.keys.create({ tenantId: 'acme' });
    expect((await open.json('/v1/me')).body).toEqual({ access: 'none' });
  });
});
