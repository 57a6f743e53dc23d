import type { Message } from '../domain/conversation.js';
import type { Memory } from '../domain/memory.js';
import type { AliasedMemory, ExtractionMessage, ExtractionResult } from '../domain/operations.js';
import type { ExtractionSettings } from '../domain/settings.js';
import { EngramError, NotFoundError } from '../errors.js';
import { extractHeuristically } from '../extraction/heuristic/heuristic-extractor.js';
import { isSmallTalkBatch } from '../extraction/heuristic/small-talk.js';
import { planOperations, type Rejected } from '../extraction/plan-operations.js';
import { extractMemoriesPrompt } from '../prompts/extract-memories.js';
import { promptRef } from '../prompts/prompt.js';
import { applyPlan } from './apply-plan.js';
import { buildEpisode, MIN_EPISODE_MESSAGES } from './summarize-session.js';
import { detectLanguage } from '../text/language.js';
import type { EngineDeps } from './deps.js';
import { recall } from './recall.js';
import { centroid } from '../embedders/centroid.js';
import { memoEmbedder } from '../embedders/memo-embedder.js';
import { resolveSettings } from './settings.js';
import type { ExtractionRun, Store } from '../store/store.js';
import { holdLease } from './extraction-lease.js';
import { checkForgetAsks, forgetAsked, type ForgottenOnRequest } from './forget-asked.js';
import { undoneRequest } from './forget-undo.js';
import type { ForgetRequest } from '../extraction/forget-request.js';

export { DEFAULT_EXTRACTION_OPTIONS, type ExtractionOptions } from './extraction-options.js';

const FAILED_RETRY_MS = 6 * 3_600_000;


/**
 * Everything extraction uses: the engine's services and this process's runtime state (see
 * deps.ts). The name is kept for existing callers; new code takes a slice (EngineDeps, ModelDeps…).
 */
export type ExtractionDeps = EngineDeps;

/** Seed 002's POST /extract-memories response, plus what was rejected. */
export interface ExtractReport {
  sessionId: string;
  status: 'applied' | 'skipped' | 'nothing' | 'busy' | 'failed' | 'disabled';
  added: number;
  updated: number;
  deleted: number;
  reinforced: number;
  /** True when the batch held nothing worth remembering. */
  skipped: boolean;
  reason: string;
  rejected: Rejected[];
  messages: number;
  extractor?: string;
  error?: { code: string; message: string };
  /** Topics the model read the user asking to forget, and what went (as `appendMessages` reports a request read at append). */
  forgotten?: ForgottenOnRequest[];
}

const empty = (sessionId: string, status: ExtractReport['status'], reason: string): ExtractReport => ({
  sessionId, status, added: 0, updated: 0, deleted: 0, reinforced: 0, skipped: status === 'skipped', reason, rejected: [], messages: 0,
});

const toExtraction = (m: Message): ExtractionMessage => ({ id: m.id, role: m.role, content: m.content, createdAt: m.createdAt });

/**
 * Extracts memories from one session's new messages (those after its watermark), exactly once:
 * every operation, its history, the todo rows and the watermark move commit in one transaction.
 * A failure leaves the watermark where it was and schedules a retry; it never throws.
 */
export async function extractSession(deps: ExtractionDeps, userId: string, sessionId: string, options: { force?: boolean } = {}): Promise<ExtractReport> {
  const key = `extract\u0000${userId}\u0000${sessionId}`;
  if (deps.running.has(key)) return empty(sessionId, 'busy', 'this session is being extracted already');
  deps.running.add(key);
  try {
    return await extractLeased(deps, userId, sessionId, options);
  } finally {
    deps.running.delete(key);
  }
}

