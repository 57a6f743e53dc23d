import type { Clock, IdGenerator, Logger } from './deps.js';
import { randomIds, silentLogger, systemClock } from './deps.js';
import type { NewMemoryInput } from './domain/memory.js';
import type { ChangeContext } from './domain/history.js';
import { ownMessage } from './domain/conversation.js';
import type { Embedder } from './embedders/embedder.js';
import { recentEmbeddings } from './embedders/recent-embeddings.js';
import { buildContext } from './context/build-context.js';
import { emptyStats } from './extraction/stats.js';
import type { DecayPolicy } from './lifecycle/decay-policy.js';
import type { LanguageModelPort } from './models/language-model.js';
import type { UsageMeter } from './models/usage.js';
import type { Notifier } from './notify/notifier.js';
import type { MemoryEngine } from './memory-engine.js';
import { addMemory } from './pipelines/add-memory.js';
import { appendMessages } from './pipelines/append-messages.js';
import { compressMemories } from './pipelines/compress-memories.js';
import { completeTodo } from './pipelines/complete-todo.js';
import { deleteTodo, editTodo } from './pipelines/edit-todo.js';
import type { EngineServices, MemoryDeps, ProcessRuntime } from './pipelines/deps.js';
import { deliverReminders } from './pipelines/deliver-reminders.js';
import { deleteMemory, purgeMemory, restoreMemory, updateMemory } from './pipelines/edit-memory.js';
import { ensureEmbedder } from './pipelines/embedder-binding.js';
import { exportUser } from './pipelines/export-import.js';
import { importUser } from './pipelines/import-user.js';
import { DEFAULT_EXTRACTION_OPTIONS, extractSession, type ExtractionDeps, type ExtractionOptions } from './pipelines/extract-session.js';
import { createExtractionScheduler, dueTrigger } from './pipelines/extraction-scheduler.js';
import { forgetTopic, forgetUser } from './pipelines/forget.js';
import { forgetSession } from './pipelines/forget-messages.js';
import { eraseForgotten, forgottenOnRequest, undoForgotten } from './pipelines/forget-undo.js';
import { forgetAsked, forgetAskedIn, forgetRequestOf, ForgetRequestInput, type ForgottenOnRequest } from './pipelines/forget-asked.js';
import { requestLabel } from './extraction/forget-request.js';
import { recall } from './pipelines/recall.js';
import { recallLearnings, recordLearning } from './pipelines/record-learning.js';
import { reindex, reindexStatus } from './pipelines/reindex.js';
import { defaultWorkerId } from './pipelines/worker-id.js';
import { backupStore } from './pipelines/backup.js';
import { relateMemories, unrelateMemories } from './pipelines/relate-memories.js';
import { reportReply } from './pipelines/report-reply.js';
import { runDailyLifecycle } from './pipelines/daily-lifecycle.js';
import { runLifecycle } from './pipelines/run-lifecycle.js';
import { searchMessages } from './pipelines/search-messages.js';
import { resolveSettings, updateSettings } from './pipelines/settings.js';
import { summarizeSession } from './pipelines/summarize-session.js';
import { syncMirror, writeMirror } from './pipelines/sync-mirror.js';
import { updateProfile } from './pipelines/update-profile.js';
import type { Store } from './store/store.js';
import { EngramError, InvalidInputError, NotFoundError, parseInput } from './errors.js';
import { guardEngine } from './engine-guard.js';
import type { EventSink } from './events.js';

export type { MemoryEngine, ListOptions } from './memory-engine.js';

export interface CreateMemoryOptions {
  store: Store;
  embedder: Embedder;
  /** @default system clock */
  clock?: Clock;
  /** @default random UUIDs */
  ids?: IdGenerator;
  /** @default silent */
  logger?: Logger;
  /** The LLM; without one, extraction is heuristic (explicit statements only) and episodes are extractive. */
  model?: LanguageModelPort & { readonly usage?: UsageMeter };
  /** Extraction worker settings (leases, retries, batch size). */
  extraction?: Partial<ExtractionOptions>;
  /** This process's id in session leases. @default `<hostname>:<pid>` (see pipelines/worker-id.ts) */
  workerId?: string;
  /** Where due reminders go (a callback or a webhook). Without one, reminders stay queued. */
  notifier?: Notifier;
  /** A folder for the per-user memory.md / learnings.md mirror (seed 004); off when absent. */
  workspace?: string;
  /** Decay settings; every number of seed 001's table. @default DEFAULT_DECAY_POLICY */
  decayPolicy?: DecayPolicy;
  /** Receives memory.changed and extraction.done events (the HTTP server's `/v1/events`). */
  events?: EventSink;
  /** Test hook, see ExtractionDeps.onStep. */
  onExtractionStep?: ExtractionDeps['onStep'];
}

