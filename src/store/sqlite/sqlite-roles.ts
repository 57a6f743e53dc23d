import type Database from 'better-sqlite3';
import type { IdGenerator } from '../../deps.js';
import type { LeaseTask } from '../ports/sessions.js';
import { BoundVectors } from './bound-vectors.js';
import { ExtractionTables } from './extraction-tables.js';
import { ForgottenTables } from './forgotten-tables.js';
import { JobLeases } from './job-leases.js';
import type { KeywordCacheOptions } from './keyword-cache.js';
import { KeywordIndex } from './keyword-index.js';
import { LifecycleTables } from './lifecycle-tables.js';
import { MemoryTables } from './memory-tables.js';
import { MessageTables } from './message-tables.js';
import type { MessageCacheOptions } from './message-cache.js';
import type { RankingCacheOptions } from './ranking-cache.js';
import { TodoTables } from './todo-tables.js';
import type { VectorSearchOptions } from './vector-index.js';

/** The table classes of one connection, shared by a store and its transaction views. */
export interface Shared {
  keywords: KeywordIndex;
  memories: MemoryTables;
  messages: MessageTables;
  extraction: ExtractionTables;
  todos: TodoTables;
  lifecycle: LifecycleTables;
  bound: BoundVectors;
  jobs: JobLeases;
  forgotten: ForgottenTables;
}

export function sharedTables(db: Database.Database, ids: IdGenerator, vectorSearch?: VectorSearchOptions, keywordSearch?: KeywordCacheOptions, rankingCache?: RankingCacheOptions, messageCache?: MessageCacheOptions): Shared {
  const todos = new TodoTables(db);
  const keywords = new KeywordIndex(db, 'memory_fts', keywordSearch);
  const lifecycle = new LifecycleTables(db, todos);
  const bound = new BoundVectors(db, vectorSearch);
  return {
    keywords,
    memories: new MemoryTables(db, keywords, ids, () => bound.current(), rankingCache),
    messages: new MessageTables(db, keywordSearch, messageCache),
    extraction: new ExtractionTables(db),
    todos,
    lifecycle,
    bound,
    jobs: new JobLeases(db),
    forgotten: new ForgottenTables(db),
  };
}

/** Runs synchronous work under the connection lock (or directly inside a transaction). */
export type Run = <T>(fn: () => T) => Promise<T>;

/** The async, locked form of synchronous methods: what a role port declares. */
export type Locked<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never };

type Methods = Record<string, (...args: never[]) => unknown>;

/** Each method of `role`, run under `run`. The compiler checks the result against the ports (SqliteStore implements Store). */
function locked<T extends Methods>(run: Run, role: T): Locked<T> {
  const out: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(role)) out[name] = (...args: never[]) => run(() => method(...args));
  return out as Locked<T>;
}

/**
 * The store methods that are one statement group of one table class, named as the ports name
 * them. Methods that span tables, open their own transaction or touch the vector binding stay in
 * SqliteStore. `read` runs the ones that only read and open no transaction (the caches check the
 * data version once per call, see `readOnce`).
 */
export function sqliteRoles(t: Shared, run: Run, read: Run = run) {
  const { memories: m, messages, extraction: e, todos, lifecycle: l, jobs, forgotten: f } = t;
  return {
    ...locked(run, {
      insertMemory: m.insertMemory.bind(m),
      updateMemory: m.updateMemory.bind(m),
      importMemory: m.importMemory.bind(m),
    }),
    ...locked(read, {
      getMemory: m.getMemory.bind(m),
      listMemories: m.listMemories.bind(m),
      listRankingFields: m.listRankingFields.bind(m),
      countMemories: m.countMemories.bind(m),
      history: m.history.bind(m),
      historyOfUser: m.historyOfUser.bind(m),
      searchVector: m.searchVector.bind(m),
      searchKeyword: m.searchKeyword.bind(m),
      vectorsOf: m.vectorsOf.bind(m),
      vectorScores: m.vectorScores.bind(m),
    }),
    ...locked(read, {
      getSession: messages.session.bind(messages),
      listMessages: messages.list.bind(messages),
      messageNeighbours: messages.neighbours.bind(messages),
    }),
    ...locked(run, {
      acquireSessionLease: (userId: string, sessionId: string, owner: string, now: Date, until: Date, options: { isAbandoned?: (owner: string) => boolean; task?: LeaseTask } = {}) =>
        e.acquireLease(userId, sessionId, owner, now, until, options.isAbandoned, options.task),
      renewSessionLease: e.renewLease.bind(e),
      holdsSessionLease: e.holdsLease.bind(e),
      releaseSessionLease: e.releaseLease.bind(e),
      sessionsWithBacklog: e.backlog.bind(e),
      markProcessed: e.markProcessed.bind(e),
      recordExtractionFailure: e.recordFailure.bind(e),
      endSession: e.endSession.bind(e),
      recordExtractionRun: e.recordRun.bind(e),
      listExtractionRuns: e.runs.bind(e),
      ownSettings: e.ownSettings.bind(e),
      setSettings: e.setSettings.bind(e),
    }),
    ...locked(run, {
      insertTodo: todos.insert.bind(todos),
      updateTodo: todos.update.bind(todos),
    }),
    ...locked(read, {
      listTodos: todos.list.bind(todos),
      latestProfile: l.latestProfile.bind(l),
      getSettings: e.settings.bind(e),
    }),
    ...locked(run, {
      insertRelation: l.insertRelation.bind(l),
      deleteRelation: l.deleteRelation.bind(l),
      relationsOf: l.relationsOf.bind(l),
      relationsOfUser: l.relationsOfUser.bind(l),
      profileVersions: l.profileVersions.bind(l),
      insertProfile: l.insertProfile.bind(l),
      sessionsToSummarize: l.sessionsToSummarize.bind(l),
      markSummarized: l.markSummarized.bind(l),
      dueReminders: l.dueReminders.bind(l),
      recordDeliveryFailure: l.recordDeliveryFailure.bind(l),
      deliveriesOf: l.deliveriesOf.bind(l),
      userIds: l.userIds.bind(l),
    }),
    ...locked(run, {
      acquireJobLease: jobs.acquire.bind(jobs),
      releaseJobLease: jobs.release.bind(jobs),
    }),
    ...locked(run, {
      saveForgotten: f.save.bind(f),
      deleteForgotten: f.delete.bind(f),
      deleteExpiredForgotten: f.deleteExpired.bind(f),
    }),
    ...locked(read, {
      listForgotten: f.list.bind(f),
      getForgotten: f.get.bind(f),
    }),
  };
}

export type SqliteRoles = ReturnType<typeof sqliteRoles>;
