/**
 * The peers ranking scenario's memories path, in process: every LoCoMo turn stored as one memory
 * (as mem0 with infer: false), every question recalled, the ranked turn ids kept per question.
 * With `createHashEmbedder({ dimensions: MOCK_DIMENSIONS })` the vectors are the ones the mock
 * server gives every peer, so figures match `engram memories-hybrid` in the peers run without a
 * server. Used by compare-questions.ts and by the lever table in bench/memories-path.ts.
 */
import type { Embedder } from '../../src/embedders/embedder.js';
import { createMemory } from '../../src/memory.js';
import type { RecallConfigInput } from '../../src/recall/recall-config.js';
import type { RecipeName } from '../../src/recall/recipes.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { fixedClock } from '../../src/testing/clock.js';
import type { LocomoConversation } from '../locomo-data.js';

export interface MemoriesVariant {
  recipe?: RecipeName;
  config?: RecallConfigInput;
}

export interface RankedQuestion {
  conversation: number;
  /** Index of the question within its conversation's (filtered) question list. */
  question: number;
  text: string;
  category: number;
  evidence: string[];
  /** Turn ids, best first (up to 50). */
  ranked: string[];
}

/** Ranks every question of the conversations under each variant; one engine per conversation. */
export async function rankMemories(input: {
  conversations: readonly LocomoConversation[];
  embedder: Embedder;
  variants: Record<string, MemoriesVariant>;
  limit?: number;
}): Promise<Record<string, RankedQuestion[]>> {
  const out: Record<string, RankedQuestion[]> = Object.fromEntries(Object.keys(input.variants).map((v) => [v, []]));
  for (const c of input.conversations) {
    const engine = createMemory({ store: openSqliteStore({ path: ':memory:' }), embedder: input.embedder, clock: fixedClock('2024-01-01T00:00:00Z') });
    for (const t of c.turns) await engine.add({ userId: c.sampleId, content: t.content, kind: 'fact', createdAt: t.createdAt, provenance: { messageIds: [t.id] } });
    for (const [qi, q] of c.questions.entries()) {
      for (const [name, v] of Object.entries(input.variants)) {
        const found = await engine.recall({
          userId: c.sampleId,
          query: q.question,
          limit: input.limit ?? 50,
          touch: false,
          ...(v.recipe ? { recipe: v.recipe } : {}),
          ...(v.config ? { config: v.config } : {}),
        });
        out[name]!.push({
          conversation: c.index, question: qi, text: q.question, category: q.category, evidence: q.evidence,
          ranked: found.map((r) => r.memory.provenance.messageIds[0]!),
        });
      }
    }
    await engine.close();
  }
  return out;
}

/** Share of a question's evidence turns within the first k. */
export function recallAtK(q: Pick<RankedQuestion, 'ranked' | 'evidence'>, k: number): number {
  const top = new Set(q.ranked.slice(0, k));
  return q.evidence.filter((id) => top.has(id)).length / q.evidence.length;
}
