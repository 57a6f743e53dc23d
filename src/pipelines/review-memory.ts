import type { Memory } from '../domain/memory.js';
import { EngramError } from '../errors.js';
import { reviewMemoryPrompt, type ReviewDecision } from '../prompts/review-memory.js';
import { promptRef } from '../prompts/prompt.js';
import type { ModelDeps } from './deps.js';
import { recall } from './recall.js';
import { FORGOTTEN_MEANWHILE, takeForgetGuard } from './forget-guard.js';

export const MAX_REVIEW_ROUNDS = 3;

export interface ReviewOutcome {
  memoryId: string;
  mode: 'promote' | 'decay';
  /** 'delete' is the reviewer's word; the memory is archived, never erased. */
  decision: 'promote' | 'keep' | 'delete';
  reason: string;
  rounds: number;
  searches: string[];
  /** True when a forget overtook the review and nothing was written. */
  dropped?: boolean;
}

/**
 * Seed 001's MemoryReviewer: a model decides PROMOTE (to core) / KEEP / DELETE for a memory that
 * reached the promotion threshold, or KEEP (reset) / DELETE for one that decayed below the review
 * threshold. It sees related memories and may search for more, at most three rounds. The decision
 * is written with its reason into the memory's history.
 */
export async function reviewMemory(deps: ModelDeps, memory: Memory, mode: 'promote' | 'decay', options: { resetImportance: number }): Promise<ReviewOutcome> {
  if (!deps.model) throw new EngramError('CONFIG_INVALID', 'Reviewing a memory needs a language model');
  const now = deps.clock.now();
  const guard = await takeForgetGuard(deps.store, memory.userId);
  const aliases = new Map<string, Memory>();
  const alias = (m: Memory): string => {
    for (const [a, x] of aliases) if (x.id === m.id) return a;
    const a = String(aliases.size + 1);
    aliases.set(a, m);
    return a;
  };
  const related = (await recall(deps, { userId: memory.userId, query: memory.content, limit: 6, touch: false })).map((r) => r.memory).filter((m) => m.id !== memory.id).slice(0, 5);
  const relatedShown = related.map((m) => ({ alias: alias(m), kind: m.kind, content: m.content, date: m.createdAt.toISOString().slice(0, 10) }));
  const searches: Array<{ query: string; results: Array<{ alias: string; content: string }> }> = [];
  let decision: ReviewDecision | undefined;
  let round = 1;
  for (; round <= MAX_REVIEW_ROUNDS; round++) {
    deps.stats.modelCalls++;
    const { output } = await deps.model.generate(reviewMemoryPrompt, {
      mode,
      memory: { kind: memory.kind, content: memory.content, importance: memory.importance, createdAt: memory.createdAt.toISOString().slice(0, 10), accessCount: memory.accessCount },
      related: relatedShown,
      searches,
      round,
      maxRounds: MAX_REVIEW_ROUNDS,
      now: now.toISOString().slice(0, 10),
    });
    if (output.decision !== 'search') {
      decision = output;
      break;
    }
    if (round === MAX_REVIEW_ROUNDS) break;
    const found = (await recall(deps, { userId: memory.userId, query: output.query, limit: 5, touch: false })).map((r) => r.memory).filter((m) => m.id !== memory.id);
    searches.push({ query: output.query, results: found.map((m) => ({ alias: alias(m), content: m.content })) });
  }
  // A reviewer that never decided, or asked to promote in a decay review, keeps the memory.
  const verdict = decision && decision.decision !== 'search' && !(mode === 'decay' && decision.decision === 'promote') ? decision : undefined;
  const final = verdict?.decision ?? 'keep';
  const reason = verdict?.reason ?? 'no decision within the round limit';
  const change = { actor: 'review' as const, reason, producedBy: promptRef(reviewMemoryPrompt), at: now };
  const written = await deps.store.transaction(async (tx) => {
    // A forget during the model calls wins: the memory or the one superseding it may be gone.
    if (!(await guard.holds(tx))) return false;
    if (final === 'promote') await tx.updateMemory(memory.userId, memory.id, { core: true, importance: 1, reviewedAt: now, updatedAt: now }, undefined, { ...change, action: 'promote' });
    // The lifecycle never erases: a reviewer's "delete" archives (restorable, listed, exported).
    else if (final === 'delete') await tx.updateMemory(memory.userId, memory.id, { status: 'archived', reviewedAt: now, updatedAt: now }, undefined, change);
    else if (mode === 'decay') await tx.updateMemory(memory.userId, memory.id, { importance: Math.max(memory.importance, options.resetImportance), reviewedAt: now, decayedAt: now }, undefined, { ...change, action: 'review' });
    else await tx.updateMemory(memory.userId, memory.id, { reviewedAt: now }, undefined, { ...change, action: 'review' });
    const by = verdict && 'supersededBy' in verdict && verdict.supersededBy ? aliases.get(verdict.supersededBy) : undefined;
    if (by && final === 'delete') {
      await tx.insertRelation({ id: deps.ids.next(), userId: memory.userId, sourceId: by.id, targetId: memory.id, type: 'supersedes', strength: 1, reason, createdAt: now });
    }
    return true;
  });
  if (!written) return { memoryId: memory.id, mode, decision: 'keep', reason: FORGOTTEN_MEANWHILE, rounds: Math.min(round, MAX_REVIEW_ROUNDS), searches: searches.map((s) => s.query), dropped: true };
  return { memoryId: memory.id, mode, decision: final, reason, rounds: Math.min(round, MAX_REVIEW_ROUNDS), searches: searches.map((s) => s.query) };
}
