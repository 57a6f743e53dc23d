import { createHash, randomBytes } from 'node:crypto';

// The port itself lives with the other store ports (src/store/ports/keys.ts); re-exported here for the server's imports.
export { TenantId, NewApiKey, StoredApiKey, type ApiKey, type KeyStore } from '../../store/ports/keys.js';

export const hashKey = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** A new secret: a recognisable prefix and 32 random bytes. */
export const newSecret = (): string => `ek_${randomBytes(32).toString('base64url')}`;
