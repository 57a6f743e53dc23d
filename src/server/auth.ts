import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { RequestIdVariables } from 'hono/request-id';
import { assertUserId, GLOBAL_USER } from '../domain/user-id.js';
import { EngramError, InvalidInputError } from '../errors.js';
import { TenantId, type KeyStore } from './keys/key-store.js';

/** The local tenant: the CLI's and the library's users live here, under their own ids. */
export const DEFAULT_TENANT = 'default';
const PREFIX = 't:';

/** Who is calling, set by the auth middleware on every request. */
export interface AuthInfo {
  tenantId: string;
  /** The API key used; null for the admin key and for the open (no keys) mode. */
  keyId: string | null;
  /** The only external user this key may act for. */
  boundUserId?: string;
  /** The admin key, or the open loopback mode: may manage keys and pick a tenant. */
  admin: boolean;
}

/** The Hono env of every Engram router (other doors mount their routers with it). */
export interface AppEnv {
  Variables: RequestIdVariables & { auth: AuthInfo };
}

/** A key may be bound only to a user some request could act for: "  ", "*", "t:…" in the default tenant are refused (400). */
export function assertBindableUser(tenantId: string, boundUserId: string): void {
  assertUserId(boundUserId, 'boundUserId');
  scopedUserId({ tenantId }, boundUserId);
}

/**
 * Maps a tenant's external user id to the engine's user id. Tenants isolate users: "alice" of
 * tenant "acme" is `t:acme:alice`, another person than "alice" of tenant "globex". The default
 * tenant keeps ids as they are (so the CLI and the server see the same users) and may not use ids
 * that look scoped. Every door's user (path, header, proxy body, MCP argument, a key's binding)
 * passes here, so the id is checked as the caller gave it (`assertUserId`), in every tenant alike.
 */
export function scopedUserId(auth: Pick<AuthInfo, 'tenantId'> & Partial<Pick<AuthInfo, 'admin'>>, externalUserId: string): string {
  // "*" holds the defaults every tenant's users inherit: the operator's, never a tenant key's.
  if (externalUserId === GLOBAL_USER) {
    if (auth.admin === true && auth.tenantId === DEFAULT_TENANT) return GLOBAL_USER;
    throw new EngramError('FORBIDDEN', 'User "*" holds the global defaults of every tenant: only the admin key may read or change them', { details: { userId: externalUserId } });
  }
  // The id as the caller gave it, in every tenant: once prefixed ("t:acme:  ") it would never look empty.
  assertUserId(externalUserId);
  if (auth.tenantId === DEFAULT_TENANT) {
    if (externalUserId.startsWith(PREFIX)) throw new InvalidInputError(`userId must not start with "${PREFIX}"`, { details: { field: 'userId' } });
    return externalUserId;
  }
  return `${PREFIX}${auth.tenantId}:${externalUserId}`;
}

/** Which tenant an engine user id belongs to, and that tenant's own id of the user. */
export function splitUserId(internalUserId: string): { tenantId: string; userId: string } {
  if (!internalUserId.startsWith(PREFIX)) return { tenantId: DEFAULT_TENANT, userId: internalUserId };
  const rest = internalUserId.slice(PREFIX.length);
  const at = rest.indexOf(':');
  return at < 0 ? { tenantId: DEFAULT_TENANT, userId: internalUserId } : { tenantId: rest.slice(0, at), userId: rest.slice(at + 1) };
}

/** The external id of an engine user id, or null when the user belongs to another tenant. */
export function externalUserId(auth: Pick<AuthInfo, 'tenantId'>, internalUserId: string): string | null {
  if (auth.tenantId === DEFAULT_TENANT) return internalUserId.startsWith(PREFIX) ? null : internalUserId;
  const prefix = `${PREFIX}${auth.tenantId}:`;
  return internalUserId.startsWith(prefix) ? internalUserId.slice(prefix.length) : null;
}

/** Throws FORBIDDEN when a key bound to one user asks for another. */
export function assertUserAllowed(auth: AuthInfo, externalId: string): void {
  if (auth.boundUserId !== undefined && auth.boundUserId !== externalId) {
    throw new EngramError('FORBIDDEN', `This key may only act for user "${auth.boundUserId}"`, { details: { userId: externalId } });
  }
}

export interface AuthOptions {
  keys: KeyStore;
  /** The admin key (ENGRAM_ADMIN_KEY); may create keys and act in any tenant (X-Engram-Tenant). */
  adminKey?: string;
  /** Allow requests without a key while no admin key and no active key exist (loopback only). */
  allowOpen: boolean;
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Whether a request without a key is served now: the open loopback mode, before any key exists. */
export async function isOpenMode(options: AuthOptions): Promise<boolean> {
  return options.allowOpen && !options.adminKey && !(await options.keys.hasActiveKeys());
}

/** Reads `Authorization: Bearer <key>` and sets `c.var.auth`, or answers 401/403 through onError. */
export function authenticate(options: AuthOptions): MiddlewareHandler<AppEnv> {
  const adminDigest = options.adminKey ? digest(options.adminKey) : null;
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (header === undefined) {
      if (await isOpenMode(options)) {
        c.set('auth', { tenantId: tenantFromHeader(c), keyId: null, admin: true });
        return next();
      }
      throw new EngramError('UNAUTHORIZED', 'Missing API key: send "Authorization: Bearer <key>"');
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new EngramError('UNAUTHORIZED', 'Malformed Authorization header: expected "Bearer <key>"');
    const secret = match[1]!;
    if (adminDigest && timingSafeEqual(digest(secret), adminDigest)) {
      c.set('auth', { tenantId: tenantFromHeader(c), keyId: null, admin: true });
      return next();
    }
    const key = await options.keys.find(secret);
    if (!key) throw new EngramError('UNAUTHORIZED', 'Unknown API key');
    if (key.revokedAt) throw new EngramError('UNAUTHORIZED', 'This API key was revoked', { details: { keyId: key.id } });
    c.set('auth', { tenantId: key.tenantId, keyId: key.id, admin: false, ...(key.boundUserId === undefined ? {} : { boundUserId: key.boundUserId }) });
    return next();
  };
}

function tenantFromHeader(c: Context): string {
  const raw = c.req.header('x-engram-tenant');
  if (raw === undefined) return DEFAULT_TENANT;
  const parsed = TenantId.safeParse(raw);
  if (!parsed.success) throw new InvalidInputError('Invalid X-Engram-Tenant header', { details: { field: 'X-Engram-Tenant' } });
  return parsed.data;
}

/** Only the admin key (or the open mode) may pass. */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.auth.admin) throw new EngramError('FORBIDDEN', 'Only the admin key may do this');
  return next();
};
