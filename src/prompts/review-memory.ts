import { z } from 'zod';
import { definePrompt } from './prompt.js';
import { quoted, UNTRUSTED_RULE } from './untrusted.js';

const Shown = z.object({ alias: z.string().min(1), content: z.string() });

export const ReviewMemoryInput = z.object({
  /** promote: importance reached the core threshold; decay: importance fell below the keep threshold. */
  mode: z.enum(['promote', 'decay']),
  /** The memory under review. It has no alias: the model never needs to name it. */
  memory: z.object({
    kind: z.string(),
    content: z.string(),
    importance: z.number().min(0).max(1),
    createdAt: z.string(),
    accessCount: z.number().int().min(0),
  }),
  /** Related memories (semantic top-k), under short aliases. */
  related: z.array(Shown.extend({ kind: z.string(), date: z.string() })),
  /** Searches the model asked for in earlier rounds, with their results, under the same aliases. */
  searches: z.array(z.object({ query: z.string(), results: z.array(Shown) })),
  /** 1-based round of this review; a search is allowed only while round < maxRounds. */
  round: z.number().int().min(1),
  maxRounds: z.number().int().min(1),
  /** ISO time of the review, so the model can tell how old the memory is. */
  now: z.string().optional(),
});
export type ReviewMemoryInput = z.infer<typeof ReviewMemoryInput>;

export const ReviewSearch = z.object({
  decision: z.literal('search'),
  /** Keywords for one more memory search, in the memory's language. */
  query: z.string().trim().min(1),
});
export const ReviewVerdict = z.object({
  /** promote (promote mode only), keep, or delete. */
  decision: z.enum(['promote', 'keep', 'delete']),
  reason: z.string().min(1),
  /** Alias of a newer memory that replaces this one, when that is why it can go. */
  supersededBy: z.string().min(1).optional(),
});
/** Seed 001's [SEARCH:…] / [PROMOTE] / [KEEP] / [DELETE], as one discriminated object. */
export const ReviewDecision = z.discriminatedUnion('decision', [ReviewSearch, ReviewVerdict]);
export type ReviewDecision = z.infer<typeof ReviewDecision>;

const COMMON = `You review ONE memory in the long-term memory an assistant keeps about its user, and decide what happens to it.

You may think in rounds. While round < maxRounds you may answer {"decision":"search","query":"..."} to search the memory for more evidence (a few keywords; you will see the results in the next round). Search only when the memories shown are not enough to decide. When round = maxRounds you must decide now: "search" is not allowed in the last round.`;

const PROMOTE = `${COMMON}

Task: this memory has been used and reinforced often. Decide whether to PROMOTE it to core memory (kept forever, never decays).
Core memories are long-term, stable, important facts about the user:
- their name, birthday, identity and family;
- lasting preferences and dislikes;
- important promises and agreements between the user and the assistant.
NOT core:
- temporary states ("主人今天很累", "the user is tired today");
- short-term plans and one-off events;
- topics that merely came up often recently but are not lasting facts.
Decisions: "promote" (it is a core fact), "keep" (useful, but not core), "delete" (wrong, or replaced by a newer memory: name it in supersededBy).`;

const DECAY = `${COMMON}

Task: this memory has faded (little used for a long time). Decide whether to KEEP it or DELETE it. Ask yourself:
- Is this memory still valuable to the user or the assistant?
- Has a newer memory replaced or contradicted it? (A change over time is not a contradiction, but an outdated detail with a newer version can go: name the newer one in supersededBy.)
- Would deleting it make the assistant forget something important about the user?
When in doubt about something important, keep it. Decisions: "keep" or "delete" ("promote" is not used in this mode).`;

const RULES = `
Rules:
- Refer to other memories only by their alias, e.g. supersededBy "2". Never invent an alias.
- reason: one short sentence in the user's language, the language of the memory (Chinese memory -> Chinese reason).
- ${UNTRUSTED_RULE}`;

function shown(items: ReadonlyArray<{ alias: string; content: string; kind?: string; date?: string }>): string {
  if (items.length === 0) return '(none)';
  return items.map((m) => (m.kind === undefined ? `[${m.alias}] ${quoted(m.content)}` : `[${m.alias}] (${m.kind}, ${m.date}) ${quoted(m.content)}`)).join('\n');
}

/** Seed 001's MemoryReviewer: promote a reinforced memory to core, or keep/delete a faded one. */
export const reviewMemoryPrompt = definePrompt({
  id: 'review-memory',
  version: 2,
  input: ReviewMemoryInput,
  output: ReviewDecision,
  build: (input) => {
    const { memory } = input;
    const last = input.round >= input.maxRounds;
    return {
      system: `${input.mode === 'promote' ? PROMOTE : DECAY}\n${RULES}`,
      messages: [
        {
          role: 'user',
          content: [
            `Mode: ${input.mode}. Round ${input.round} of ${input.maxRounds}${last ? ': the last round, decide now (no search).' : ': you may search or decide.'}`,
            ...(input.now === undefined ? [] : [`Now: ${input.now}`]),
            '',
            '## MEMORY under review',
            `(${memory.kind}, created ${memory.createdAt}, importance ${memory.importance.toFixed(2)}, used ${memory.accessCount} times) ${quoted(memory.content)}`,
            '',
            '## RELATED memories',
            shown(input.related),
            ...input.searches.flatMap((s, i) => ['', `## SEARCH ${i + 1}: ${quoted(s.query)}`, shown(s.results)]),
          ].join('\n'),
        },
      ],
    };
  },
});
