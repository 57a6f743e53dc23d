import type { Clock, IdGenerator } from '../../deps.js';
import { EngramError } from '../../errors.js';
import { postgresHandleOf } from '../../store/postgres/postgres-store.js';
import type { Store } from '../../store/store.js';
import type { KeyStore } from './key-store.js';
import { pgKeyStore } from './pg-key-store.js';
import { sqliteHandleOf, sqliteKeyStore } from './sqlite-key-store.js';

/** The key store living next to the engine's data: the same SQLite file, or the same PostgreSQL schema. */
export function keyStoreOf(store: Store, options: { clock?: Clock; ids?: IdGenerator } = {}): KeyStore {
  const db = sqliteHandleOf(store);
  if (db) return sqliteKeyStore(db, options);
  const pg = postgresHandleOf(store);
  if (pg) return pgKeyStore(pg, options);
  throw new EngramError('CONFIG_INVALID', 'The server keeps API keys in the engine\'s store; open it with openSqliteStore or openPostgresStore');
}