/**
 * Deps whose embedder answers `query` (the batch's user turns joined) with the unit mean of the
 * vectors those turns were stored with, when each has one: the joined text is not embedded again.
 * With the bundled model that embedding was the whole cost of an overflow extraction (about 75 ms
 * for 15 turns in the embedder's thread), and a chat's query waited behind it: the proxy bench's
 * bundled row stalled 67–92 ms every 30 messages (bench/results/2026-11-26-s15.md).
 */
async function searchedByStoredVectors<D extends ExtractionDeps>(deps: D, userId: string, query: string, turns: readonly Message[]): Promise<D> {
  const stored = await deps.store.messageVectorsOf(userId, turns.map((m) => m.id));
  if (stored.size < turns.length) return deps;
  const vector = centroid([...stored.values()]);
  if (!vector || vector.length !== deps.embedder.dimensions) return deps;
  return { ...deps, embedder: memoEmbedder(deps.embedder, new Map([[query, vector]])) };
}

async function extractLeased(deps: ExtractionDeps, userId: string, sessionId: string, options: { force?: boolean }): Promise<ExtractReport> {
  const now = deps.clock.now();
  const settings = await resolveSettings(deps.store, userId);
  if (!settings.extractionEnabled && !options.force) return empty(sessionId, 'disabled', 'extraction is disabled');
  if (!(await deps.store.getSession(userId, sessionId))) throw new NotFoundError('Session', sessionId);
  const lease = await holdLease(deps, userId, sessionId);
  if (!lease) return empty(sessionId, 'busy', 'another worker is extracting this session');
  let batch: Message[] = [];
  // Which step failed, so an untyped error is reported for what it is (not always STORE_FAILED).
  let stage: FailedStage = 'store';
  try {
    // Forgetting wins over this run: read the user's forget generation before the slow model call, check it at commit.
    const generation = await deps.store.forgetGeneration(userId);
    const session = await deps.store.getSession(userId, sessionId);
    if (!session) throw new NotFoundError('Session', sessionId);
    batch = await deps.store.listMessages({ userId, sessionId, afterSeq: session.processedSeq, limit: deps.extraction.maxBatch });
    const last = batch.at(-1);
    if (!last) return empty(sessionId, 'nothing', 'no new messages');
    await deps.onStep?.('loaded');
    deps.stats.batches++;
    const fromSeq = batch[0]!.seq;
    const run = { id: deps.ids.next(), userId, sessionId, fromSeq, throughSeq: last.seq, at: now };

    if (isSmallTalkBatch(batch)) {
      const reason = 'small talk only: nothing to remember';
      await deps.store.transaction(async (tx) => {
        await lease.fence(tx);
        await tx.markProcessed(userId, sessionId, last.seq, last.id, now);
        await tx.recordExtractionRun({ ...run, extractor: 'small-talk', outcome: 'skipped', counts: {}, rejected: [], reason });
      });
      deps.stats.smallTalkSkipped++;
      return { ...empty(sessionId, 'skipped', reason), messages: batch.length, extractor: 'small-talk' };
    }

    const context = settings.contextMessages === 0 ? [] : (await deps.store.listMessages({ userId, sessionId, throughSeq: session.processedSeq, order: 'desc', limit: settings.contextMessages })).reverse();
    const userTurns = batch.filter((m) => m.role === 'user');
    const query = userTurns.map((m) => m.content).join('\n').slice(0, 4000) || last.content;
    stage = 'recall';
    const searched = await searchedByStoredVectors(deps, userId, query, userTurns.length > 0 ? userTurns : [last]);
    const recalled = (await recall(searched, { userId, query, limit: 10, touch: false })).map((r) => r.memory);
    const related = [...recalled, ...(await upcomingTodoMemories(deps, userId, recalled))];
    const aliases = new Map(related.map((m, i) => [String(i + 1), m]));
    const refs = new Map<string, string>();
    batch.forEach((m, i) => {
      refs.set(`m${i + 1}`, m.id);
      refs.set(m.id, m.id);
    });

    // One call, two layers: a batch that is everything not yet summarised gets its episode from the
    // same model call (seed 003's fields); smaller or partial batches are left to summarize-session.
    const summarize = deps.model !== undefined && session.summarizedSeq === session.processedSeq && session.summaryRetryAt === undefined && batch.length >= MIN_EPISODE_MESSAGES;
    stage = 'model';
    const { result, extractor } = await runExtractor(deps, settings, batch, context, [...aliases].map(([alias, m]) => ({ alias, kind: m.kind, content: m.content, createdAt: m.createdAt })), last.createdAt, summarize);
    await deps.onStep?.('extracted');
    const plan = planOperations({ result, aliases, refs, defaultMessageIds: batch.filter((m) => m.role === 'user').map((m) => m.id) });
    const forgets = checkForgetAsks(result.forget ?? [], refs, batch, context);
    const rejected = [...plan.rejected, ...forgets.rejected];
    stage = 'embedding';
    const prepared = await applyPlan.prepare(deps, { userId, sessionId, plan, settings, batch, producedBy: extractor === 'heuristic' ? undefined : extractor });
    const episode = summarize && result.episode
      ? await buildEpisode(deps, { userId, sessionId, summary: result.episode, messages: batch, summarizer: extractor, language: detectLanguage(batch.filter((m) => m.role === 'user').map((m) => m.content).join(' ')) })
      : undefined;
    await deps.onStep?.('embedded');
    stage = 'store';
    const counts = { added: plan.adds.length, updated: plan.updates.length, deleted: plan.deletes.length, reinforced: plan.reinforces.length };
    const nothing = counts.added + counts.updated + counts.deleted + counts.reinforced === 0 && forgets.accepted.length === 0;
    const stale = await deps.store.transaction(async (tx) => {
      // A forget that overtook this batch wins over everything, a lost lease included (forgetting a
      // user erases the session row, and with it the lease).
      if ((await tx.forgetGeneration(userId)) !== generation) return await dropForgotten(tx, { ...run, extractor }, last);
      await lease.fence(tx);
      await applyPlan.commit(tx, prepared);
      await deps.onStep?.('applying');
      await tx.markProcessed(userId, sessionId, last.seq, last.id, now);
      const fresh = episode ? await tx.getSession(userId, sessionId) : null;
      if (episode && fresh && fresh.summarizedSeq < last.seq) {
        await tx.insertMemory(episode.memory, episode.vector, episode.change);
        await tx.markSummarized(userId, sessionId, last.seq, null, 0);
      }
      await tx.recordExtractionRun({ ...run, extractor, outcome: nothing ? 'skipped' : 'applied', counts, rejected, reason: result.reason });
      return undefined;
    });
    if (stale) {
      deps.logger.warn('extraction dropped: the user forgot something while it ran', { userId, sessionId });
      return { ...empty(sessionId, 'skipped', stale), messages: batch.length, extractor };
    }
    await deps.onStep?.('committed');
    for (const r of rejected) deps.logger.warn('extraction operation rejected', { code: 'MODEL_OUTPUT_INVALID', userId, sessionId, ...r });
    // After the commit, as a request read at append is acted on after the message is stored: what
    // the batch added about the topic goes with it.
    const forgotten = await forgetAskedInBatch(deps, forgets.accepted);
    Object.assign(deps.stats, {
      added: deps.stats.added + counts.added,
      updated: deps.stats.updated + counts.updated,
      deleted: deps.stats.deleted + counts.deleted,
      reinforced: deps.stats.reinforced + counts.reinforced,
      rejected: deps.stats.rejected + rejected.length,
    });
    return { sessionId, status: nothing ? 'skipped' : 'applied', ...counts, skipped: nothing, reason: result.reason || plan.skips.join('; '), rejected, messages: batch.length, extractor, ...(forgotten.length > 0 ? { forgotten } : {}) };
  } catch (error) {
    if (EngramError.isInstance(error) && error.code === 'NOT_FOUND') throw error;
    if (lease.lost(error)) return await recordLeaseLost(deps, userId, sessionId, batch, error as EngramError);
    return await recordFailure(deps, userId, sessionId, batch, error, stage);
  } finally {
    await lease.release();
  }
}

