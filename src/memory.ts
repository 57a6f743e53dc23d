import type { Clock, IdGenerator, Logger } from './deps.js';
import { randomIds, silentLogger, systemClock } from './deps.js';
import type { ChangeContext, HistoryEvent } from './domain/history.js';
import type { Memory, MemoryPatch, NewMemoryInput } from './domain/memory.js';
import type { Embedder } from './embedders/embedder.js';
import { buildContext, type ContextBlock, type ContextOptions } from './context/build-context.js';
import { addMemory } from './pipelines/add-memory.js';
import type { MemoryDeps } from './pipelines/deps.js';
import { deleteMemory, purgeMemory, restoreMemory, updateMemory } from './pipelines/edit-memory.js';
import { ensureEmbedder } from './pipelines/embedder-binding.js';
import { recall, type RecalledMemory, type RecallOptions } from './pipelines/recall.js';
import { reindex, type ReindexResult } from './pipelines/reindex.js';
import type { MemoryQuery, Store } from './store/store.js';
import type { Message, Session } from './domain/conversation.js';
import { appendMessages, type AppendOptions, type AppendResult } from './pipelines/append-messages.js';
import { searchMessages, type FoundMessage, type SearchMessagesOptions } from './pipelines/search-messages.js';
import { NotFoundError } from './errors.js';

export interface CreateMemoryOptions {
  store: Store;
  embedder: Embedder;
  /** @default system clock */
  clock?: Clock;
  /** @default random UUIDs */
  ids?: IdGenerator;
  /** @default silent */
  logger?: Logger;
}

export type ListOptions = Omit<MemoryQuery, 'notExpiredAt'> & { includeExpired?: boolean };

/** The library's face: wires the pipelines over one bundle of dependencies; no logic of its own. */
export interface MemoryEngine {
  add(input: NewMemoryInput): Promise<Memory>;
  get(userId: string, id: string): Promise<Memory>;
  list(options: ListOptions): Promise<Memory[]>;
  update(userId: string, id: string, patch: MemoryPatch, change?: ChangeContext): Promise<Memory>;
  /** Soft delete (restorable). */
  delete(userId: string, id: string, change?: ChangeContext): Promise<Memory>;
  restore(userId: string, id: string, change?: ChangeContext): Promise<Memory>;
  /** Really erases the memory, its vector and keyword rows. */
  purge(userId: string, id: string, change?: ChangeContext): Promise<void>;
  history(userId: string, id: string): Promise<HistoryEvent[]>;
  recall(options: RecallOptions): Promise<RecalledMemory[]>;
  context(options: ContextOptions): Promise<ContextBlock>;
  /** Stores conversation messages (idempotent by id). */
  appendMessages(options: AppendOptions): Promise<AppendResult>;
  /** Searches raw messages, ranked with neighbour and session context. */
  searchMessages(options: SearchMessagesOptions): Promise<FoundMessage[]>;
  /** The last `size` messages of a session, oldest first: the working window for the caller's prompt. */
  workingWindow(userId: string, sessionId: string, size?: number): Promise<Message[]>;
  getSession(userId: string, sessionId: string): Promise<Session>;
  /** Re-embeds everything with this engine's embedder (after changing embedders). */
  reindex(): Promise<ReindexResult>;
  readonly deps: MemoryDeps;
  close(): Promise<void>;
}

export function createMemory(options: CreateMemoryOptions): MemoryEngine {
  const deps: MemoryDeps = {
    store: options.store,
    embedder: options.embedder,
    clock: options.clock ?? systemClock,
    ids: options.ids ?? randomIds,
    logger: options.logger ?? silentLogger,
  };
  let bound: Promise<void> | undefined;
  // Checked once, lazily: an embedder mismatch is reported on first use, and reindex still works.
  const ready = (): Promise<void> => {
    bound ??= ensureEmbedder(deps.store, deps.embedder).catch((error: unknown) => {
      bound = undefined;
      throw error;
    });
    return bound;
  };
  const after = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    await ready();
    return fn(...args);
  };

  return {
    deps,
    add: after((input: NewMemoryInput) => addMemory(deps, input)),
    get: after(async (userId: string, id: string) => {
      const m = await deps.store.getMemory(userId, id);
      if (!m) throw new NotFoundError('Memory', id);
      return m;
    }),
    list: after(({ includeExpired = true, ...query }: ListOptions) =>
      deps.store.listMemories({ ...query, notExpiredAt: includeExpired ? undefined : deps.clock.now() }),
    ),
    update: after((userId: string, id: string, patch: MemoryPatch, change?: ChangeContext) => updateMemory(deps, userId, id, patch, change)),
    delete: after((userId: string, id: string, change?: ChangeContext) => deleteMemory(deps, userId, id, change)),
    restore: after((userId: string, id: string, change?: ChangeContext) => restoreMemory(deps, userId, id, change)),
    purge: after((userId: string, id: string, change?: ChangeContext) => purgeMemory(deps, userId, id, change)),
    history: after((userId: string, id: string) => deps.store.history(userId, id)),
    recall: after((o: RecallOptions) => recall(deps, o)),
    context: after((o: ContextOptions) => buildContext(deps, o)),
    appendMessages: after((o: AppendOptions) => appendMessages(deps, o)),
    searchMessages: after((o: SearchMessagesOptions) => searchMessages(deps, o)),
    workingWindow: after(async (userId: string, sessionId: string, size = 30) =>
      (await deps.store.listMessages({ userId, sessionId, order: 'desc', limit: size })).reverse(),
    ),
    getSession: after(async (userId: string, sessionId: string) => {
      const session = await deps.store.getSession(userId, sessionId);
      if (!session) throw new NotFoundError('Session', sessionId);
      return session;
    }),
    reindex: async () => {
      const result = await reindex(deps);
      bound = Promise.resolve();
      return result;
    },
    close: () => deps.store.close(),
  };
}
