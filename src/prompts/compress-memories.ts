import { z } from 'zod';
import { definePrompt } from './prompt.js';
import { quoted, UNTRUSTED_RULE } from './untrusted.js';

export const CompressMemoriesInput = z.object({
  /** The kind every memory in the group shares; the compressed memories keep it. */
  kind: z.string().min(1),
  /** The group to compress, under short aliases, oldest first. */
  memories: z.array(z.object({ alias: z.string().min(1), content: z.string(), date: z.string() })).min(2),
});
export type CompressMemoriesInput = z.infer<typeof CompressMemoriesInput>;

export const CompressedMemory = z.object({
  content: z.string().min(1),
  importance: z.number().min(0).max(1),
  /** Aliases of the input memories this one replaces (at least one). */
  sources: z.array(z.string().min(1)).min(1),
});
export type CompressedMemory = z.infer<typeof CompressedMemory>;

export const CompressMemoriesResult = z.object({
  memories: z.array(CompressedMemory).min(1).max(3),
});
export type CompressMemoriesResult = z.infer<typeof CompressMemoriesResult>;

const SYSTEM = `You compress a group of related memories that an assistant keeps about its user into 1-3 memories that replace them, so long-term memory stays small without losing anything that matters (10 raw facts -> 3 core pieces of knowledge -> 1 pattern).

Rules:
- Keep every essential fact. Merge duplicates and near-duplicates into one. Drop only wording that repeats.
- Keep the dates that matter (when something happened, changed or is due); drop the dates that do not.
- When memories conflict, the newest wins; keep the change when it says something ("moved from Berlin to Lisbon in 2026-03").
- Add no new information: no guesses, no conclusions the memories do not state.
- Each memory: self-contained, in the third person, in the user's language, the language the memories are written in (Chinese in, Chinese out).
- sources: the aliases of the input memories each new memory replaces. Every input alias must appear in at least one sources list; use only the aliases shown.
- importance (0..1): 0.9 identity/core facts, 0.7 lasting preferences and plans, 0.5 ordinary facts, 0.3 minor details.
- Return 1 memory when the group says one thing, at most 3.
- ${UNTRUSTED_RULE}`;

/** Seed 004 §2.2 automatic compression: a group of one kind -> 1-3 memories with their sources. */
export const compressMemoriesPrompt = definePrompt({
  id: 'compress-memories',
  version: 2,
  input: CompressMemoriesInput,
  output: CompressMemoriesResult,
  build: (input) => ({
    system: SYSTEM,
    messages: [
      {
        role: 'user',
        content: [`Kind: ${input.kind}`, '', '## MEMORIES to compress', input.memories.map((m) => `[${m.alias}] (${m.date}) ${quoted(m.content)}`).join('\n')].join('\n'),
      },
    ],
  }),
});