/**
 * Acts on the forget requests the model read (checked by `checkForgetAsks`), each as a request read
 * at append is (`forgetAsked`: memories deleted restorably, messages into the request's trash),
 * except one the user undid. One that fails is logged and left; the batch stays applied, and the
 * others go on.
 */
async function forgetAskedInBatch(deps: ExtractionDeps, asks: ReadonlyArray<{ message: Message; request: ForgetRequest }>): Promise<ForgottenOnRequest[]> {
  const forgotten: ForgottenOnRequest[] = [];
  for (const { message, request } of asks) {
    try {
      // Brought back by the user's undo (the request is among the restored turns): asked once, undone once.
      if (await undoneRequest(deps, message.userId, message.id)) {
        deps.logger.info('a forget request the user undid is not acted on again', { userId: message.userId, messageId: message.id });
        continue;
      }
      const done = await forgetAsked(deps, message, request);
      if (done) forgotten.push(done);
    } catch (error) {
      deps.logger.warn('forgetting a topic the model read as asked failed; nothing more was forgotten for it', { code: EngramError.isInstance(error) ? error.code : 'STORE_FAILED', userId: message.userId, messageId: message.id, topic: request.topic, error: String(error) });
    }
  }
  return forgotten;
}

export const FORGOTTEN_WHILE_EXTRACTING = 'dropped: something was forgotten while this batch was being extracted';

