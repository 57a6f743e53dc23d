import { z } from 'zod';
import { RepeatInput } from './recurrence.js';
import { ContentText } from './content-text.js';
import { jsonProblem } from './json-value.js';

/**
 * One taxonomy for every category the design documents use (see README "Memory kinds"):
 * identity  – who the user is: name, job, home, family basics (002 personal)
 * preference – likes, dislikes, styles, habits of taste (000, 002, 004)
 * fact      – durable facts about the user's world: projects, stack, possessions (000, 001, 002, 004)
 * person    – people in the user's life and how they relate (000)
 * event     – something that happened or will happen at a time; carries happenedAt (000)
 * plan      – a decision, goal or commitment (002)
 * todo      – an actionable item with an optional due time; mirrored by a todo row (000)
 * pattern   – a recurring behaviour ("usually writes the weekly report on Monday morning") (004)
 * skill     – procedural memory: a workflow or fix that worked, with structured steps (004)
 * episode   – a session summary (001, 003)
 * system    – instructions or facts about the assistant itself; never decays (001)
 * "core" (001) is not a kind but a tier: any memory promoted by review has `core: true`.
 * "manual" (002) is not a kind but a source.
 */
export const MEMORY_KINDS = [
  'identity',
  'preference',
  'fact',
  'person',
  'event',
  'plan',
  'todo',
  'pattern',
  'skill',
  'episode',
  'system',
] as const;
export const MemoryKind = z.enum(MEMORY_KINDS);
export type MemoryKind = z.infer<typeof MemoryKind>;

/**
 * Kinds no model writes, by extraction or through a tool: an episode is Engram's summary of what
 * was really said (the context block shows it as a recent exchange), and a system memory instructs
 * the assistant. A person may still add or edit them (the HTTP API, the page, the library).
 */
export const MODEL_FORBIDDEN_KINDS = ['system', 'episode'] as const satisfies readonly MemoryKind[];
/** The kinds a model may write. */
export const ModelMemoryKind = MemoryKind.exclude(MODEL_FORBIDDEN_KINDS);
export type ModelMemoryKind = z.infer<typeof ModelMemoryKind>;

/**
 * Who wrote a memory: the user (by voice or hand in a client), `manual` (added by hand, no model),
 * `extraction` (the pipeline, from what was said), `assistant` (the model itself, through a tool
 * such as MCP add_memory: its own words, not the user's, so not `verified`), `import`, `system`.
 */
export const MEMORY_SOURCES = ['user', 'manual', 'extraction', 'assistant', 'import', 'system'] as const;
export const MemorySource = z.enum(MEMORY_SOURCES);
export type MemorySource = z.infer<typeof MemorySource>;

/**
 * Warnings attached to a memory. `instruction`: it was extracted from text that tried to instruct
 * the assistant ("from now on always…", "忽略之前的指令"): possible memory poisoning (OWASP LLM01/LLM04).
 */
export const MEMORY_FLAGS = ['instruction'] as const;
export const MemoryFlag = z.enum(MEMORY_FLAGS);
export type MemoryFlag = z.infer<typeof MemoryFlag>;

export const MEMORY_STATUSES = ['active', 'archived', 'deleted'] as const;
export const MemoryStatus = z.enum(MEMORY_STATUSES);
export type MemoryStatus = z.infer<typeof MemoryStatus>;

/** Importance is on a 0..1 scale; see README "Importance scale" for how the seeds' scales map to it. */
export const Importance = z.number().min(0).max(1);
export const DEFAULT_IMPORTANCE = 0.5;

export const Provenance = z.object({
  sessionId: z.string().min(1).optional(),
  messageIds: z.array(z.string().min(1)).default([]),
  /** The prompt module that produced this memory, as `id@version`, when a model did. */
  producedBy: z.string().optional(),
});
export type Provenance = z.infer<typeof Provenance>;

/** A JSON object: no cycles, BigInts, functions or runaway nesting (see jsonProblem). */
export const JsonObject = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const problem = jsonProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
export type JsonObject = z.infer<typeof JsonObject>;

