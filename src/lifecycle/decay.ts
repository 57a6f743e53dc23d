import { isExpired, type Memory } from '../domain/memory.js';
import { DEFAULT_DECAY_POLICY, type DecayPolicy } from './decay-policy.js';

const DAY_MS = 86_400_000;

export type DecayInput = Pick<Memory, 'kind' | 'core' | 'importance' | 'createdAt' | 'updatedAt' | 'lastAccessedAt' | 'expiresAt' | 'status'> & {
  /** Where the last decay left the clock; absent before the first decay. */
  decayedAt?: Date;
};

export type DecayAction = 'none' | 'decayed' | 'delete' | 'review-promote' | 'review-decay';

export interface DecayResult {
  /** The importance to store (unchanged unless whole periods elapsed). */
  importance: number;
  /** The anchor to store for the next run; only ever advanced by whole periods. */
  decayedAt: Date;
  action: DecayAction;
  reason: string;
}

/**
 * Decides what time has done to one memory. Pure: same input, same output.
 *
 * The clock starts at the anchor: `decayedAt`, or `max(updatedAt, lastAccessedAt)` before the first
 * decay; a recall after `decayedAt` restarts the clock (a memory in use does not fade). `updatedAt`
 * is not consulted once `decayedAt` exists, because storing a decay result may itself bump it.
 * Importance is multiplied by the kind's factor once per WHOLE period since the anchor, one
 * multiplication at a time, and the anchor moves by exactly those periods. So a second run at the same
 * `now` changes nothing, and daily, weekly or irregular runs reach the same value bit for bit.
 *
 * Store `importance` and `decayedAt` whatever the action; a review action means "ask MemoryReviewer",
 * and the caller acts on 'delete'. Order of rules: inactive → expired → core → age limit → decay →
 * below deleteBelow → unused for forgetUnusedDays → review triggers.
 * Expiry applies even to core and system memories: an `expiresAt` is someone's explicit instruction.
 */
export function decay(memory: DecayInput, now: Date, policy: DecayPolicy = DEFAULT_DECAY_POLICY): DecayResult {
  const anchor = anchorOf(memory);
  const unchanged = (action: DecayAction, reason: string): DecayResult => ({ importance: memory.importance, decayedAt: anchor, action, reason });

  if (memory.status !== 'active') return unchanged('none', `status is ${memory.status}`);
  if (isExpired(memory, now)) return unchanged('delete', `expired at ${memory.expiresAt?.toISOString()}`);
  if (memory.core) return unchanged('none', 'core memories never decay');

  const rule = policy.kinds[memory.kind];
  const ageDays = (now.getTime() - memory.createdAt.getTime()) / DAY_MS;
  if (rule.deleteAfterDays !== undefined && ageDays >= rule.deleteAfterDays) {
    return unchanged('delete', `${memory.kind} older than ${rule.deleteAfterDays} days`);
  }

  const periodMs = rule.periodDays * DAY_MS;
  const periods = Math.max(0, Math.floor((now.getTime() - anchor.getTime()) / periodMs));
  let importance = memory.importance;
  // One multiplication per period (not factor ** periods): keeps every schedule bit-identical.
  for (let i = 0; i < periods && importance > 0; i++) importance *= rule.factor;
  importance = Math.min(1, Math.max(0, importance));
  const decayedAt = new Date(anchor.getTime() + periods * periodMs);
  const decayed = importance !== memory.importance;
  const result = (action: DecayAction, reason: string): DecayResult => ({ importance, decayedAt, action, reason });

  if (rule.deleteBelow !== undefined && importance < rule.deleteBelow) {
    return result('delete', `importance ${fmt(importance)} below ${rule.deleteBelow}`);
  }
  if (rule.forgetUnused && importance < policy.forgetUnusedBelow) {
    const lastUse = memory.lastAccessedAt ?? memory.createdAt;
    const unusedDays = (now.getTime() - lastUse.getTime()) / DAY_MS;
    if (unusedDays >= policy.forgetUnusedDays) {
      return result('delete', `not recalled for ${Math.floor(unusedDays)} days and importance ${fmt(importance)} below ${policy.forgetUnusedBelow}`);
    }
  }
  if (rule.review && importance >= policy.promoteReviewAt) {
    return result('review-promote', `importance ${fmt(importance)} reached ${policy.promoteReviewAt}`);
  }
  if (rule.review && importance < policy.decayReviewBelow) {
    return result('review-decay', `importance ${fmt(importance)} below ${policy.decayReviewBelow}`);
  }
  if (decayed) return result('decayed', `${periods} period(s) of ${rule.periodDays} days ×${rule.factor}`);
  return result('none', periods > 0 ? `${memory.kind} does not decay` : 'no whole period elapsed');
}

function anchorOf(memory: DecayInput): Date {
  const accessed = memory.lastAccessedAt?.getTime() ?? -Infinity;
  const base = memory.decayedAt?.getTime() ?? memory.updatedAt.getTime();
  return new Date(Math.max(base, accessed));
}

function fmt(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}
