import type { Memory, MemoryKind } from '../domain/memory.js';
import type { MemoryDeps } from './deps.js';

/**
 * Cosine at or above which two memories of one kind say the same thing. High on purpose: "likes
 * cats" and "likes dogs" must stay two memories; only rewordings as close as punctuation,
 * spacing, case or a particle are one. @default 0.97
 */
export const DUPLICATE_SIMILARITY = 0.97;

/** Text compared for sameness: case, spacing and punctuation (any script) do not count. */
export function sameText(content: string): string {
  return content.normalize('NFKC').toLowerCase().replace(/[\p{P}\p{S}\s]+/gu, '');
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
  return { duplicate: await findDuplicate(input, key, candidates, deps), refines };
}

async function findDuplicate(
  input: { userId: string; vector: Float32Array | undefined },
  key: string,
  candidates: readonly Memory[],
  deps: MemoryDeps,
): Promise<{ memory: Memory; why: string } | undefined> {
  for (const m of candidates) if (sameText(m.content) === key) return { memory: m, why: 'same text' };
  const vectors = input.vector && candidates.length > 0 ? await deps.store.vectorsOf(input.userId, candidates.map((m) => m.id)) : new Map<string, Float32Array>();
  let best: { memory: Memory; similarity: number } | undefined;
  for (const m of candidates) {
    // Embeddings barely see numbers: "电话是 138…" and "电话是 139…" are two facts, never one.
    if (numbersIn(sameText(m.content)) !== numbersIn(key)) continue;
    const v = vectors.get(m.id);
    if (!v || !input.vector) continue;
    const similarity = cosine(v, input.vector);
    if (similarity >= DUPLICATE_SIMILARITY && (!best || similarity > best.similarity)) best = { memory: m, similarity };
  }
  return best && { memory: best.memory, why: `similarity ${best.similarity.toFixed(3)}` };
}

/** The digit runs of a text, in order: a rewording keeps them, a different fact changes them. */
const numbersIn = (text: string): string => (text.match(/\p{Nd}+/gu) ?? []).join(' ');

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length && i < b.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
