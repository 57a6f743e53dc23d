import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { isOpenMode, type AppEnv, type AuthInfo, type AuthOptions } from '../auth.js';
import { createRoute, newRouter, ok } from '../route-kit.js';

/**
 * How the caller reaches this server: `none` (no key sent, one is needed), `open` (no key sent, the
 * loopback open mode serves it as the admin), `admin` (the admin key) or `tenant` (a tenant key,
 * with the one user it may act for when it is bound).
 */
export const AccessDto = z
  .object({
    access: z.enum(['none', 'open', 'admin', 'tenant']),
    /** The tenant the caller acts in (the admin's follows X-Engram-Tenant); absent for `none`. */
    tenantId: z.string().optional(),
    /** The only user a bound tenant key may act for. */
    boundUserId: z.string().optional(),
  })
  .openapi('Access');
export type AccessDto = z.infer<typeof AccessDto>;

const me = createRoute({ method: 'get', path: '/v1/me', tags: ['keys'], summary: 'Who the key is: admin, a tenant (and its bound user), or the keyless open mode', responses: ok(AccessDto) });

/** What the authenticated caller is, as the page needs it to choose what to ask for. */
export function accessOf(auth: AuthInfo, keySent: boolean): AccessDto {
  if (!auth.admin) return { access: 'tenant', tenantId: auth.tenantId, ...(auth.boundUserId === undefined ? {} : { boundUserId: auth.boundUserId }) };
  return { access: keySent ? 'admin' : 'open', tenantId: auth.tenantId };
}

/** GET /v1/me: who the key is. */
export function meRoutes() {
  return newRouter().openapi(me, (c) => c.json(accessOf(c.var.auth, c.req.header('authorization') !== undefined), 200));
}

/**
 * GET /v1/me without a key, ahead of the auth middleware: where a key is needed the answer is
 * `{ access: 'none' }`, not a 401. The page asks this before it has a key (is this a fresh loopback
 * server in the open mode?); a refusal would be an error in the console of every first visit.
 */
export function keylessMe(options: AuthOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'GET' || c.req.header('authorization') !== undefined || (await isOpenMode(options))) return next();
    return c.json<AccessDto>({ access: 'none' }, 200);
  };
}
