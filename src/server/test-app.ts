import { testMemory } from '../testing/test-memory.js';
import { createApp, type CreateAppOptions } from './app.js';
import { createEventHub } from './event-hub.js';
import { sqliteHandleOf, sqliteKeyStore } from './keys/sqlite-key-store.js';

/**
 * An app over a test engine (in-memory SQLite, hash embedder, manual clock) with its key store and
 * event hub, for `app.request()` tests here and in other doors. Close `memory` afterwards.
 */
export function testApp(options: Partial<Omit<CreateAppOptions, 'memory' | 'keys' | 'events'>> & { engine?: Parameters<typeof testMemory>[0] } = {}) {
  const events = createEventHub();
  const memory = testMemory({ ...options.engine, events });
  const db = sqliteHandleOf(memory.deps.store);
  if (!db) throw new Error('testApp needs the SQLite store');
  const keys = sqliteKeyStore(db, { clock: memory.clock });
  const { engine: _engine, ...rest } = options;
  const app = createApp({ memory, keys, events, allowOpen: true, clock: memory.clock, ...rest });
  const json = async (path: string, init: { method?: string; body?: unknown; key?: string; headers?: Record<string, string> } = {}) => {
    const res = await app.request(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...(init.key ? { authorization: `Bearer ${init.key}` } : {}), ...init.headers },
      ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
    });
    const text = await res.text();
    let body: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
    return { status: res.status, body: body as Record<string, unknown> & { error?: { code: string; message: string; details?: Record<string, unknown> } }, headers: res.headers };
  };
  return { app, memory, keys, events, json };
}
