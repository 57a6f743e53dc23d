import { judgeUsagePrompt } from '../prompts/judge-usage.js';
import { promptRef } from '../prompts/prompt.js';
import { indexTerms } from '../text/segment.js';
import { REINFORCE_STEP } from './apply-plan.js';
import type { ModelDeps } from './deps.js';
import type { Memory } from '../domain/memory.js';
import { EngramError } from '../errors.js';

/** Words that say nothing about whether a memory was used ("用户", "the user"). */
const SUBJECT_TERMS = new Set(['用户', 'user', '主人']);

/**
 * The rule used when no model is configured: a memory shaped the reply when at least
 * `minTermShare` of its own content terms appear in the reply, or the reply's vector is at least
 * `minCosine` from the memory's. See README "Reinforcement by use" for how it was measured.
 */
export const USAGE_RULE = { minTermShare: 0.4, minCosine: 0.4 } as const;

/** A reply's terms for `usedBySimilarity`, segmented once for all the memories it is held against (a turn recalls dozens). */
export function replyTermsOf(reply: string): ReadonlySet<string> {
  return new Set(indexTerms(reply));
}

export function usedBySimilarity(memoryContent: string, replyTerms: ReadonlySet<string>, cosine: number): boolean {
  const terms = [...new Set(indexTerms(memoryContent))].filter((t) => !SUBJECT_TERMS.has(t));
  const share = terms.length === 0 ? 0 : terms.filter((t) => replyTerms.has(t)).length / terms.length;
  return share >= USAGE_RULE.minTermShare || cosine >= USAGE_RULE.minCosine;
}

export interface ReplyReport {
  used: Array<{ id: string; reason: string }>;
  ignored: string[];
  decidedBy: string;
}

/**
 * Seed 001's reinforcement by use: after the assistant replies, the memories that were recalled
 * for the turn and actually shaped the reply are reinforced (+0.1 importance, history 'reinforce');
 * recalled but irrelevant ones are not. A model judges when configured; otherwise the similarity rule.
 */
export async function reportReply(deps: ModelDeps, input: { userId: string; message: string; reply: string; recalledIds: readonly string[] }): Promise<ReplyReport> {
  const now = deps.clock.now();
  const found = new Map((await deps.store.listMemories({ userId: input.userId, ids: input.recalledIds })).map((m) => [m.id, m]));
  const memories = input.recalledIds.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
  if (memories.length === 0) return { used: [], ignored: [], decidedBy: 'none' };
  const { used, decidedBy } = deps.model ? await judgedByModel(deps, deps.model, input, memories) : await judgedBySimilarity(deps, input, memories);
  const usedIds = new Set(used.map((u) => u.id));
  await deps.store.transaction(async (tx) => {
    for (const u of used) {
      const m = memories.find((x) => x.id === u.id)!;
      await tx.updateMemory(input.userId, m.id, { importance: Math.min(1, m.importance + REINFORCE_STEP), updatedAt: now }, undefined, { actor: 'system', action: 'reinforce', reason: `used in a reply: ${u.reason}`, producedBy: decidedBy, at: now });
    }
  });
  return { used, ignored: memories.filter((m) => !usedIds.has(m.id)).map((m) => m.id), decidedBy };
}

type Judged = { used: Array<{ id: string; reason: string }>; decidedBy: string };

/**
 * The model's judgement. A model that fails or answers garbage must not fail the turn (a chat door
 * reports every reply): the similarity rule judges instead, and the run says so (`decidedBy`).
 */
async function judgedByModel(deps: ModelDeps, model: NonNullable<ModelDeps['model']>, input: { userId: string; message: string; reply: string }, memories: readonly Memory[]): Promise<Judged> {
  const aliases = new Map(memories.map((m, i) => [String(i + 1), m]));
  deps.stats.modelCalls++;
  try {
    const { output } = await model.generate(judgeUsagePrompt, {
      userMessage: input.message,
      reply: input.reply,
      recalled: [...aliases].map(([alias, m]) => ({ alias, content: m.content })),
    });
    // An alias that was not shown is dropped, never guessed.
    return { used: output.used.flatMap((u) => (aliases.has(u.alias) ? [{ id: aliases.get(u.alias)!.id, reason: u.reason }] : [])), decidedBy: promptRef(judgeUsagePrompt) };
  } catch (error) {
    if (!EngramError.isInstance(error)) throw error;
    deps.logger.warn('the model could not judge which memories a reply used; the similarity rule judged', { userId: input.userId, code: error.code });
    const judged = await judgedBySimilarity(deps, input, memories);
    return { used: judged.used, decidedBy: `${judged.decidedBy} (model failed: ${error.code})` };
  }
}

/** Without a model: a memory shaped the reply when the reply repeats what it says (`usedBySimilarity`). */
async function judgedBySimilarity(deps: ModelDeps, input: { userId: string; reply: string }, memories: readonly Memory[]): Promise<Judged> {
  const [replyVector] = await deps.embedder.embed([input.reply]);
  // The products from the store's vector cache where it has them (no point read per memory).
  const cosines = replyVector ? await deps.store.vectorScores(input.userId, memories.map((m) => m.id), replyVector) : new Map<string, number>();
  const replyTerms = replyTermsOf(input.reply);
  const used = memories.filter((m) => usedBySimilarity(m.content, replyTerms, cosines.get(m.id) ?? 0)).map((m) => ({ id: m.id, reason: 'the reply repeats what the memory says' }));
  return { used, decidedBy: 'similarity-rule' };
}
