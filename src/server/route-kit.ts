import { createRoute, OpenAPIHono, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { InvalidInputError } from '../errors.js';
import { assertUserAllowed, scopedUserId, type AppEnv, type AuthInfo } from './auth.js';
import { ErrorBody } from './schemas.js';

const errors = { default: { description: 'An error: `{ error: { code, message, details, requestId } }`', content: { 'application/json': { schema: ErrorBody } } } } as const;

/** A JSON request body, required. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } }, required: true as const });

/** The responses of a route answering `schema` with 200 (or another status), plus the error body. */
export const ok = <T extends z.ZodType>(schema: T, description = 'OK') => ({ 200: { description, content: { 'application/json': { schema } } }, ...errors });
export const created = <T extends z.ZodType>(schema: T, description = 'Created') => ({ 201: { description, content: { 'application/json': { schema } } }, ...errors });
export const noContent = (description = 'Done') => ({ 204: { description }, ...errors });

export { createRoute };

/** A router with Engram's validation hook: a failed zod check is a 400 INVALID_INPUT naming the fields. */
export function newRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

export function validationHook(result: { success: boolean; error?: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }; target?: string }): void {
  if (result.success || !result.error) return;
  const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message }));
  throw new InvalidInputError(`Invalid ${result.target ?? 'request'}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { details: { target: result.target, issues } });
}

/** The engine's user id for the external userId of this request, after the key's user binding is checked. */
export function userOf(c: Context<AppEnv>, externalId: string): string {
  const auth: AuthInfo = c.var.auth;
  assertUserAllowed(auth, externalId);
  return scopedUserId(auth, externalId);
}
