import { z } from 'zod';
import { MEMORY_KINDS, type Memory, type MemoryKind } from '../domain/memory.js';
import { parseInput } from '../errors.js';
import { recall, type RecalledMemory } from '../pipelines/recall.js';
import type { MemoryDeps } from '../pipelines/deps.js';
import { detectLanguage, type Language } from '../text/language.js';
import { countTokens } from '../text/tokens.js';
import { HEADINGS } from './headings.js';
import { quoteData } from './quote.js';

export const ContextOptions = z.object({
  userId: z.string().min(1),
  /** The user's current message: what the memories are recalled for. */
  query: z.string().max(20_000),
  /** Hard ceiling on the block's size in tokens (o200k tokenizer). @default 800 */
  tokenBudget: z.number().int().min(0).default(800),
  /** Heading language; detected from the query when absent. */
  language: z.enum(['zh', 'en']).optional(),
  /** Most memories considered. @default 20 */
  maxMemories: z.number().int().min(1).max(200).default(20),
  agentId: z.string().optional(),
});
export type ContextOptions = z.input<typeof ContextOptions>;

export interface ContextItem {
  type: 'memory';
  id: string;
  kind: MemoryKind;
  tokens: number;
}

export interface ContextBlock {
  /** Text for the system prompt; empty when nothing fits or nothing is relevant. */
  text: string;
  /** Tokens of `text`, never more than the budget. */
  tokens: number;
  budget: number;
  language: Language;
  included: ContextItem[];
  /** Relevant memories left out because the budget was spent. */
  omitted: number;
}

function dateOf(m: Memory): string {
  return (m.happenedAt ?? m.createdAt).toISOString().slice(0, 10);
}

function render(language: Language, memories: readonly Memory[]): string {
  if (memories.length === 0) return '';
  const h = HEADINGS[language];
  const lines = [h.title, h.preamble, '<memories>'];
  for (const kind of MEMORY_KINDS) {
    const group = memories.filter((m) => m.kind === kind);
    if (group.length === 0) continue;
    lines.push(`### ${h.kinds[kind]}`);
    for (const m of group) lines.push(`- ${quoteData(m.content)} (${dateOf(m)})`);
  }
  lines.push('</memories>');
  return lines.join('\n');
}

/**
 * Builds the memory block for a system prompt: relevant memories grouped by kind under headings in
 * the user's language, added best-first while the whole block stays within the token budget.
 */
export async function buildContext(deps: MemoryDeps, options: ContextOptions): Promise<ContextBlock> {
  const o = parseInput(ContextOptions, options, 'context options');
  const language = o.language ?? detectLanguage(o.query);
  const recalled: RecalledMemory[] = await recall(deps, {
    userId: o.userId,
    query: o.query,
    limit: o.maxMemories,
    recipe: 'context',
    agentId: o.agentId,
    touch: false,
  });
  const chosen: Memory[] = [];
  const included: ContextItem[] = [];
  let text = '';
  let tokens = 0;
  for (const { memory } of recalled) {
    const candidate = render(language, [...chosen, memory]);
    const candidateTokens = countTokens(candidate);
    if (candidateTokens > o.tokenBudget) continue;
    chosen.push(memory);
    included.push({ type: 'memory', id: memory.id, kind: memory.kind, tokens: candidateTokens - tokens });
    text = candidate;
    tokens = candidateTokens;
  }
  // Only what reached the prompt counts as recalled.
  await deps.store.recordAccess(o.userId, chosen.map((m) => m.id), deps.clock.now());
  return { text, tokens, budget: o.tokenBudget, language, included, omitted: recalled.length - chosen.length };
}
