import type { Memory } from '../domain/memory.js';
import { wallDate, type RecurrenceRule } from '../domain/recurrence.js';
import { zonedTime } from '../domain/zoned-time.js';
import { EngramError } from '../errors.js';
import { decay, type DecayResult } from '../lifecycle/decay.js';
import { DEFAULT_DECAY_POLICY, type DecayPolicy } from '../lifecycle/decay-policy.js';
import { compressMemories, type CompressionReport } from './compress-memories.js';
import type { ModelDeps } from './deps.js';
import { reviewMemory, type ReviewOutcome } from './review-memory.js';

export interface LifecycleReport {
  examined: number;
  decayed: number;
  /** Moved to status `archived` (out of recall, restorable, listed, exported). The lifecycle never erases. */
  archived: number;
  reviews: ReviewOutcome[];
  /** With a model: old, rarely used memories merged (seed 004 §2.2; settings compressAfterDays, compressBelowAccesses). */
  compressions: CompressionReport[];
}

/** Called once per memory examined, for progress bars. */
export type LifecycleProgress = (done: number, total: number) => void;

/**
 * One lifecycle pass for a user (or everyone): decay by kind and age, archiving of what fell below
 * its threshold, expired or went unused (seed 000 §7, seed 001), and MemoryReviewer for memories
 * at the promotion or decay-review thresholds when a model is configured. With a model, archiving
 * anything at or above `reviewArchiveFrom` is the reviewer's decision, not the rule's (seed 001).
 * Idempotent: a second pass at the same instant changes nothing and writes no history.
 */
export async function runLifecycle(deps: ModelDeps, options: { userId?: string; policy?: DecayPolicy; onProgress?: LifecycleProgress } = {}): Promise<LifecycleReport> {
  const policy = options.policy ?? DEFAULT_DECAY_POLICY;
  const report: LifecycleReport = { examined: 0, decayed: 0, archived: 0, reviews: [], compressions: [] };
  const users = options.userId ? [options.userId] : await deps.store.userIds();
  const work: Memory[] = [];
  // The memories of repeating todos that still run: they do not fade while the reminders go on.
  const repeating = new Set<string>();
  for (const userId of users) {
    work.push(...(await deps.store.listMemories({ userId, statuses: ['active'] })));
    for (const t of await deps.store.listTodos({ userId, completed: false })) if (t.repeat && t.memoryId && runs(t.repeat, deps.clock.now())) repeating.add(t.memoryId);
  }
  for (const memory of work) {
    report.examined++;
    await passOne(deps, memory, policy, report, repeating.has(memory.id));
    options.onProgress?.(report.examined, work.length);
  }
  if (deps.model) {
    for (const userId of users) {
      try {
        report.compressions.push(...(await compressMemories(deps, userId)));
      } catch (error) {
        // A failed compression changes nothing (one transaction per group); the next pass tries again.
        deps.logger.warn('compression failed', { code: EngramError.isInstance(error) ? error.code : 'MODEL_FAILED', userId, error: String(error) });
      }
    }
  }
  return report;
}

async function passOne(deps: ModelDeps, memory: Memory, policy: DecayPolicy, report: LifecycleReport, repeating: boolean): Promise<void> {
  const now = deps.clock.now();
  const { userId } = memory;
  const result = decay({ ...memory, repeating }, now, policy);
  const change = { actor: 'lifecycle' as const, reason: result.reason, at: now };
  const reviewed = deps.model !== undefined && memory.kind !== 'episode' && result.importance >= policy.reviewArchiveFrom && !result.reason.startsWith('expired');
  if (result.action === 'archive' && !reviewed) {
    await deps.store.updateMemory(userId, memory.id, { status: 'archived', importance: result.importance, decayedAt: result.decayedAt, updatedAt: now }, undefined, { ...change, action: 'archive' });
    report.archived++;
    return;
  }
  // Only a real change of importance is written: a pass that changed nothing leaves no history.
  if (result.importance !== memory.importance) {
    await deps.store.updateMemory(userId, memory.id, { importance: result.importance, decayedAt: result.decayedAt }, undefined, { ...change, action: 'decay' });
    report.decayed++;
  }
  const mode = result.action === 'review-promote' ? 'promote' : result.action === 'review-decay' || result.action === 'archive' ? 'decay' : undefined;
  if (!deps.model || !mode || alreadyReviewed(memory, result, mode)) return;
  try {
    const outcome = await reviewMemory(deps, { ...memory, importance: result.importance, decayedAt: result.decayedAt }, mode, { resetImportance: policy.decayReviewBelow });
    report.reviews.push(outcome);
    if (outcome.decision === 'delete') report.archived++;
  } catch (error) {
    // A failed review changes nothing (the memory stays active); the next pass asks again.
    deps.logger.warn('memory review failed', { code: 'MODEL_FAILED', userId, memoryId: memory.id, error: String(error) });
  }
}

/** A promotion review is not repeated until the memory changes; a decay review not until it decays again. */
function alreadyReviewed(memory: Memory, result: DecayResult, mode: 'promote' | 'decay'): boolean {
  if (result.action === 'archive') return false;
  const since = mode === 'promote' ? memory.updatedAt : result.decayedAt;
  return memory.reviewedAt !== undefined && memory.reviewedAt.getTime() >= since.getTime();
}

/** A series runs until its last day (`until`) is over on its own wall clock; one with no end runs on. */
function runs(rule: RecurrenceRule, now: Date): boolean {
  return rule.until === undefined || wallDate(zonedTime(now, rule.timeZone)) <= rule.until;
}
