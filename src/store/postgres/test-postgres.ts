import { randomBytes } from 'node:crypto';
import type { IdGenerator } from '../../deps.js';
import type { Store } from '../store.js';
import { openPostgresStore } from './postgres-store.js';

/** The database the PostgreSQL test suites use (`npm run test:pg` starts a throwaway cluster and sets it). */
export const testDatabaseUrl = (): string | undefined => process.env.ENGRAM_TEST_DATABASE_URL || undefined;

/** A fresh, empty store in a schema of its own on the test database (tests never see each other's rows). */
export function openTestPostgresStore(options: { url?: string; ids?: IdGenerator; schema?: string } = {}): Store {
  const url = options.url ?? testDatabaseUrl();
  if (!url) throw new Error('ENGRAM_TEST_DATABASE_URL is not set (run `npm run test:pg`)');
  return openPostgresStore({ url, schema: options.schema ?? `t_${randomBytes(6).toString('hex')}`, ids: options.ids, maxConnections: 4 });
}
