import { z } from 'zod';

/**
 * GET /v1/me (src/server/routes/me.ts): who the key is. Asked without a key too, where it answers
 * `none` or `open` instead of a 401, so the page learns whether it needs a key without an error.
 */
export const Access = z.looseObject({
  access: z.enum(['none', 'open', 'admin', 'tenant']),
  tenantId: z.string().optional(),
  boundUserId: z.string().optional(),
});
export type Access = z.infer<typeof Access>;

/** The admin key, or the open mode (which acts as the admin): may read /metrics. */
export const isAdmin = (a: Access): boolean => a.access === 'admin' || a.access === 'open';
