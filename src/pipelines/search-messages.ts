import { z } from 'zod';
import type { Message } from '../domain/conversation.js';
import { parseInput } from '../errors.js';
import { findCandidates } from '../recall/candidates.js';
import { RecallConfig } from '../recall/recall-config.js';
import { RECIPES, resolveRecallConfig, type RecipeName } from '../recall/recipes.js';
import { scoreWithBonus } from '../recall/score-with-bonus.js';
import { endsOnQuestion } from '../text/question.js';
import type { MemoryDeps } from './deps.js';
import { resolveSettings } from './settings.js';

export const SearchMessagesOptions = z.object({
  userId: z.string().min(1),
  query: z.string().max(20_000),
  /** @default 10 */
  limit: z.number().int().min(1).max(500).default(10),
  sessionId: z.string().optional(),
  recipe: z.enum(Object.keys(RECIPES) as [RecipeName, ...RecipeName[]]).optional(),
  config: RecallConfig.partial().optional(),
  /** Time zone for dates the query names. @default the user's settings */
  timeZone: z.string().optional(),
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
  /** The penalty it took for ending on a question (`conversation.questionPenalty`); absent when none. */
  question?: number;
  /** fused + neighbourWeight·neighbour + sessionWeight·session − question, mapped to [0, 1] over the candidates. */
  final: number;
}

export interface FoundMessage {
  message: Message;
  score: MessageScoreParts;
}

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

  const { radius, neighbourWeight, sessionWeight, sessionTop, questionPenalty } = config.conversation;
  // Neighbours found by keyword or as neighbours only are scored on the vector too; a seed keeps the search's own score.
  const messages = queryVector ? await scoredNeighbours(deps, o.userId, seeds, radius, queryVector, vectorScores) : await deps.store.messageNeighbours(o.userId, seeds, radius);
  const { scores } = await scoreWithBonus({
    query, now: deps.clock.now(), config, vectorScores, keywordScores, coverage,
    items: messages.map((m) => ({ id: m.id, text: m.content, at: m.createdAt })),
    timeZone: async () => o.timeZone ?? (await resolveSettings(deps.store, o.userId)).timeZone,
    searchKeyword: (terms) => deps.store.searchMessageKeyword({ userId: o.userId, terms, k, bm25: config.bm25, sessionId: o.sessionId }),
  });
  // Arrays by position in `messages` from here: this runs over hundreds of turns per context build,
  // and maps keyed by strings with an object per turn cost more than the search that found them.
  const n = messages.length;
  const fused = new Float64Array(n);
  for (let i = 0; i < n; i++) fused[i] = scores.get(messages[i]!.id)!.fused;
  let floor = Infinity;
  for (let i = 0; i < n; i++) floor = Math.min(floor, fused[i]!);
  const positions = new Map<string, Map<number, number>>();
  for (let i = 0; i < n; i++) {
    const m = messages[i]!;
    let bySeq = positions.get(m.sessionId);
    if (!bySeq) positions.set(m.sessionId, (bySeq = new Map()));
    bySeq.set(m.seq, i);
  }
  const sessionScore = new Map<string, number>();
  for (const [sessionId, bySeq] of positions) {
    const best = topScores(bySeq.values(), fused, sessionTop);
    sessionScore.set(sessionId, best.reduce((a, b) => a + b, 0) / best.length);
  }

  const raw = new Float64Array(n);
  const asks = new Float64Array(n);
  const neighbours = new Float64Array(n);
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const m = messages[i]!;
    const bySeq = positions.get(m.sessionId)!;
    let neighbour = floor;
    for (let d = 1; d <= radius; d++) {
      const before = bySeq.get(m.seq - d);
      const after = bySeq.get(m.seq + d);
      if (before !== undefined) neighbour = Math.max(neighbour, fused[before]!);
      if (after !== undefined) neighbour = Math.max(neighbour, fused[after]!);
    }
    neighbours[i] = neighbour;
    // A question asks; the evidence is its answer, which borrows from it as a neighbour.
    asks[i] = questionPenalty > 0 && endsOnQuestion(m.content) ? questionPenalty : 0;
    raw[i] = fused[i]! + neighbourWeight * neighbour + sessionWeight * sessionScore.get(m.sessionId)! - asks[i]!;
    lo = Math.min(lo, raw[i]!);
    hi = Math.max(hi, raw[i]!);
  }
  // Mapped to [0, 1] over the candidates (all 1 when they tie).
  const span = hi - lo;
  const finals = new Float64Array(n);
  const seqs = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    finals[i] = span > 0 ? (raw[i]! - lo) / span : 1;
    seqs[i] = messages[i]!.seq;
  }
  const final = (i: number): number => finals[i]!;
  const order = Array.from({ length: n }, (_, i) => i)
    // Scores within float noise of each other are a tie: the earlier turn first.
    .sort((a, b) => (Math.abs(finals[b]! - finals[a]!) > 1e-6 ? finals[b]! - finals[a]! : seqs[a]! - seqs[b]!))
    .slice(0, o.limit);
  return order.map((i) => {
    const message = messages[i]!;
    const parts: Omit<MessageScoreParts, 'final'> = { relevance: scores.get(message.id)!.absolute, fused: fused[i]!, neighbour: neighbours[i]!, session: sessionScore.get(message.sessionId)! };
    const v = vectorScores.get(message.id);
    const kw = keywordScores.get(message.id);
    if (v !== undefined) parts.vector = v;
    if (kw !== undefined) parts.keyword = kw;
    if (kw !== undefined) parts.coverage = coverage.get(message.id)!;
    if (asks[i]! > 0) parts.question = asks[i]!;
    return { message, score: { ...parts, final: final(i) } };
  });
}

/** The `k` highest of `scores` at the given positions, highest first (as sorting them all and taking k). */
function topScores(positions: Iterable<number>, scores: Float64Array, k: number): number[] {
  const best: number[] = [];
  for (const i of positions) {
    const s = scores[i]!;
    if (best.length === k && !(s > best[k - 1]!)) continue;
    let at = best.length === k ? k - 1 : best.length;
    while (at > 0 && best[at - 1]! < s) {
      best[at] = best[at - 1]!;
      at--;
    }
    best[at] = s;
  }
  return best;
}

async function scoredNeighbours(deps: MemoryDeps, userId: string, seeds: readonly string[], radius: number, queryVector: Float32Array, vectorScores: Map<string, number>): Promise<Message[]> {
  const scored = await deps.store.scoredNeighbours(userId, seeds, radius, queryVector);
  for (const [id, score] of scored.vectorScores) if (!vectorScores.has(id)) vectorScores.set(id, score);
  return scored.messages;
}
