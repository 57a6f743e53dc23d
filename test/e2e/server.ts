import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { LanguageModel } from 'ai';
import { createMemory } from '../../src/memory.js';
import type { MemoryEngine } from '../../src/memory-engine.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { createHashEmbedder } from '../../src/embedders/hash-embedder.js';
import { createApp } from '../../src/server/app.js';
import { createEventHub } from '../../src/server/event-hub.js';
import { sqliteHandleOf, sqliteKeyStore } from '../../src/server/keys/sqlite-key-store.js';
import type { KeyStore } from '../../src/server/keys/key-store.js';

export interface TestServer {
  url: string;
  memory: MemoryEngine;
  keys: KeyStore;
  adminKey: string;
  /** A tenant key (optionally bound to one user); returns the secret and its id. */
  createKey(tenantId: string, boundUserId?: string): Promise<{ key: string; id: string }>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** The chat model behind /api/topics/{id}/messages (the playground's assistant). */
  chat?: LanguageModel;
  /** No admin key and no keys: the loopback open mode of a fresh `npm start`. */
  open?: boolean;
}

/** The real HTTP service and web page on 127.0.0.1, a free port and a temp SQLite file. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-e2e-'));
  const store = openSqliteStore({ path: join(dir, 'engram.db') });
  const events = createEventHub();
  const memory = createMemory({ store, embedder: createHashEmbedder(), events });
  const db = sqliteHandleOf(store);
  if (!db) throw new Error('the browser tests need the SQLite store');
  const keys = sqliteKeyStore(db);
  const adminKey = 'admin-e2e-key';
  const app = createApp({ memory, keys, events, rateLimit: false, ...(options.open ? { allowOpen: true } : { adminKey }), ...(options.chat ? { chat: options.chat } : {}) });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    memory,
    keys,
    adminKey,
    async createKey(tenantId, boundUserId) {
      const { key, record } = await keys.create({ tenantId, ...(boundUserId ? { boundUserId } : {}), name: 'e2e' });
      return { key, id: record.id };
    },
    async close() {
      // Open SSE streams would keep the server alive: drop every connection.
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      await memory.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
