import { isExpired, type Memory } from '../domain/memory.js';
import { DEFAULT_DECAY_POLICY, type DecayPolicy } from './decay-policy.js';
import { protectedTopic } from './protected-facts.js';

const DAY_MS = 86_400_000;

export type DecayInput = Pick<Memory, 'kind' | 'core' | 'importance' | 'createdAt' | 'updatedAt' | 'lastAccessedAt' | 'expiresAt' | 'status'> &
  Partial<Pick<Memory, 'content' | 'structuredData' | 'reviewedAt'>> & {
    /** Where the last decay left the clock; absent before the first decay. */
    decayedAt?: Date;
    /** The memory of a repeating todo that still runs: it stays as long as the reminders do. */
    repeating?: boolean;
  };

/** 'archive' means out of recall but kept, restorable, listed and exported: the lifecycle never erases. */
export type DecayAction = 'none' | 'decayed' | 'archive' | 'review-promote' | 'review-decay';

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
 * and the caller acts on 'archive'. Order of rules: inactive → expired → core → top of the scale →
 * health/safety/identity/family → a repeating todo that runs → age limit → decay → below deleteBelow → unused for forgetUnusedDays
 * (counted from the last recall or the last review that kept it) → review triggers.
 * Expiry applies even to core and system memories: an `expiresAt` is someone's explicit instruction.
 */
export function decay(memory: DecayInput, now: Date, policy: DecayPolicy = DEFAULT_DECAY_POLICY): DecayResult {
  const anchor = anchorOf(memory);
  const unchanged = (action: DecayAction, reason: string): DecayResult => ({ importance: memory.importance, decayedAt: anchor, action, reason });

  if (memory.status !== 'active') return unchanged('none', `status is ${memory.status}`);
  if (isExpired(memory, now)) return unchanged('archive', `expired at ${memory.expiresAt?.toISOString()}`);
  if (memory.core) return unchanged('none', 'core memories never decay');

  const rule = policy.kinds[memory.kind];
  // Frozen: neither decay nor any archiving rule applies, but a promotion review still may.
  const topic = memory.content === undefined ? undefined : protectedTopic({ kind: memory.kind, content: memory.content, structuredData: memory.structuredData });
  // Episodes are summaries, not something the user said: their age limit applies at any importance.
  const top = memory.kind !== 'episode' && memory.importance >= policy.neverDecayAt;
  const frozen = top ? `importance ${fmt(memory.importance)} is at the top of the scale: never decays` : topic ? `${topic} facts never decay` : memory.repeating ? 'a repeating todo does not fade while it runs' : undefined;
  if (frozen) {
    const promote = rule.review && memory.importance >= policy.promoteReviewAt;
    return promote ? unchanged('review-promote', `importance ${fmt(memory.importance)} reached ${policy.promoteReviewAt}; ${frozen}`) : unchanged('none', frozen);
  }
  const ageDays = (now.getTime() - memory.createdAt.getTime()) / DAY_MS;
  if (rule.deleteAfterDays !== undefined && ageDays >= rule.deleteAfterDays) {
    return unchanged('archive', `${memory.kind} older than ${rule.deleteAfterDays} days`);
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
    return result('archive', `importance ${below(importance, rule.deleteBelow)} fell below ${rule.deleteBelow}`);
  }
  if (rule.forgetUnused && importance < policy.forgetUnusedBelow) {
    // A review that kept the memory restarts this clock, or it would be asked again on every pass.
    const lastUse = Math.max((memory.lastAccessedAt ?? memory.createdAt).getTime(), memory.reviewedAt?.getTime() ?? -Infinity);
    const unusedDays = (now.getTime() - lastUse) / DAY_MS;
    if (unusedDays >= policy.forgetUnusedDays) {
      return result('archive', `not recalled for ${Math.floor(unusedDays)} days and importance ${below(importance, policy.forgetUnusedBelow)} below ${policy.forgetUnusedBelow}`);
    }
  }
  if (rule.review && importance >= policy.promoteReviewAt) {
    return result('review-promote', `importance ${fmt(importance)} reached ${policy.promoteReviewAt}`);
  }
  if (rule.review && importance < policy.decayReviewBelow) {
    return result('review-decay', `importance ${below(importance, policy.decayReviewBelow)} below ${policy.decayReviewBelow}`);
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

/** Enough digits that a value just under a threshold never prints as the threshold ("0.0998 below 0.1"). */
function below(n: number, threshold: number): string {
  for (let digits = 3; digits < 12; digits++) {
    const shown = Math.round(n * 10 ** digits) / 10 ** digits;
    if (shown < threshold) return String(shown);
  }
  return String(n);
}
