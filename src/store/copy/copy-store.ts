import type { Message, Session } from '../../domain/conversation.js';
import type { HistoryEvent } from '../../domain/history.js';
import { EngramError } from '../../errors.js';
import type { KeyStore } from '../ports/keys.js';
import type { Store } from '../store.js';
import { COUNTED_TABLES, countRows, type CountedTable } from './count-rows.js';

export interface CopyStoreOptions {
  from: Store;
  to: Store;
  /** The key stores over the same databases; keys are copied when both are given. */
  fromKeys?: KeyStore | null;
  toKeys?: KeyStore | null;
  /** Copy into a target that already holds data; rows already there (by id) are skipped. @default false */
  intoExisting?: boolean;
  /** Called after each user is copied. */
  onProgress?: (done: number, total: number) => void;
  /** When copied todos with failed deliveries are retried. @default new Date() */
  now?: Date;
}

export interface CopyStoreReport {
  users: number;
  keys: number;
  counts: Array<{ table: CountedTable; source: number; target: number }>;
  /** Every table's target count equals the source's (at least the source's with intoExisting). */
  verified: boolean;
}

const ALL_STATUSES = ['active', 'archived', 'deleted'] as const;

/**
 * Copies one store into another through the Store port only (so any adapter pair works: SQLite to
 * PostgreSQL included), user by user, each user in one target transaction, then counts every
 * table on both sides. A run interrupted or repeated with `intoExisting` skips what is there.
 * Every user with any row is copied (userIds() lists them, settings-only users included). Not
 * copied (the port has no reader for them): extraction leases (transient) and forget fences.
 */
export async function copyStore(options: CopyStoreOptions): Promise<CopyStoreReport> {
  const { from, to } = options;
  const userIds = (await from.userIds()).sort();
  if (!options.intoExisting && !(await isEmpty(to, options.toKeys ?? null))) {
    throw new EngramError('CONFLICT', 'The target store is not empty: pass --into-existing to copy into it anyway (rows already there are skipped)');
  }
  const embedder = await from.embedderInfo();
  if (embedder) await to.bindEmbedder(embedder);
  const star = await from.ownSettings('*');
  if (Object.keys(star).length > 0) await to.setSettings('*', star);
  let keys = 0;
  if (options.fromKeys && options.toKeys) keys = await options.toKeys.importKeys(await options.fromKeys.exportKeys());
  for (const [i, userId] of userIds.entries()) {
    await to.transaction((tx) => copyUser(from, tx, userId, options.now ?? new Date()));
    options.onProgress?.(i + 1, userIds.length);
  }
  const source = await countRows(from, options.fromKeys ?? null, userIds);
  const target = await countRows(to, options.toKeys ?? null, userIds);
  const counts = COUNTED_TABLES.map((table) => ({ table, source: source[table], target: target[table] }));
  const verified = counts.every((c) => (options.intoExisting ? c.target >= c.source : c.target === c.source));
  return { users: userIds.length, keys, counts, verified };
}

async function isEmpty(store: Store, keys: KeyStore | null): Promise<boolean> {
  if ((await store.userIds()).length > 0) return false;
  if (Object.keys(await store.ownSettings('*')).length > 0) return false;
  return keys === null || (await keys.exportKeys()).length === 0;
}

async function copyUser(from: Store, to: Store, userId: string, now: Date): Promise<void> {
  await copyMemories(from, to, userId);
  const seqs = await copyMessages(from, to, userId);
  const todos = await from.listTodos({ userId });
  const takenTodos = await to.takenIds('todos', todos.map((t) => t.id));
  for (const todo of todos.filter((t) => !takenTodos.has(t.id))) {
    await to.insertTodo(todo);
    // recordDelivery also sets the reminded mark: restore the todo's own state after it.
    for (const d of await from.deliveriesOf(userId, todo.id)) await to.recordDelivery(userId, todo.id, d.id, d.at);
    await to.updateTodo(userId, todo.id, { reminded: todo.reminded });
    for (let n = 0; n < todo.deliveryAttempts; n++) await to.recordDeliveryFailure(userId, todo.id, todo.lastDeliveryError ?? 'delivery failed', now);
  }
  const had = new Set((await to.profileVersions(userId)).map((p) => p.version));
  for (const p of (await from.profileVersions(userId)).sort((a, b) => a.version - b.version)) if (!had.has(p.version)) await to.insertProfile(p);
  const relations = await from.relationsOfUser(userId);
  const takenRelations = await to.takenIds('relations', relations.map((r) => r.id));
  for (const r of relations) if (!takenRelations.has(r.id)) await to.insertRelation(r);
  const settings = await from.ownSettings(userId);
  if (Object.keys(settings).length > 0) await to.setSettings(userId, settings);
  for (const [sessionId, map] of seqs) await copySessionState(from, to, userId, sessionId, map);
}

