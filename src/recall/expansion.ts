import { indexTerms } from '../text/segment.js';

/**
 * Pseudo-relevance feedback (RM3's term model): the terms the best first-pass results share,
 * each document weighing its terms by its own relevance and its length, minus the query's own
 * terms. Deterministic: ties go to the term seen first. Works on index terms, so Chinese words
 * and stemmed English words alike.
 */
export function expansionTerms(input: { docs: ReadonlyArray<{ text: string; weight: number }>; queryTerms: readonly string[]; count: number }): string[] {
  const query = new Set(input.queryTerms);
  const mass = new Map<string, number>();
  // A term only one document has is that document's, not the topic's.
  const docFreq = new Map<string, number>();
  // Each document segmented once: segmentation is most of what expansion costs besides its search.
  for (const { text, weight } of input.docs) {
    const terms = indexTerms(text);
    for (const t of new Set(terms)) docFreq.set(t, (docFreq.get(t) ?? 0) + 1);
    if (terms.length === 0 || weight <= 0) continue;
    for (const t of terms) if (!query.has(t)) mass.set(t, (mass.get(t) ?? 0) + weight / terms.length);
  }
  return [...mass]
    .filter(([t]) => (docFreq.get(t) ?? 0) >= 2)
    .sort((a, b) => b[1] - a[1])
    .slice(0, input.count)
    .map(([t]) => t);
}
