import { z } from 'zod';
import { ContentText } from '../domain/content-text.js';
import type { ChangeContext } from '../domain/history.js';
import type { Memory } from '../domain/memory.js';
import { parseInput } from '../errors.js';
import { addMemory } from './add-memory.js';
import type { MemoryDeps } from './deps.js';
import { recall, type RecalledMemory } from './recall.js';

export const LearningInput = z.object({
  userId: z.string().min(1),
  agentId: z.string().min(1).optional(),
  /** What the procedure is for: "生成周报", "deploy the web app". */
  task: ContentText.pipe(z.string().trim().min(1).max(500)),
  /** The steps or tool calls that worked, in order. */
  steps: z.array(ContentText.pipe(z.string().trim().min(1))).min(1).max(50),
  /** The tools it used (names; shown on the page, so held to the same words rule). */
  tools: z.array(ContentText.pipe(z.string().trim().min(1).max(200))).max(50).optional(),
  /** For an error-and-fix learning (both go into its words). */
  error: ContentText.optional(),
  fix: ContentText.optional(),
  importance: z.number().min(0).max(1).default(0.7),
});
export type LearningInput = z.input<typeof LearningInput>;

/**
 * Procedural memory (seed 004 Layer 3): a workflow or tool sequence that worked, or an error and its
 * fix, stored as kind "skill" with its steps in structuredData, recallable for a similar task.
 * `change` says who recorded it: the system by default; the assistant (MCP record_learning) makes
 * a memory of source `assistant`.
 */
export async function recordLearning(deps: MemoryDeps, input: LearningInput, change: Partial<ChangeContext> = {}): Promise<Memory> {
  const o = parseInput(LearningInput, input, 'learning');
  const zh = /\p{Script=Han}/u.test(o.task);
  const arrow = ' → ';
  const content = o.error
    ? zh ? `${o.task}：遇到"${o.error}"时，${o.fix ?? o.steps.join(arrow)}` : `${o.task}: when "${o.error}" happens, ${o.fix ?? o.steps.join(arrow)}`
    : `${o.task}${zh ? '：' : ': '}${o.steps.join(arrow)}`;
  return addMemory(deps, {
    userId: o.userId, agentId: o.agentId, kind: 'skill', content, importance: o.importance, source: change.actor === 'assistant' ? 'assistant' : 'system',
    structuredData: { task: o.task, steps: o.steps, ...(o.tools ? { tools: o.tools } : {}), ...(o.error ? { error: o.error } : {}), ...(o.fix ? { fix: o.fix } : {}) },
  }, { reason: 'recorded after a successful run', ...change, actor: change.actor ?? 'system' });
}

/** Learnings for a task, best first. */
export function recallLearnings(deps: MemoryDeps, input: { userId: string; task: string; limit?: number }): Promise<RecalledMemory[]> {
  return recall(deps, { userId: input.userId, query: input.task, kinds: ['skill'], limit: input.limit ?? 5 });
}
