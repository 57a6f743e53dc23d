import { z } from 'zod';
import type { Message } from '../domain/conversation.js';
import { dot } from '../embedders/embedder.js';
import { parseInput } from '../errors.js';
import { findCandidates } from '../recall/candidates.js';
import { minMax } from '../recall/fusion.js';
import { RecallConfig } from '../recall/recall-config.js';
import { RECIPES, resolveRecallConfig, type RecipeName } from '../recall/recipes.js';
import { scoreCandidates } from '../recall/score-candidates.js';
import type { MemoryDeps } from './deps.js';

export const SearchMessagesOptions = z.object({
  userId: z.string().min(1),
  query: z.string().max(20_000),
  /** @default 10 */
  limit: z.number().int().min(1).max(500).default(10),
  sessionId: z.string().optional(),
  recipe: z.enum(Object.keys(RECIPES) as [RecipeName, ...RecipeName[]]).optional(),
  config: RecallConfig.partial().optional(),
});
export type SearchMessagesOptions = z.input<typeof SearchMessagesOptions>;

/** Why a message was found. */
export interface MessageScoreParts {
  vector?: number;
  keyword?: number;
  coverage?: number;
  /** The turn's own relevance on [0, 1]: absolute with calibrated fusion (see recall/calibration.ts). */
  relevance: number;
  /** The turn's own fused score (calibrated log-odds by default). */
  fused: number;
  /** Best fused score among its neighbours. */
  neighbour: number;
  /** Its session's score. */
  session: number;
  /** fused + neighbourWeight·neighbour + sessionWeight·session, mapped to [0, 1] over the candidates. */
  final: number;
}

export interface FoundMessage {
  message: Message;
  score: MessageScoreParts;
}

const key = (m: Pick<Message, 'sessionId' | 'seq'>): string => `${m.sessionId}\u0000${m.seq}`;

/**
 * Searches the user's raw messages (seed 003 "按需RAG"): vector and keyword candidates and their
 * neighbouring turns, fused, then each turn borrows from its neighbours and its session.
 */
export async function searchMessages(deps: MemoryDeps, options: SearchMessagesOptions): Promise<FoundMessage[]> {
  const o = parseInput(SearchMessagesOptions, options, 'message search options');
  // The caller's own partial config, not the parsed one: parsing a partial fills in every default,
  // which would silently undo the recipe (a 'keyword' search with { candidates } became hybrid).
  // resolveRecallConfig validates the merged result.
  const config = resolveRecallConfig(o.recipe ?? 'messages', options.config);
  const query = o.query.trim();
  if (query.length === 0) return [];
  const k = config.candidates;
  const { queryVector, vectorScores, keywordScores, coverage, ids: seeds } = await findCandidates({
    query,
    config,
    embedder: deps.embedder,
    searchVector: (vector) => deps.store.searchMessageVector({ userId: o.userId, vector, k, sessionId: o.sessionId, embedderId: deps.embedder.id }),
    searchKeyword: (terms) => deps.store.searchMessageKeyword({ userId: o.userId, terms, k, bm25: config.bm25, sessionId: o.sessionId }),
  });
  if (seeds.length === 0) return [];

  const { radius, neighbourWeight, sessionWeight, sessionTop } = config.conversation;
  const messages = await deps.store.messageNeighbours(o.userId, seeds, radius);
  if (queryVector) {
    const missing = messages.filter((m) => !vectorScores.has(m.id)).map((m) => m.id);
    for (const [id, v] of await deps.store.messageVectorsOf(o.userId, missing)) vectorScores.set(id, dot(queryVector, v));
  }
  const scores = scoreCandidates({ ids: messages.map((m) => m.id), vectorScores, keywordScores, coverage, config });
  const own = (m: Message): number => scores.get(m.id)!.fused;
  const floor = Math.min(...[...scores.values()].map((s) => s.fused));
  const byPosition = new Map(messages.map((m) => [key(m), m]));
  const bySession = new Map<string, number[]>();
  for (const m of messages) {
    const list = bySession.get(m.sessionId);
    if (list) list.push(own(m));
    else bySession.set(m.sessionId, [own(m)]);
  }
  const sessionScore = new Map<string, number>();
  for (const [sessionId, fused] of bySession) {
    const best = fused.sort((a, b) => b - a).slice(0, sessionTop);
    sessionScore.set(sessionId, best.reduce((a, b) => a + b, 0) / best.length);
  }

  const raw = new Map<string, number>();
  const parts = new Map<string, Omit<MessageScoreParts, 'final'>>();
  for (const m of messages) {
    let neighbour = floor;
    for (let d = 1; d <= radius; d++) {
      for (const n of [byPosition.get(key({ sessionId: m.sessionId, seq: m.seq - d })), byPosition.get(key({ sessionId: m.sessionId, seq: m.seq + d }))]) {
        if (n) neighbour = Math.max(neighbour, own(n));
      }
    }
    const session = sessionScore.get(m.sessionId) ?? floor;
    raw.set(m.id, own(m) + neighbourWeight * neighbour + sessionWeight * session);
    const p: Omit<MessageScoreParts, 'final'> = { relevance: scores.get(m.id)!.absolute, fused: own(m), neighbour, session };
    const v = vectorScores.get(m.id);
    const kw = keywordScores.get(m.id);
    if (v !== undefined) p.vector = v;
    if (kw !== undefined) p.keyword = kw;
    if (kw !== undefined) p.coverage = coverage.get(m.id)!;
    parts.set(m.id, p);
  }
  const finals = minMax(raw);
  return messages
    .map((message) => ({ message, score: { ...parts.get(message.id)!, final: finals.get(message.id)! } }))
    // Scores within float noise of each other are a tie: the earlier turn first.
    .sort((a, b) => (Math.abs(b.score.final - a.score.final) > 1e-6 ? b.score.final - a.score.final : a.message.seq - b.message.seq))
    .slice(0, o.limit);
}