const DAY = 86_400_000;

/** Wires the pipelines over one bundle of dependencies; no logic of its own. */
export function createMemory(options: CreateMemoryOptions): MemoryEngine {
  // A chat turn embeds its two texts twice (for the block, then when recorded and judged): its
  // three steps reuse the user's own recent vectors (see recent-embeddings.ts).
  const recent = recentEmbeddings(options.embedder);
  // Services (shareable, stateless) and this engine's runtime state (counters, running set, worker id) apart.
  const services: EngineServices = {
    store: options.store,
    embedder: options.embedder,
    clock: options.clock ?? systemClock,
    ids: options.ids ?? randomIds,
    logger: options.logger ?? silentLogger,
    model: options.model,
    extraction: { ...DEFAULT_EXTRACTION_OPTIONS, ...options.extraction },
  };
  const runtime: ProcessRuntime = { workerId: options.workerId ?? defaultWorkerId(), stats: emptyStats(), running: new Set(), onStep: options.onExtractionStep };
  const deps: ExtractionDeps = { ...services, ...runtime };
  const base: MemoryDeps = { store: deps.store, embedder: deps.embedder, clock: deps.clock, ids: deps.ids, logger: deps.logger };
  /** `d` with the user's own recent vectors (the guard has checked the user id). */
  const turnOf = <D extends MemoryDeps>(d: D, userId: string): D => ({ ...d, embedder: recent.forUser(userId) });
  /** Runs a forgetting, then drops the user's recent texts: nothing of what they said stays in this process. */
  const forgetting = async <R>(userId: string, run: () => Promise<R>): Promise<R> => {
    try {
      return await run();
    } finally {
      recent.dropUser(userId);
    }
  };
  let lastLifecycle = 0;
  const scheduler = createExtractionScheduler(deps, {
    // Reminders every pass; decay and review once a day.
    afterPass: async () => {
      if (options.notifier) await deliverReminders(deps, options.notifier);
      if (deps.clock.now().getTime() - lastLifecycle >= DAY) {
        lastLifecycle = deps.clock.now().getTime();
        await runDailyLifecycle(deps, { policy: options.decayPolicy });
      }
    },
    onUserChanged: (userId) => mirror(userId),
    onExtracted: (userId, sessionId, report) => options.events?.emit({ type: 'extraction.done', userId, sessionId, report, at: deps.clock.now() }),
  });

  let bound: Promise<void> | undefined;
  /**
   * A store bound to an earlier version of this embedder is re-embedded before the first call goes
   * on (calls meanwhile wait for it; an interrupted one is finished by `engram reindex`, or by the
   * server as it starts: `checkBinding`).
   */
  const upgrade = async (from: string): Promise<void> => {
    const kept = deps.embedder.unchangedUpTo?.[from];
    deps.logger.warn(kept === undefined ? 're-embedding every memory and message: the store was embedded by an earlier version of this embedder' : `re-embedding the memories and messages over ${kept} bytes: the store was embedded by an earlier version of this embedder, which made the shorter ones' vectors as this one does`, { code: 'EMBEDDER_UPGRADE', from, to: deps.embedder.id });
    const { reembedded } = await reindex(deps);
    deps.logger.info('re-embedding done', { embedder: deps.embedder.id, reembedded });
  };
  // Checked once, lazily: an embedder mismatch is reported on first use, and reindex still works.
  const ready = (): Promise<void> => {
    bound ??= ensureEmbedder(deps.store, deps.embedder, upgrade).catch((error: unknown) => {
      bound = undefined;
      throw error;
    });
    return bound;
  };
  const after = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    await ready();
    return fn(...args);
  };
  /**
   * Rewrites the user's mirror files after a change, when a workspace is configured. The change is
   * already stored: a failing mirror is logged, never reported as a failed write (a retrying caller
   * would store it twice); the next write or syncMirror() catches the file up.
   */
  const mirror = async (userId: string): Promise<void> => {
    options.events?.emit({ type: 'memory.changed', userId, at: deps.clock.now() });
    if (!options.workspace) return;
    try {
      await writeMirror(base, options.workspace, userId);
    } catch (error) {
      deps.logger.warn('mirror write failed', { code: 'MIRROR_FAILED', userId, error: String(error) });
    }
  };
  const changing = <A extends [string, ...unknown[]], R>(fn: (...args: A) => Promise<R>) => after(async (...args: A): Promise<R> => {
    const result = await fn(...args);
    await mirror(args[0]);
    return result;
  });
  const workspace = (): string => {
    if (!options.workspace) throw new EngramError('CONFIG_INVALID', 'No workspace folder is configured for the memory.md mirror');
    return options.workspace;
  };

  return guardEngine({
    deps: base,
    add: after(async (input: NewMemoryInput, change?: Partial<ChangeContext>) => {
      const m = await addMemory(base, input, { ...change, actor: change?.actor ?? 'user' });
      await mirror(m.userId);
      return m;
    }),
    get: after(async (userId, id) => {
      const m = await deps.store.getMemory(userId, id);
      if (!m) throw new NotFoundError('Memory', id);
      return m;
    }),
    list: after(async (options) => {
      if (typeof options !== 'object' || options === null) throw new InvalidInputError('list() takes one options object');
      const { includeExpired = true, ...query } = options;
      return deps.store.listMemories({ ...query, notExpiredAt: includeExpired ? undefined : deps.clock.now() });
    }),
    update: changing((userId, id, patch, change, options) => updateMemory(base, userId, id, patch, change, options)),
    delete: changing((userId, id, change, options) => deleteMemory(base, userId, id, change, options)),
    restore: changing((userId, id, change, options) => restoreMemory(base, userId, id, change, options)),
    purge: changing((userId, id, change, options) => forgetting(userId, () => purgeMemory(base, userId, id, change, options))),
    history: after((userId, id) => deps.store.history(userId, id)),
    relations: after((userId, id) => deps.store.relationsOf(userId, id)),
    relate: after((input) => relateMemories(base, input)),
    unrelate: after((userId, id) => unrelateMemories(base, userId, id)),

    recall: after((o) => recall(base, o)),
    context: after((o) => buildContext(turnOf(base, o.userId), o)),
    searchMessages: after(async (o) => (await searchMessages(base, o)).map((found) => ({ ...found, message: ownMessage(found.message) }))),
    forgetRequest: after(async (o) => {
      const { userId, sessionId, content } = parseInput(ForgetRequestInput, o, 'forget request');
      const request = await forgetRequestOf(deps, { userId, sessionId, content });
      return request ? { topic: requestLabel(request), ...(request.when ? { time: true } : {}) } : undefined;
    }),

    appendMessages: after(async (o) => {
      const users = new Set(o.messages.map((m) => m.userId));
      const result = await appendMessages(users.size === 1 ? turnOf(base, [...users][0]!) : base, o);
      const forgotten: ForgottenOnRequest[] = [];
      for (const m of result.appended) {
        const request = forgetAskedIn(m);
        if (!request) continue;
        const done = await forgetting(m.userId, () => forgetAsked(deps, m, request));
        if (!done) continue;
        forgotten.push(done);
        await mirror(m.userId);
      }
      // Overflow trigger: a session with too many unprocessed messages is extracted without waiting
      // for silence, unless its last attempt failed and the retry is not due yet: every message
      // would otherwise call the model again (and a failing one was marked failed within seconds).
      const touched = new Map(result.appended.map((m) => [`${m.userId}\u0000${m.sessionId}`, m]));
      for (const m of touched.values()) {
        const [session, settings] = await Promise.all([deps.store.getSession(m.userId, m.sessionId), resolveSettings(deps.store, m.userId)]);
        const unprocessed = session ? m.seq - session.processedSeq : 0;
        if (session && unprocessed >= settings.overflowMessages && dueTrigger(session, unprocessed, settings, deps.clock.now())) scheduler.nudge(m.userId, m.sessionId);
      }
      return forgotten.length > 0 ? { ...result, forgotten } : result;
    }),
    workingWindow: after(async (userId, sessionId, size = 30) => (await deps.store.listMessages({ userId, sessionId, order: 'desc', limit: size })).reverse()),
    getSession: after(async (userId, sessionId) => {
      const session = await deps.store.getSession(userId, sessionId);
      if (!session) throw new NotFoundError('Session', sessionId);
      return session;
    }),
    endSession: after(async (userId, sessionId) => {
      await deps.store.endSession(userId, sessionId, deps.clock.now());
      scheduler.nudge(userId, sessionId, { summarize: true });
    }),
    extract: changing(async (userId, sessionId) => {
      const report = await extractSession(deps, userId, sessionId, { force: true });
      options.events?.emit({ type: 'extraction.done', userId, sessionId, report, at: deps.clock.now() });
      return report;
    }),
    extractionRuns: (userId, sessionId) => deps.store.listExtractionRuns(userId, sessionId),
    reportReply: after((input) => reportReply(turnOf(deps, input.userId), input)),
    getSettings: (userId) => resolveSettings(deps.store, userId),
    setSettings: (userId, patch) => updateSettings(deps.store, userId, patch),

    summarize: after((userId, sessionId) => summarizeSession(deps, userId, sessionId)),
    profile: (userId) => deps.store.latestProfile(userId),
    profileVersions: (userId) => deps.store.profileVersions(userId),
    updateProfile: after((userId, o) => updateProfile(deps, userId, o)),
    recordLearning: after(async (input, change) => {
      const m = await recordLearning(base, input, change);
      await mirror(m.userId);
      return m;
    }),
    recallLearnings: after((input) => recallLearnings(base, input)),

    runLifecycle: after((o = {}) => runLifecycle(deps, { ...o, policy: options.decayPolicy })),
    compress: changing((userId) => compressMemories(deps, userId)),
    // A todo whose memory was deleted is withdrawn: not listed unless asked for (`live: false`).
    listTodos: (o) => deps.store.listTodos({ live: true, ...o }),
    editTodo: changing((userId, id, edit, change) => editTodo(base, userId, id, edit, change)),
    completeTodo: changing((userId, id, options, change) => completeTodo(base, userId, id, options, change)),
    deleteTodo: changing((userId, id) => deleteTodo(base, userId, id)),
    deliverReminders: async () => {
      if (!options.notifier) throw new EngramError('CONFIG_INVALID', 'No notifier is configured for reminders');
      return deliverReminders(deps, options.notifier);
    },

    forget: ({ userId }) => forgetting(userId, () => forgetUser(deps, userId, { workspace: options.workspace })),
    forgetTopic: changing((userId, topic) => forgetting(userId, () => forgetTopic(deps, userId, topic))),
    forgetSession: after((o) => forgetting(o.userId, () => forgetSession(deps, o))),
    forgottenOnRequest: after((userId) => forgottenOnRequest(base, userId)),
    undoForgotten: changing((userId, id) => forgetting(userId, () => undoForgotten(base, userId, id))),
    eraseForgotten: changing((userId, id) => forgetting(userId, () => eraseForgotten(base, userId, id))),
    syncMirror: after((userId) => syncMirror(base, workspace(), userId)),
    exportUser: after((userId) => exportUser(base, userId)),
    importUser: after((data, o) => importUser(base, data, o)),

    startScheduler: (intervalMs) => scheduler.start(intervalMs),
    stopScheduler: () => scheduler.stop(),
    tick: after(() => scheduler.tick()),
    idle: () => scheduler.idle(),
    stats: () => ({ extraction: { ...deps.stats }, usage: options.model?.usage?.snapshot() }),
    reindex: async (o) => {
      const result = await reindex(deps, o);
      bound = Promise.resolve();
      return result;
    },
    ready: () => ready(),
    reindexStatus: () => reindexStatus(deps),
    backup: (o) => backupStore(deps.store, o),
    close: async () => {
      await scheduler.stop();
      await deps.store.close();
      await deps.embedder.close?.();
    },
  });
}