/**
 * Drops a batch that a forget overtook. When the session is still there (a topic or a memory was
 * forgotten) its watermark moves past the batch and the run is recorded as skipped, so the
 * forgotten text is not mined again; after a whole-user forget nothing is written at all.
 */
async function dropForgotten(tx: Store, run: Omit<ExtractionRun, 'outcome' | 'counts' | 'rejected'>, last: Message): Promise<string> {
  if (await tx.getSession(run.userId, run.sessionId)) {
    await tx.markProcessed(run.userId, run.sessionId, last.seq, last.id, run.at);
    await tx.recordExtractionRun({ ...run, outcome: 'skipped', counts: {}, rejected: [], reason: FORGOTTEN_WHILE_EXTRACTING });
  }
  return FORGOTTEN_WHILE_EXTRACTING;
}

/** Another worker owns the batch now: nothing was applied here, and its failure count is not ours to raise. */
async function recordLeaseLost(deps: ExtractionDeps, userId: string, sessionId: string, batch: Message[], error: EngramError): Promise<ExtractReport> {
  deps.logger.warn('extraction lease lost before commit; batch left to the new owner', { code: error.code, userId, sessionId });
  await deps.store.recordExtractionRun({
    id: deps.ids.next(), userId, sessionId, fromSeq: batch[0]?.seq ?? -1, throughSeq: batch.at(-1)?.seq ?? -1,
    extractor: deps.model ? promptRef(extractMemoriesPrompt) : 'heuristic', outcome: 'failed', counts: {}, rejected: [], error: `${error.code}: ${error.message}`, at: deps.clock.now(),
  });
  return { ...empty(sessionId, 'busy', 'the lease was lost to another worker before commit; nothing applied'), messages: batch.length, error: { code: error.code, message: error.message } };
}

