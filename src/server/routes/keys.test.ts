import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../../testing/closes-after-each.js';
import { testApp } from '../test-app.js';

const make = closesAfterEach((o: Parameters<typeof testApp>[0] = {}) => testApp(o), (t) => t.memory.close());
const ADMIN = 'admin-secret-0123456789';

describe('POST /v1/keys', () => {
  it('binds a key to a user by "boundUserId"; "userId" is refused with a message naming the field (zh, en)', async () => {
    const { json } = make({ adminKey: ADMIN });
    for (const user of ['李明', 'ann']) {
      const slip = await json('/v1/keys', { key: ADMIN, body: { tenantId: 'acme', userId: user } });
      expect(slip.status).toBe(400);
      expect(slip.body.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('Unrecognized key: "userId" (a key is bound to one user by "boundUserId")') });
      const made = await json('/v1/keys', { key: ADMIN, body: { tenantId: 'acme', boundUserId: user } });
      expect(made.status).toBe(201);
      expect(made.body.record).toMatchObject({ tenantId: 'acme', boundUserId: user });
    }
    // Other unknown fields keep zod's own words.
    const other = await json('/v1/keys', { key: ADMIN, body: { tenantId: 'acme', label: 'backend' } });
    expect(other.status).toBe(400);
    expect(other.body.error?.message).toContain('Unrecognized key: "label"');
    expect(other.body.error?.message).not.toContain('boundUserId');
  });
});
