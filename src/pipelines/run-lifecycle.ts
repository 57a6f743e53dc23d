import { decay } from '../lifecycle/decay.js';
import { DEFAULT_DECAY_POLICY, type DecayPolicy } from '../lifecycle/decay-policy.js';
import type { ExtractionDeps } from './extract-session.js';
import { reviewMemory, type ReviewOutcome } from './review-memory.js';

export interface LifecycleReport {
  examined: number;
  decayed: number;
  deleted: number;
  reviews: ReviewOutcome[];
}

/**
 * One lifecycle pass for a user (or everyone): decay by kind and age, deletion of what fell below
 * its threshold, expired or went unused (seed 000 §7, seed 001), and MemoryReviewer for memories
 * at the promotion or decay-review thresholds when a model is configured. Idempotent: a second
 * pass at the same instant changes nothing.
 */
export async function runLifecycle(deps: ExtractionDeps, options: { userId?: string; policy?: DecayPolicy } = {}): Promise<LifecycleReport> {
  const policy = options.policy ?? DEFAULT_DECAY_POLICY;
  const now = deps.clock.now();
  const report: LifecycleReport = { examined: 0, decayed: 0, deleted: 0, reviews: [] };
  const users = options.userId ? [options.userId] : await deps.store.userIds();
  for (const userId of users) {
    for (const memory of await deps.store.listMemories({ userId, statuses: ['active'] })) {
      report.examined++;
      const result = decay(memory, now, policy);
      const moved = result.importance !== memory.importance || result.decayedAt.getTime() !== memory.decayedAt?.getTime();
      const change = { actor: 'lifecycle' as const, reason: result.reason, at: now };
      if (result.action === 'delete') {
        await deps.store.updateMemory(userId, memory.id, { status: 'deleted', importance: result.importance, decayedAt: result.decayedAt, updatedAt: now }, undefined, change);
        report.deleted++;
        continue;
      }
      if (moved) {
        await deps.store.updateMemory(userId, memory.id, { importance: result.importance, decayedAt: result.decayedAt }, undefined, { ...change, action: 'decay' });
        if (result.importance !== memory.importance) report.decayed++;
      }
      if (!deps.model || (result.action !== 'review-promote' && result.action !== 'review-decay')) continue;
      // A promotion review is not repeated until the memory changes; a decay review not until it decays again.
      const since = result.action === 'review-promote' ? memory.updatedAt : result.decayedAt;
      if (memory.reviewedAt && memory.reviewedAt.getTime() >= since.getTime()) continue;
      {
        const current = { ...memory, importance: result.importance, decayedAt: result.decayedAt };
        try {
          report.reviews.push(await reviewMemory(deps, current, result.action === 'review-promote' ? 'promote' : 'decay', { resetImportance: policy.decayReviewBelow }));
        } catch (error) {
          // A failed review changes nothing; the next pass asks again.
          deps.logger.warn('memory review failed', { code: 'MODEL_FAILED', userId, memoryId: memory.id, error: String(error) });
        }
      }
    }
  }
  return report;
}