/** Memories of every status with their vectors and full history; history of purged ones too. */
async function copyMemories(from: Store, to: Store, userId: string): Promise<void> {
  const memories = await from.listMemories({ userId, statuses: ALL_STATUSES, orderBy: 'createdAt', order: 'asc' });
  const history = new Map<string, HistoryEvent[]>();
  for (const e of await from.historyOfUser(userId)) history.set(e.memoryId, [...(history.get(e.memoryId) ?? []), e]);
  const vectors = await from.vectorsOf(userId, memories.map((m) => m.id));
  const takenMemories = await to.takenIds('memories', memories.map((m) => m.id));
  for (const m of memories) {
    if (!takenMemories.has(m.id)) await to.importMemory(m, vectors.get(m.id) ?? null, history.get(m.id) ?? []);
    history.delete(m.id);
  }
  for (const events of history.values()) {
    const taken = await to.takenIds('history', events.map((e) => e.id));
    const fresh = events.filter((e) => !taken.has(e.id));
    if (fresh.length > 0) await to.importMemory(null, null, fresh);
  }
}

/** Messages session by session in order; returns each session's source seq → target seq. */
async function copyMessages(from: Store, to: Store, userId: string): Promise<Map<string, Map<number, number>>> {
  const embedder = await from.embedderInfo();
  const bySession = new Map<string, Message[]>();
  for (const m of await from.listMessages({ userId })) bySession.set(m.sessionId, [...(bySession.get(m.sessionId) ?? []), m]);
  const seqs = new Map<string, Map<number, number>>();
  for (const [sessionId, messages] of bySession) {
    messages.sort((a, b) => a.seq - b.seq);
    const vectors = await from.messageVectorsOf(userId, messages.map((m) => m.id));
    await to.appendMessages(userId, sessionId, messages.map((m) => ({
      id: m.id, role: m.role, content: m.content, createdAt: m.createdAt,
      ...(m.callerId ? { callerId: m.callerId } : {}), ...(m.expiresAt ? { expiresAt: m.expiresAt } : {}),
      vector: vectors.get(m.id) ?? null, ...(embedder && vectors.has(m.id) ? { embedderId: embedder.id } : {}),
    })));
    const stored = new Map((await to.listMessages({ userId, sessionId })).map((m) => [m.id, m.seq]));
    seqs.set(sessionId, new Map(messages.map((m) => [m.seq, stored.get(m.id) ?? -1])));
  }
  return seqs;
}

/** The target seq covering a source watermark: the last copied message at or below it (-1: none). */
function mapSeq(map: Map<number, number>, seq: number): number {
  let out = -1;
  for (const [source, target] of map) if (source <= seq && target > out) out = target;
  return out;
}

/** Watermarks, failure state, end, episode watermark and extraction runs of one session. */
async function copySessionState(from: Store, to: Store, userId: string, sessionId: string, map: Map<number, number>): Promise<void> {
  const s: Session | null = await from.getSession(userId, sessionId);
  if (!s) return;
  if (s.processedSeq >= 0 && s.lastProcessedMessageId) await to.markProcessed(userId, sessionId, mapSeq(map, s.processedSeq), s.lastProcessedMessageId, s.processedAt ?? s.lastActiveAt);
  if (s.extractionState !== 'ok') await to.recordExtractionFailure(userId, sessionId, { error: s.lastError ?? 'unknown', failures: s.failures, state: s.extractionState, nextAttemptAt: s.nextAttemptAt ?? s.lastActiveAt });
  if (s.endedAt) await to.endSession(userId, sessionId, s.endedAt);
  if (s.summarizedSeq >= 0 || s.summaryRetryAt) await to.markSummarized(userId, sessionId, mapSeq(map, s.summarizedSeq), s.summaryRetryAt ?? null, s.summaryFailures);
  const had = new Set((await to.listExtractionRuns(userId, sessionId)).map((r) => r.id));
  for (const run of await from.listExtractionRuns(userId, sessionId)) {
    if (!had.has(run.id)) await to.recordExtractionRun({ ...run, fromSeq: mapSeq(map, run.fromSeq), throughSeq: mapSeq(map, run.throughSeq) });
  }
}
