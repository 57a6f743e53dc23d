import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MemoryEngine } from '../memory-engine.js';
import type { ManualClock } from '../testing/clock.js';
import { testMemory } from '../testing/test-memory.js';
import type { AppEnv } from './auth.js';
import type { EventHub } from './event-hub.js';
import type { KeyStore } from './keys/key-store.js';
import { createApp, type CreateAppOptions } from './app.js';
import { createEventHub } from './event-hub.js';
import { keyStoreOf } from './keys/key-store-of.js';

/**
 * An app over a test engine (in-memory SQLite, hash embedder, manual clock) with its key store and
 * event hub, for `app.request()` tests here and in other doors. Close `memory` afterwards.
 */
export interface TestResponse {
  status: number;
  body: Record<string, unknown> & { error?: { code: string; message: string; details?: Record<string, unknown> } };
  headers: Headers;
}
export interface TestRequest {
  method?: string;
  /** JSON-encoded unless a string. */
  body?: unknown;
  key?: string;
  headers?: Record<string, string>;
}
export interface TestApp {
  app: OpenAPIHono<AppEnv>;
  memory: MemoryEngine & { clock: ManualClock };
  keys: KeyStore;
  events: EventHub;
  /** One request through `app.request()`, JSON bodies parsed. */
  json(path: string, init?: TestRequest): Promise<TestResponse>;
}

export function testApp(options: Partial<Omit<CreateAppOptions, 'memory' | 'keys' | 'events'>> & { engine?: Parameters<typeof testMemory>[0] } = {}): TestApp {
  const events = createEventHub();
  const memory = testMemory({ ...options.engine, events });
  const keys = keyStoreOf(memory.deps.store, { clock: memory.clock });
  const { engine: _engine, ...rest } = options;
  const app = createApp({ memory, keys, events, allowOpen: true, clock: memory.clock, ...rest });
  const json = async (path: string, init: TestRequest = {}): Promise<TestResponse> => {
    const res = await app.request(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...(init.key ? { authorization: `Bearer ${init.key}` } : {}), ...init.headers },
      ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
    });
    const text = await res.text();
    let body: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
    return { status: res.status, body: body as TestResponse['body'], headers: res.headers };
  };
  return { app, memory, keys, events, json };
}
