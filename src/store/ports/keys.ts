import { z } from 'zod';

/** A tenant's name: letters, digits, dot, dash, underscore. */
export const TenantId = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'tenant ids are 1-64 letters, digits, ".", "_" or "-"');

export const NewApiKey = z
  .object({
    tenantId: TenantId,
    /** The one (external) user this key may act for; any user of the tenant when absent. */
    boundUserId: z.string().min(1).max(200).optional(),
    /** A label for people ("web page", "backend"). */
    name: z.string().max(200).optional(),
  })
  .strict();
export type NewApiKey = z.infer<typeof NewApiKey>;

/** A stored key. The key itself is never stored: only its SHA-256. */
export interface ApiKey {
  id: string;
  tenantId: string;
  boundUserId?: string;
  name?: string;
  createdAt: Date;
  revokedAt?: Date;
}

/** A key as stored: the record and the SHA-256 of its secret (the secret itself is never stored). Checked on import. */
export const StoredApiKey = z
  .object({
    id: z.string().min(1).max(200),
    tenantId: TenantId,
    boundUserId: z.string().min(1).max(200).optional(),
    name: z.string().max(200).optional(),
    createdAt: z.date(),
    revokedAt: z.date().optional(),
    hash: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex'),
  })
  .strict();
export type StoredApiKey = z.infer<typeof StoredApiKey>;

/** The keys port of the HTTP service (kept out of the engine's Store: keys are the server's concern). */
export interface KeyStore {
  /** Creates a key; the returned `key` is shown once and cannot be read back. */
  create(input: NewApiKey): Promise<{ key: string; record: ApiKey }>;
  /** Keys of one tenant, or of every tenant. */
  list(tenantId?: string): Promise<ApiKey[]>;
  /** Revokes a key (idempotent); NOT_FOUND when it does not exist (in that tenant). */
  revoke(id: string, tenantId?: string): Promise<ApiKey>;
  /** The key record a presented secret belongs to (revoked ones included), or null. */
  find(secret: string): Promise<ApiKey | null>;
  /** True when at least one key is not revoked. */
  hasActiveKeys(): Promise<boolean>;
  /** Every key with the hash of its secret, oldest first (for `engram migrate`). */
  exportKeys(): Promise<StoredApiKey[]>;
  /** Inserts keys exactly as given (id, hash, dates); a key whose id is already stored is skipped. Returns how many were inserted. */
  importKeys(keys: readonly StoredApiKey[]): Promise<number>;
}