async function runExtractor(deps: ExtractionDeps, settings: ExtractionSettings, batch: Message[], context: Message[], existing: AliasedMemory[], now: Date, summarize: boolean): Promise<{ result: ExtractionResult; extractor: string }> {
  if (!deps.model) {
    deps.stats.heuristicRuns++;
    return { result: extractHeuristically({ messages: batch.map(toExtraction), existing, timeZone: settings.timeZone }), extractor: 'heuristic' };
  }
  const line = (prefix: string) => (m: Message, i: number) => ({ ref: `${prefix}${i + 1}`, role: m.role, content: m.content, time: m.createdAt.toISOString().slice(0, 16) });
  deps.stats.modelCalls++;
  const { output } = await deps.model.generate(extractMemoriesPrompt, {
    now: now.toISOString(),
    timeZone: settings.timeZone,
    existing: existing.map((m) => ({ alias: m.alias, kind: m.kind, content: m.content, date: m.createdAt.toISOString().slice(0, 10) })),
    context: context.map(line('c')),
    messages: batch.map(line('m')),
    summarize,
  });
  return { result: output, extractor: promptRef(extractMemoriesPrompt) };
}

type FailedStage = 'recall' | 'model' | 'embedding' | 'store';
const STAGE_CODES = { recall: 'EMBEDDING_FAILED', model: 'MODEL_FAILED', embedding: 'EMBEDDING_FAILED', store: 'STORE_FAILED' } as const;
const STAGE_NAMES = { recall: 'embedding the query for related memories', model: 'the extractor', embedding: 'the embedder', store: 'the store' } as const;

async function recordFailure(deps: ExtractionDeps, userId: string, sessionId: string, batch: Message[], error: unknown, stage: FailedStage): Promise<ExtractReport> {
  const code = EngramError.isInstance(error) ? error.code : STAGE_CODES[stage];
  const raw = error instanceof Error ? error.message : String(error);
  const message = EngramError.isInstance(error) ? raw : `${STAGE_NAMES[stage]} failed: ${raw}`;
  deps.stats.failures++;
  const session = await deps.store.getSession(userId, sessionId);
  const failures = (session?.failures ?? 0) + 1;
  const state = failures >= deps.extraction.maxFailures ? 'failed' : 'retrying';
  // A failed session is still retried, slowly: a later success clears the mark.
  const delay = state === 'failed' ? FAILED_RETRY_MS : Math.min(deps.extraction.retryBaseMs * 2 ** (failures - 1), 3_600_000);
  const now = deps.clock.now();
  deps.logger.warn('extraction failed; watermark kept, will retry', { code, userId, sessionId, failures, state, error: message });
  await deps.store.recordExtractionFailure(userId, sessionId, { error: `${code}: ${message}`, failures, state, nextAttemptAt: new Date(now.getTime() + delay) });
  await deps.store.recordExtractionRun({
    id: deps.ids.next(), userId, sessionId, fromSeq: batch[0]?.seq ?? -1, throughSeq: batch.at(-1)?.seq ?? -1,
    extractor: deps.model ? promptRef(extractMemoriesPrompt) : 'heuristic', outcome: 'failed', counts: {}, rejected: [], error: `${code}: ${message}`, at: now,
  });
  return { ...empty(sessionId, 'failed', `extraction failed (${code}); will retry`), messages: batch.length, error: { code, message } };
}

/** Open todos shown to the extractor beside the related memories, soonest first: what a chat moves, cancels or calls done. */
const SHOWN_TODOS = 5;

/**
 * The memories of the user's next open todos that recall did not bring: "明天的会改到下午四点" or
 * "the standup is cancelled" name a todo in words recall may not match (会 / 开会), and the
 * extractor can only move or end a todo it is shown.
 */
async function upcomingTodoMemories(deps: { store: Store }, userId: string, shown: readonly Memory[]): Promise<Memory[]> {
  const ids = new Set(shown.map((m) => m.id));
  const todos = await deps.store.listTodos({ userId, completed: false, live: true, limit: SHOWN_TODOS });
  const memories: Memory[] = [];
  for (const t of todos) {
    if (!t.memoryId || ids.has(t.memoryId)) continue;
    const memory = await deps.store.getMemory(userId, t.memoryId);
    if (memory?.status === 'active') memories.push(memory);
  }
  return memories;
}
