import { z } from 'zod';
import { MEMORY_KINDS, type MemoryKind } from '../domain/memory.js';

/**
 * How importance fades, as data (seed 001 "衰减规则", seed 000 §7, seed 004 layer lifetimes).
 *
 * Seed 001 scores importance on a 0..3 scale; Engram's is 0..1, so its numbers map by /3:
 * delete below 0.3 → 0.1, decay review below 0.5 → 0.17, promotion review at 2.5 → 0.83.
 * Seed 000 scores 1..10, so "importance < 5" maps by /10 to 0.5.
 *
 * The per-kind table (DEFAULT_KIND_DECAY):
 * (Every "deleted" below means archived: the lifecycle never erases; see README "Lifecycle".)
 * | kind                                   | ×factor / period | deleted when            | 90-day rule | review |
 * | episode                                | ×0.8 / 7 days    | 14 days after creation  | yes         | no     |
 * | preference fact person event plan todo pattern | ×0.95 / 7 days | importance < 0.1 | yes     | yes    |
 * | identity                               | never            | never (only on expiry)  | no          | yes    |
 * | skill                                  | never            | by the 90-day rule only | yes         | yes    |
 * | system                                 | never            | never (only on expiry)  | no          | no     |
 *
 * Why identity never fades: who the user is (name, job, home) does not become less true with time,
 * and it is rarely "recalled" by search because it sits in every context, so the 90-day rule would
 * wrongly forget it. It is still reviewed for promotion to core.
 * Why skill never fades: seed 004 gives procedural memory a permanent lifetime that evolves by
 * editing, and compresses only what has gone unused for 90 days, which is seed 000's rule.
 * Why episodes are not reviewed: a session summary is never a candidate for core, and it is gone
 * after 14 days anyway.
 * Core memories (`core: true`, a tier, not a kind) never decay and are never deleted by these rules;
 * that is handled in decay(), not in the table.
 */
export const KindDecay = z.object({
  /** Importance is multiplied by this once per whole elapsed period; 1 means it never decays. */
  factor: z.number().min(0).max(1),
  /** @default 7 */
  periodDays: z.number().positive().default(7),
  /** Deleted when importance (after decay) falls below this. */
  deleteBelow: z.number().min(0).max(1).optional(),
  /** Deleted once this many days have passed since the memory was created. */
  deleteAfterDays: z.number().positive().optional(),
  /** Whether seed 000's "unused for N days and unimportant" rule may delete it. @default true */
  forgetUnused: z.boolean().default(true),
  /** Whether the promotion / decay review triggers (seed 001 MemoryReviewer) apply. @default true */
  review: z.boolean().default(true),
});
export type KindDecay = z.infer<typeof KindDecay>;

const week = { periodDays: 7, forgetUnused: true, review: true } as const;
const factLike: KindDecay = { ...week, factor: 0.95, deleteBelow: 0.1 };

export const DEFAULT_KIND_DECAY: Readonly<Record<MemoryKind, KindDecay>> = {
  identity: { ...week, factor: 1, forgetUnused: false },
  preference: factLike,
  fact: factLike,
  person: factLike,
  event: factLike,
  plan: factLike,
  todo: factLike,
  pattern: factLike,
  skill: { ...week, factor: 1 },
  episode: { ...week, factor: 0.8, deleteAfterDays: 14, review: false },
  system: { ...week, factor: 1, forgetUnused: false, review: false },
};

// Every kind may be overridden alone; an overridden kind replaces its whole rule.
const kindsShape = Object.fromEntries(MEMORY_KINDS.map((k) => [k, KindDecay.default(DEFAULT_KIND_DECAY[k])])) as {
  [K in MemoryKind]: z.ZodDefault<typeof KindDecay>;
};

export const DecayPolicy = z.object({
  kinds: z.object(kindsShape).prefault({}),
  /** Seed 000: deleted when not recalled for this many days… @default 90 */
  forgetUnusedDays: z.number().positive().default(90),
  /** …and importance is below this (seed 000's 5 of 10). @default 0.5 */
  forgetUnusedBelow: z.number().min(0).max(1).default(0.5),
  /** Promotion review (seed 001's 2.5 of 3) when a non-core memory reaches this. @default 0.83 */
  promoteReviewAt: z.number().min(0).max(1).default(0.83),
  /** Decay review (seed 001's 0.5 of 3) when importance falls below this but not below deleteBelow. @default 0.17 */
  decayReviewBelow: z.number().min(0).max(1).default(0.17),
  /** The top of the scale never decays (seed 001: importance ≥ 3.0 of 3; seed 000: 9–10 of 10). @default 0.9 */
  neverDecayAt: z.number().min(0).max(1).default(0.9),
  /**
   * With a model, archiving a memory whose importance is at or above this goes through the review
   * first (seed 001: deletion is a reviewed decision); below it is the lowest importance. @default 0.1
   */
  reviewArchiveFrom: z.number().min(0).max(1).default(0.1),
});
export type DecayPolicy = z.infer<typeof DecayPolicy>;
export type DecayPolicyInput = z.input<typeof DecayPolicy>;

export const DEFAULT_DECAY_POLICY: DecayPolicy = DecayPolicy.parse({});
