import { z } from '@hono/zod-openapi';
import { assertBindableUser, requireAdmin } from '../auth.js';
import { NewApiKey, type KeyStore } from '../keys/key-store.js';
import { createRoute, created, jsonBody, newRouter, ok } from '../route-kit.js';
import { present } from '../wire.js';

const tags = ['keys'];
const KeyDto = z
  .object({ id: z.string(), tenantId: z.string(), boundUserId: z.string().optional(), name: z.string().optional(), createdAt: z.string(), revokedAt: z.string().optional() })
  .openapi('ApiKey');

/** Names a caller plausibly sends for `boundUserId` (a tester sent `userId`, as every user route calls it; the CLI says --bind-user). */
const BOUND_USER_SLIPS = new Set(['userId', 'user', 'bindUser']);

/** Zod's own words for unknown fields, plus the field that was meant when one of them is a slip for `boundUserId`. */
const unknownFields = (issue: { code?: string; keys?: readonly string[] }): string | undefined => {
  if (issue.code !== 'unrecognized_keys' || !issue.keys?.some((k) => BOUND_USER_SLIPS.has(k))) return undefined;
  return `Unrecognized key${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.map((k) => `"${k}"`).join(', ')} (a key is bound to one user by "boundUserId")`;
};

const create = createRoute({
  method: 'post', path: '/v1/keys', tags, summary: 'Create a key for a tenant (admin); the key is shown once',
  request: { body: jsonBody(z.strictObject(NewApiKey.shape, { error: unknownFields }).openapi('NewApiKey')) }, responses: created(z.object({ key: z.string(), record: KeyDto })),
});
const list = createRoute({ method: 'get', path: '/v1/keys', tags, summary: 'List keys (admin), optionally of one tenant', request: { query: z.object({ tenantId: z.string().optional() }) }, responses: ok(z.object({ items: z.array(KeyDto) })) });
const revoke = createRoute({ method: 'delete', path: '/v1/keys/{id}', tags, summary: 'Revoke a key (admin)', request: { params: z.object({ id: z.string().min(1).max(200) }) }, responses: ok(KeyDto) });

/** /v1/keys: admin only. */
export function keyRoutes(keys: KeyStore) {
  const router = newRouter();
  router.use('/v1/keys', requireAdmin);
  router.use('/v1/keys/*', requireAdmin);
  return router
    .openapi(create, async (c) => {
      const body = c.req.valid('json');
      // A key bound to an id no request could use ("  ", "*", "t:…" in the default tenant) is refused now, not at every call.
      if (body.boundUserId !== undefined) assertBindableUser(body.tenantId, body.boundUserId);
      const { key, record } = await keys.create(body);
      return c.json({ key, record: present(c.var.auth, record) }, 201);
    })
    .openapi(list, async (c) => c.json({ items: present(c.var.auth, await keys.list(c.req.valid('query').tenantId)) }, 200))
    .openapi(revoke, async (c) => c.json(present(c.var.auth, await keys.revoke(c.req.valid('param').id)), 200));
}
