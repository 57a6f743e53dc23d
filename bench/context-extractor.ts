/**
 * The heuristic extractor's figures for the context benchmark: precision and recall on the
 * labelled set (test/fixtures/extraction-labelled.ts, 200 Chinese and 200 English user turns), and
 * coverage of LoCoMo's user-side observations: the share of speaker A's observations whose source
 * turn some memory extracted from speaker A's turns cites.
 */
import type { ExtractionMessage } from '../src/domain/operations.js';
import { extractHeuristically } from '../src/extraction/heuristic/heuristic-extractor.js';
import { LABELLED_EN, LABELLED_ZH } from '../test/fixtures/extraction-labelled.js';
import { LABELLED_EN_MORE } from '../test/fixtures/extraction-labelled-more.js';
import { scoreExtraction } from '../test/fixtures/score-extraction.js';
import { ownWords } from './context-pools.js';
import type { LocomoConversation } from './locomo-data.js';

export interface ExtractorFigures {
  labelled: Array<{ language: string; turns: number; expected: number; extracted: number; precision: number; recall: number }>;
  /** % of user-side observations covered, over the conversations given. */
  coverage: number;
  observations: number;
}

const round1 = (x: number): number => Math.round(x * 1000) / 10;

/** Turn ids cited by the memories the extractor draws from speaker A's turns, session by session. */
export function citedTurns(c: LocomoConversation): Set<string> {
  const cited = new Set<string>();
  for (const sessionId of new Set(c.turns.map((t) => t.sessionId))) {
    const messages: ExtractionMessage[] = c.turns
      .filter((t) => t.sessionId === sessionId && t.speaker === c.speakers[0])
      .map((t) => ({ id: t.id, role: 'user', content: ownWords(t), createdAt: t.createdAt }));
    if (messages.length === 0) continue;
    for (const op of extractHeuristically({ messages, existing: [] }).operations) {
      if (op.op === 'add') for (const id of op.sourceMessageIds ?? []) cited.add(id);
    }
  }
  return cited;
}

export async function measureExtractor(input: {
  conversations: readonly LocomoConversation[];
  observations: ReadonlyArray<ReadonlyArray<{ speaker: string; fact: string; turns: string[] }>>;
}): Promise<ExtractorFigures> {
  const sets = [['zh', LABELLED_ZH], ['en', LABELLED_EN], ['en, second sample', LABELLED_EN_MORE]] as const;
  const labelled = sets.map(([language, set]) => {
    const s = scoreExtraction(set);
    return { language, turns: s.turns, expected: s.expected, extracted: s.extracted, precision: round1(s.precision), recall: round1(s.recall) };
  });
  let total = 0;
  let covered = 0;
  for (const c of input.conversations) {
    const cited = citedTurns(c);
    for (const o of input.observations[c.index] ?? []) {
      if (o.speaker !== c.speakers[0]) continue;
      total++;
      if (o.turns.some((id) => cited.has(id))) covered++;
    }
  }
  return { labelled, coverage: round1(total === 0 ? 0 : covered / total), observations: total };
}
