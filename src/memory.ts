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
import { forgetUser } from './pipelines/forget.js';
import type { MemoryQuery, Store } from './store/store.js';
import type { Message, Session } from './domain/conversation.js';
import { appendMessages, type AppendOptions, type AppendResult } from './pipelines/append-messages.js';
import { searchMessages, type FoundMessage, type SearchMessagesOptions } from './pipelines/search-messages.js';
import { DEFAULT_EXTRACTION_OPTIONS, extractSession, type ExtractionDeps, type ExtractionOptions, type ExtractReport } from './pipelines/extract-session.js';
import { createExtractionScheduler } from './pipelines/extraction-scheduler.js';
import { resolveSettings, updateSettings } from './pipelines/settings.js';
import { emptyStats, type ExtractionStats } from './extraction/stats.js';
import type { LanguageModelPort } from './models/language-model.js';
import type { UsageMeter, UsageSnapshot } from './models/usage.js';
import type { ExtractionSettings, SettingsPatch } from './domain/settings.js';
import type { Todo } from './domain/todo.js';
import type { ExtractionRun } from './store/store.js';
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
  /** The LLM for extraction; without one, the heuristic extractor runs (explicit statements only). */
  model?: LanguageModelPort & { readonly usage?: UsageMeter };
  /** Extraction worker settings (leases, retries, batch size). */
  extraction?: Partial<ExtractionOptions>;
  /** This process's id in session leases. @default a random id */
  workerId?: string;
  /** Test hook, see ExtractionDeps.onStep. */
  onExtractionStep?: ExtractionDeps['onStep'];
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
  /** Marks a session ended and extracts its new messages in the background. */
  endSession(userId: string, sessionId: string): Promise<void>;
  /** Extracts a session's new messages now and reports what was done (seed 002's manual trigger). */
  extract(userId: string, sessionId: string): Promise<ExtractReport>;
  /** Starts the silence trigger: every intervalMs, extracts sessions silent for silentMinutes. @default 30000 */
  startScheduler(intervalMs?: number): void;
  /** Stops the scheduler and waits for running extractions. */
  stopScheduler(): Promise<void>;
  /** One scheduler pass, for callers that run their own timer (or tests with a manual clock). */
  tick(): Promise<ExtractReport[]>;
  /** Resolves when background extractions started so far have finished. */
  idle(): Promise<void>;
  getSettings(userId: string): Promise<ExtractionSettings>;
  /** Settings for one user, or the global defaults with userId "*". */
  setSettings(userId: string, patch: SettingsPatch): Promise<ExtractionSettings>;
  listTodos(options: { userId: string; completed?: boolean; dueBefore?: Date; limit?: number }): Promise<Todo[]>;
  completeTodo(userId: string, id: string): Promise<Todo>;
  deleteTodo(userId: string, id: string): Promise<void>;
  extractionRuns(userId: string, sessionId: string): Promise<ExtractionRun[]>;
  /** Extraction counters of this process and the model's usage per prompt. */
  stats(): { extraction: ExtractionStats; usage?: UsageSnapshot };
  /** Forgets everything about a user, really erased (seed 003 "用户要求遗忘"). Returns rows removed per table. */
  forget(options: { userId: string }): Promise<Record<string, number>>;
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
  const xdeps: ExtractionDeps = {
    ...deps,
    model: options.model,
    workerId: options.workerId ?? `worker-${crypto.randomUUID()}`,
    stats: emptyStats(),
    extraction: { ...DEFAULT_EXTRACTION_OPTIONS, ...options.extraction },
    onStep: options.onExtractionStep,
  };
  const scheduler = createExtractionScheduler(xdeps);
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
    appendMessages: after(async (o: AppendOptions) => {
      const result = await appendMessages(deps, o);
      // Overflow trigger: a session with too many unprocessed messages is extracted without waiting for silence.
      const touched = new Map(result.appended.map((m) => [`${m.userId}\u0000${m.sessionId}`, m]));
      for (const m of touched.values()) {
        const [session, settings] = await Promise.all([deps.store.getSession(m.userId, m.sessionId), resolveSettings(deps.store, m.userId)]);
        if (session && settings.extractionEnabled && m.seq - session.processedSeq >= settings.overflowMessages) scheduler.nudge(m.userId, m.sessionId);
      }
      return result;
    }),
    endSession: after(async (userId: string, sessionId: string) => {
      await deps.store.endSession(userId, sessionId, deps.clock.now());
      scheduler.nudge(userId, sessionId);
    }),
    extract: after((userId: string, sessionId: string) => extractSession(xdeps, userId, sessionId, { force: true })),
    startScheduler: (intervalMs?: number) => scheduler.start(intervalMs),
    stopScheduler: () => scheduler.stop(),
    tick: after(() => scheduler.tick()),
    idle: () => scheduler.idle(),
    getSettings: (userId: string) => resolveSettings(deps.store, userId),
    setSettings: (userId: string, patch: SettingsPatch) => updateSettings(deps.store, userId, patch),
    listTodos: (o) => deps.store.listTodos(o),
    completeTodo: (userId: string, id: string) => deps.store.updateTodo(userId, id, { completed: true, completedAt: deps.clock.now() }),
    deleteTodo: (userId: string, id: string) => deps.store.deleteTodo(userId, id),
    extractionRuns: (userId: string, sessionId: string) => deps.store.listExtractionRuns(userId, sessionId),
    stats: () => ({ extraction: { ...xdeps.stats }, usage: options.model?.usage?.snapshot() }),
    searchMessages: after((o: SearchMessagesOptions) => searchMessages(deps, o)),
    workingWindow: after(async (userId: string, sessionId: string, size = 30) =>
      (await deps.store.listMessages({ userId, sessionId, order: 'desc', limit: size })).reverse(),
    ),
    getSession: after(async (userId: string, sessionId: string) => {
      const session = await deps.store.getSession(userId, sessionId);
      if (!session) throw new NotFoundError('Session', sessionId);
      return session;
    }),
    forget: ({ userId }: { userId: string }) => forgetUser(deps, userId),
    reindex: async () => {
      const result = await reindex(deps);
      bound = Promise.resolve();
      return result;
    },
    close: async () => {
      await scheduler.stop();
      await deps.store.close();
    },
  };
}
