import type { Memory, MemoryKind } from '../domain/memory.js';
import type { MemoryDeps } from './deps.js';

/**
 * Cosine at or above which two memories of one kind say the same thing. High on purpose: "likes
 * cats" and "likes dogs" must stay two memories; only rewordings as close as punctuation,
 * spacing, case or a particle are one. @default 0.97
 */
export const DUPLICATE_SIMILARITY = 0.97;

/**
 * Text compared for sameness: case, spacing and punctuation (any script) do not count, save what
 * changes a fact: a sign ("-500" is not "500"), "C#" and "C++", a time or a decimal ("10:30" is
 * not "1030"), "%" and currency symbols.
 */
export function sameText(content: string): string {
  return content
    .normalize('NFKC')
    .toLowerCase()
    .replace(/(?<![\p{N}A-Za-z])-(?=\p{N})/gu, '\u2212')
    .replace(/(?<=\p{N})[.:](?=\p{N})/gu, '\u2236')
    .replace(/(?:(?![+#%$€£¥\u2212\u2236])[\p{P}\p{S}\s])+/gu, '');
}

export interface Comparison {
  /** An active memory of the same kind that already says this, and why it counts as the same. */
  duplicate?: { memory: Memory; why: string };
  /** Shorter memories of the same kind that the new one spells out in full and adds to: it refines them. */
  refines: Array<{ memory: Memory; strength: number }>;
}

/** Compares a memory about to be saved with the user's closest memories of its kind. */
export async function compareWithExisting(
  deps: MemoryDeps,
  input: { userId: string; kind: MemoryKind; content: string; vector: Float32Array | undefined },
): Promise<Comparison> {
  // Episodes and skills are records of distinct sessions and procedures, never merged on save.
  const key = sameText(input.content);
  if (input.kind === 'episode' || input.kind === 'skill' || !key) return { refines: [] };
  const hits = input.vector ? await deps.store.searchVector({ userId: input.userId, vector: input.vector, k: 5, embedderId: deps.embedder.id }) : [];
  const candidates = hits.length > 0 ? await deps.store.listMemories({ userId: input.userId, ids: hits.map((h) => h.id), kinds: [input.kind] }) : [];
  const refines = candidates
    .filter((m) => sameText(m.content).length >= 2 && key.length > sameText(m.content).length && key.includes(sameText(m.content)))
    .map((m) => ({ memory: m, strength: Math.round((sameText(m.content).length / key.length) * 100) / 100 }));
  // The search's score is the cosine already (vectors are unit length and the top hits are scored
  // exactly), so no vector is read back: on add() this check was most of the cost.
  const similarity = new Map(hits.map((h) => [h.id, h.score]));
  return { duplicate: findDuplicate(key, candidates, similarity), refines };
}

function findDuplicate(key: string, candidates: readonly Memory[], similarityOf: ReadonlyMap<string, number>): { memory: Memory; why: string } | undefined {
  for (const m of candidates) if (sameText(m.content) === key) return { memory: m, why: 'same text' };
  let best: { memory: Memory; similarity: number } | undefined;
  for (const m of candidates) {
    // Embeddings barely see numbers and symbols: "电话是 138…" and "电话是 139…", "C#" and "C++" are two facts, never one.
    if (markersIn(sameText(m.content)) !== markersIn(key)) continue;
    const similarity = similarityOf.get(m.id);
    if (similarity === undefined) continue;
    if (similarity >= DUPLICATE_SIMILARITY && (!best || similarity > best.similarity)) best = { memory: m, similarity };
  }
  return best && { memory: best.memory, why: `similarity ${best.similarity.toFixed(3)}` };
}

/** The numbers (with their signs) and symbols of a text, in order: a rewording keeps them, a different fact changes them. */
const markersIn = (text: string): string => (text.match(/[\u2212+]?\p{Nd}+(?:\u2236\p{Nd}+)*%?|[+#%$€£¥\u2212]/gu) ?? []).join(' ');
