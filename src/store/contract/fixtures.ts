import { afterEach, beforeEach } from 'vitest';
import type { Memory } from '../../domain/memory.js';
import type { Todo } from '../../domain/todo.js';
import type { KeyStore } from '../ports/keys.js';
import type { NewStoredMessage, Store } from '../store.js';

/** A fresh, empty store and how to dispose of it (a temp file, a throwaway database…). */
export interface ContractStore {
  store: Store;
  /** The server's key store over the same database, when the adapter has one. */
  keys?: KeyStore;
  /**
   * What the adapter does differently, by design: `claimsReminders` — dueReminders claims what it
   * returns for a while, so a second call does not return it again (several processes deliver);
   * `backup: false` — no online file copy (PostgreSQL: pg_dump), refused with a typed error.
   */
  traits?: { claimsReminders?: boolean; backup?: boolean };
  close(): Promise<void>;
}

export type StoreFactory = () => Promise<ContractStore>;

/** A memory with every required field at a fixed default, overridden by `over`. */
export function memoryFixture(over: Partial<Memory> & Pick<Memory, 'id' | 'userId' | 'content'>): Memory {
  const at = new Date('2026-01-01T00:00:00Z');
  return {
    kind: 'fact',
    importance: 0.5,
    confidence: 1,
    source: 'manual',
    verified: true,
    core: false,
    status: 'active',
    provenance: { messageIds: [] },
    language: 'en',
    createdAt: at,
    updatedAt: at,
    accessCount: 0,
    embedderId: 'test@4',
    ...over,
  };
}

export const EMBEDDER = { id: 'test@4', dimensions: 4 } as const;
export const user = { actor: 'user' } as const;
export const at = (min: number): Date => new Date(Date.UTC(2026, 0, 1, 0, min));

/** A unit vector over the first coordinates given. */
export function vec(...xs: number[]): Float32Array {
  const v = new Float32Array(4);
  xs.forEach((x, i) => (v[i] = x));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

export const mem = (id: string, userId: string, content: string, over: Partial<Memory> = {}): Memory =>
  memoryFixture({ id, userId, content, language: /\p{Script=Han}/u.test(content) ? 'zh' : 'en', ...over });

export const msg = (id: string, content: string, min: number, role: 'user' | 'assistant' = 'user'): NewStoredMessage => ({
  id, role, content, createdAt: at(min), vector: vec(min % 4 === 0 ? 1 : 0, 1), embedderId: EMBEDDER.id,
});

export const todo = (id: string, userId: string, content: string, over: Partial<Todo> = {}): Todo => ({
  id, userId, content, completed: false, reminded: false, createdAt: at(0), deliveryAttempts: 0, ...over,
});

/** Opens a fresh store bound to the test embedder before each test and disposes of it after. */
export function useStore(factory: StoreFactory): () => ContractStore {
  let current: ContractStore | undefined;
  beforeEach(async () => {
    current = await factory();
    await current.store.bindEmbedder(EMBEDDER);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('no store open (used outside a test)');
    return current;
  };
}