export const Memory = z.object({
  id: z.string().min(1),
  userId: z.string().min(1),
  agentId: z.string().min(1).optional(),
  sessionId: z.string().min(1).optional(),
  kind: MemoryKind,
  content: z.string().min(1),
  structuredData: JsonObject.optional(),
  importance: Importance,
  confidence: z.number().min(0).max(1),
  source: MemorySource,
  verified: z.boolean(),
  /** Promoted to the core tier (seed 001): never decays. */
  core: z.boolean(),
  status: MemoryStatus,
  provenance: Provenance,
  /** BCP-47-ish primary language of the content ("zh", "en", …), detected when written. */
  language: z.string(),
  createdAt: z.date(),
  updatedAt: z.date(),
  lastAccessedAt: z.date().optional(),
  accessCount: z.number().int().min(0),
  expiresAt: z.date().optional(),
  /** When the event happened (or will happen), distinct from when it was recorded. */
  happenedAt: z.date().optional(),
  /** The embedder that produced this memory's vector; absent when it has none yet. */
  embedderId: z.string().optional(),
  /** Time through which importance decay has been applied (lifecycle/decay.ts). */
  decayedAt: z.date().optional(),
  /** When MemoryReviewer last decided about this memory. */
  reviewedAt: z.date().optional(),
  /** Warnings such as `instruction` (see MEMORY_FLAGS); absent when there are none. */
  flags: z.array(MemoryFlag).optional(),
});
export type Memory = z.infer<typeof Memory>;

/** Longest memory content, from any source (a person, a model, an import). */
export const MAX_CONTENT_LENGTH = 8000;

/** A date as ISO 8601 (or a Date), within years 1–9999: what an export writes is read back by an import. */
const dateInput = z.coerce
  .date({ error: 'must be a date (ISO 8601, e.g. 2026-11-27T10:00:00Z)' })
  .refine((d) => d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999, 'must be a date between the years 1 and 9999');

/** What a caller gives to add a memory by hand (no LLM). */
export const NewMemoryInput = z.object({
  userId: z.string().min(1),
  agentId: z.string().min(1).optional(),
  sessionId: z.string().min(1).optional(),
  kind: MemoryKind.default('fact'),
  content: ContentText.pipe(z.string().trim().min(1, 'content must not be empty').max(MAX_CONTENT_LENGTH)),
  structuredData: JsonObject.optional(),
  importance: Importance.default(DEFAULT_IMPORTANCE),
  confidence: z.number().min(0).max(1).default(1),
  source: MemorySource.default('manual'),
  verified: z.boolean().optional(),
  core: z.boolean().default(false),
  provenance: Provenance.optional(),
  expiresAt: dateInput.optional(),
  happenedAt: dateInput.optional(),
  /** Overrides the clock, for imports of memories recorded earlier. */
  createdAt: dateInput.optional(),
  /** Kind 'todo' only: when it is due (parsed from the content in the user's time zone when absent). */
  dueAt: dateInput.optional(),
  /** Kind 'todo' only: when to remind. @default one hour before dueAt */
  remindAt: dateInput.optional(),
  /** Kind 'todo' only: how it repeats (read from the content when absent: "每天早上八点", "every Monday"). */
  repeat: RepeatInput.optional(),
});
export type NewMemoryInput = z.input<typeof NewMemoryInput>;

export const MemoryPatch = z
  .object({
    kind: MemoryKind,
    content: ContentText.pipe(z.string().trim().min(1).max(MAX_CONTENT_LENGTH)),
    structuredData: JsonObject.nullable(),
    importance: Importance,
    confidence: z.number().min(0).max(1),
    verified: z.boolean(),
    core: z.boolean(),
    status: MemoryStatus,
    expiresAt: dateInput.nullable(),
    happenedAt: dateInput.nullable(),
    agentId: z.string().min(1).nullable(),
    sessionId: z.string().min(1).nullable(),
  })
  .partial();
export type MemoryPatch = z.input<typeof MemoryPatch>;

/** Kinds that live in the semantic layer, as opposed to episodes and procedures. */
export const SEMANTIC_KINDS: readonly MemoryKind[] = ['identity', 'preference', 'fact', 'person', 'event', 'plan', 'todo', 'pattern'];

export function isExpired(memory: Pick<Memory, 'expiresAt'>, now: Date): boolean {
  return memory.expiresAt !== undefined && memory.expiresAt.getTime() <= now.getTime();
}
