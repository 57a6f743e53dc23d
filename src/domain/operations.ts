import { z } from 'zod';
import { EpisodeSummary } from './episode.js';
import { MemoryKind, MODEL_FORBIDDEN_KINDS } from './memory.js';

/**
 * What an extractor (the LLM prompt or the heuristic one) decides for a batch of new messages.
 * Existing memories are referred to by the short alias they were shown under ("1", "2", …),
 * never by their id; the pipeline maps aliases back and rejects any alias it did not show.
 */
export const TodoSpec = z.object({
  /** What to do, in the user's words. */
  content: z.string().min(1),
  /** Natural-language due time as said ("下周五", "tomorrow 3pm"), parsed against the message time. */
  dueText: z.string().optional(),
  /** ISO due time when the extractor already resolved it. */
  dueAt: z.string().optional(),
  /** When the reminder comes, as said, when the user asked for one other than an hour ahead ("提前半小时", "前一天晚上", "a day before"). */
  remindText: z.string().optional(),
});
export type TodoSpec = z.infer<typeof TodoSpec>;

/** What an update says of an existing todo: moved, reworded, or done. */
export const TodoUpdate = TodoSpec.partial().extend({
  /** The user says it is done ("房租交了", "I've paid the rent"); a repeating one: this time. */
  done: z.boolean().optional(),
});
export type TodoUpdate = z.infer<typeof TodoUpdate>;

/**
 * A link the extractor saw between the memory it writes and an EXISTING one (seed 004 §3.1),
 * by the alias that memory was shown under. A correction is an update, not a "contradicts".
 */
export const RelationSpec = z.object({
  type: z.enum(['supports', 'contradicts', 'refines']),
  /** Alias of an existing memory. */
  target: z.string().min(1),
  /** How strongly, 0..1. @default 1 */
  strength: z.number().min(0).max(1).default(1),
  reason: z.string().optional(),
});
export type RelationSpec = z.infer<typeof RelationSpec>;

export const AddOperation = z.object({
  op: z.literal('add'),
  kind: MemoryKind,
  content: z.string().min(1),
  importance: z.number().min(0).max(1).default(0.5),
  confidence: z.number().min(0).max(1).default(0.8),
  /** ISO time the event happened or will happen, for kind "event" (and plans with a date). */
  happenedAt: z.string().optional(),
  structuredData: z.record(z.string(), z.unknown()).optional(),
  todo: TodoSpec.optional(),
  /** Ids of the new messages this memory came from (subset of the batch). */
  sourceMessageIds: z.array(z.string()).optional(),
  /** Existing memories this new one supports, contradicts or refines. */
  relations: z.array(RelationSpec).optional(),
});
export const UpdateOperation = z.object({
  op: z.literal('update'),
  target: z.string().min(1),
  /** The new full content, not a diff. */
  content: z.string().min(1),
  kind: MemoryKind.optional(),
  importance: z.number().min(0).max(1).optional(),
  /** Structured fields the update sets; fields the new content contradicts are dropped either way. */
  structuredData: z.record(z.string(), z.unknown()).optional(),
  /**
   * A todo moved or reworded ("明天的会改到下午四点"): its new time as said (`dueText`) and, when its
   * task changed, its new words; its reminder follows. Or done: `done: true`.
   */
  todo: TodoUpdate.optional(),
  /** Other existing memories the updated one supports, contradicts or refines. */
  relations: z.array(RelationSpec).optional(),
  reason: z.string().default(''),
});
export const DeleteOperation = z.object({
  op: z.literal('delete'),
  target: z.string().min(1),
  reason: z.string().default(''),
});
export const ReinforceOperation = z.object({
  op: z.literal('reinforce'),
  target: z.string().min(1),
  reason: z.string().default(''),
});
export const SkipOperation = z.object({
  op: z.literal('skip'),
  reason: z.string().default(''),
});

export const MemoryOperation = z.discriminatedUnion('op', [AddOperation, UpdateOperation, DeleteOperation, ReinforceOperation, SkipOperation]);
export type MemoryOperation = z.infer<typeof MemoryOperation>;
export type AddOperation = z.infer<typeof AddOperation>;

/**
 * The user asked, in a new message, that something be forgotten ("忘掉我前女友的事", "forget where I
 * live"): what, in the user's words, and the ref of the message that asks. The pipeline checks
 * both (a user message of the batch; a topic the conversation names) before it acts.
 */
export const ForgetAsk = z.object({
  topic: z.string().min(1).max(80),
  ref: z.string().min(1),
});
export type ForgetAsk = z.infer<typeof ForgetAsk>;

export const ExtractionResult = z.object({
  operations: z.array(MemoryOperation),
  /** Topics the user asked to be forgotten in the new messages (the model's reading; the offline extractor leaves it to the pattern reader at append). */
  forget: z.array(ForgetAsk).nullish(),
  /** One short sentence: what was extracted or why nothing was. */
  reason: z.string().default(''),
  /**
   * Seed 003's summary of the batch, when the extractor was asked for one: a quiet batch that
   * covers everything not yet summarised gets its episode from the same model call.
   */
  episode: EpisodeSummary.optional(),
});
export type ExtractionResult = z.infer<typeof ExtractionResult>;

/**
 * The rules model output obeys beyond its schema, the same as add()'s: at most this many
 * operations per batch (the rest are rejected and recorded), no kinds the extractor may not
 * write, no content longer than add() takes, no dates outside these years.
 */
export const EXTRACTION_LIMITS = {
  maxOperations: 50,
  forbiddenKinds: MODEL_FORBIDDEN_KINDS as readonly MemoryKind[],
  minYear: 1000,
  maxYear: 2999,
} as const;

/** A message as the extractors see it. */
export interface ExtractionMessage {
  id: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  createdAt: Date;
}

/** An existing memory as shown to an extractor, under its alias. */
export interface AliasedMemory {
  alias: string;
  kind: MemoryKind;
  content: string;
  createdAt: Date;
}
