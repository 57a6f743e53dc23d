import type { Message } from '../domain/conversation.js';
import type { MemoryDeps } from '../pipelines/deps.js';
import { searchMessages, type FoundMessage } from '../pipelines/search-messages.js';
import { countTokens } from '../text/tokens.js';
import { evidenceScore, type ContextRanking } from './rank-evidence.js';
import { trimAroundMatch, trimToTokens } from './trim-around-match.js';
import { holdsCredential, withoutCredentials } from '../extraction/credential.js';
import { isSmallTalk } from '../extraction/heuristic/small-talk.js';

/** A stretch of past conversation offered to the context block: a matching turn and its neighbours. */
export interface Excerpt {
  /** The best matching turn's message id. */
  id: string;
  sessionId: string;
  /** In conversation order, each possibly trimmed to fit the excerpt's token cap. */
  turns: Array<Pick<Message, 'id' | 'role' | 'content' | 'createdAt' | 'seq'>>;
  /** The quoted turns that matched the query themselves (not only as neighbours), with their own scores and floors, best first (the first is the excerpt's). */
  hits: Array<{ id: string; score: number; floor: number }>;
  score: number;
  /** The floor it must clear: higher when no quoted match shares a keyword with the query. */
  floor: number;
}

export interface FindExcerptsOptions {
  userId: string;
  query: string;
  now: Date;
  ranking: ContextRanking;
  /** Turns of the current session the caller already sends; never repeated. */
  sessionId?: string;
  windowMessages: number;
  /** Tokens one excerpt may hold. */
  maxTokens: number;
  /** Turns fetched from the message search. */
  candidates: number;
  /** For dates the query names. @default the user's settings */
  timeZone?: string;
}

/** A turn this short ("Yes!", "好啊") is shown with the turn before it, which it answers. */
const SHORT_TURN_TOKENS = 10;
/**
 * Matching turns one excerpt joins (plus the turn a short first one answers). Two, not four: a long
 * run of matches then becomes several excerpts, each ranked on its own, instead of one that spends
 * its tokens on the run's weaker turns (LoCoMo 0–4, bench/tune-context-grid.ts, evidence recall at
 * 800 / 1,500 tokens: offline 81.0 / 86.6 → 82.1 / 86.9, observations 84.4 / 88.3 → 85.4 / 89.7;
 * one turn was worse than two in the run before session 9's search change: 80.5 / 85.5, 85.2 / 89.6).
 */
const MAX_TURNS = 2;

const at = (m: Pick<Message, 'sessionId' | 'seq'>): string => `${m.sessionId}\u0000${m.seq}`;

/**
 * Finds conversation excerpts for a query through the message search (hybrid, neighbour and
 * session borrowing). Turns of the working window, system turns and turns past their retention
 * are left out; adjacent matches become one excerpt; each excerpt is cut to `maxTokens`.
 */
export async function findExcerpts(deps: MemoryDeps, o: FindExcerptsOptions): Promise<Excerpt[]> {
  if (o.query.trim().length === 0 || o.maxTokens <= 0) return [];
  const [found, window] = await Promise.all([
    searchMessages(deps, { userId: o.userId, query: o.query, limit: o.candidates, ...(o.timeZone === undefined ? {} : { timeZone: o.timeZone }) }),
    o.sessionId && o.windowMessages > 0 ? deps.store.listMessages({ userId: o.userId, sessionId: o.sessionId, order: 'desc', limit: o.windowMessages }) : Promise.resolve([]),
  ]);
  const hidden = new Set(window.map((m) => m.id));
  const usable = (m: Message): boolean => m.role !== 'system' && !hidden.has(m.id) && !(m.expiresAt && m.expiresAt.getTime() <= o.now.getTime()) && m.content.trim().length > 0;
  const own = new Map(found.map((f) => [at(f.message), { f, score: evidenceScore(f.score, o.ranking), lexical: (f.score.keyword ?? 0) > 0, vector: f.score.vector ?? 0 }]));
  // "哈哈哈", "ok", "嗯嗯" answer no question: never an excerpt of their own (a time named in the query matched them by date).
  const scored = found.filter((f) => usable(f.message) && !isSmallTalk(f.message.content)).flatMap((f) => {
    const self = own.get(at(f.message))!;
    let best = { score: self.score, lexical: self.lexical, vector: self.vector };
    for (const d of [-1, 1]) {
      const n = own.get(at({ sessionId: f.message.sessionId, seq: f.message.seq + d }));
      if (n && o.ranking.neighbourFactor * n.score > best.score) best = { score: o.ranking.neighbourFactor * n.score, lexical: n.lexical, vector: n.vector };
    }
    // The search's own order lifts it (`sourceLift`: its final score is already rescaled to [0, 1]
    // over the search's candidates); the excerpt's floor rises alike, so the lift only orders.
    return best.vector >= o.ranking.excerptMinVector ? [{ f, ...best, lift: o.ranking.searchWeight * f.score.final }] : [];
  });
  scored.sort((a, b) => b.score + b.lift - (a.score + a.lift) || a.f.message.seq - b.f.message.seq);

  // Adjacent matches join one excerpt, best first, up to MAX_TURNS turns.
  const floorOf = (x: { lift: number; lexical: boolean }): number => o.ranking.floor + x.lift + (x.lexical ? 0 : o.ranking.semanticMargin);
  const groups: Array<{ hits: FoundMessage[]; own: Array<{ id: string; score: number; floor: number }>; score: number; lift: number; lexical: boolean }> = [];
  for (const x of scored) {
    const { f, score, lift, lexical } = x;
    const mine = { id: f.message.id, score: score + lift, floor: floorOf(x) };
    const near = groups.find((g) => g.hits.length < MAX_TURNS && g.hits.some((h) => h.message.sessionId === f.message.sessionId && Math.abs(h.message.seq - f.message.seq) <= 1));
    if (near) {
      near.hits.push(f);
      near.own.push(mine);
    } else groups.push({ hits: [f], own: [mine], score, lift, lexical });
  }
  // A short first turn is shown with the turn it answers.
  const before = groups
    .map((g) => g.hits.reduce((a, b) => (a.message.seq <= b.message.seq ? a : b)).message)
    .filter((m) => m.seq > 0 && countTokens(m.content) < SHORT_TURN_TOKENS);
  const previous = new Map<string, Message>();
  if (before.length > 0) {
    const around = await deps.store.messageNeighbours(o.userId, before.map((m) => m.id), 1);
    for (const m of around) if (usable(m)) previous.set(at(m), m);
  }
  return groups.map((g) => {
    const hits = [...g.hits].sort((a, b) => a.message.seq - b.message.seq).map((h) => h.message);
    const first = hits[0]!;
    const lead = countTokens(first.content) < SHORT_TURN_TOKENS ? previous.get(at({ sessionId: first.sessionId, seq: first.seq - 1 })) : undefined;
    const turns = fitTurns(lead ? [lead, ...hits] : hits, g.hits[0]!.message.id, o.maxTokens, o.query);
    const shown = (id: string): boolean => turns.some((t) => t.id === id);
    return { id: g.hits[0]!.message.id, sessionId: first.sessionId, turns, hits: g.own.filter((h) => shown(h.id)), score: g.score + g.lift, floor: floorOf(g) };
  });
}

/**
 * The excerpt without the turns a memory in the block cites (the memory stands for them); null when
 * no turn that matched the query is left. When the best matching turn is cited, the excerpt stays
 * for its next matching turn, named, scored and floored as that turn alone, and only while that
 * turn clears its floor (less `floorDrop`, the block's relaxation): the fact a memory kept from one
 * turn is seldom the detail the next one adds (LoCoMo 0–4, evidence recall @800 / @1,500: offline
 * 82.1 / 86.9 → 82.4 / 87.7, observations 85.4 / 89.7 → 86.7 / 90.8, when an excerpt went whole
 * as soon as its best turn was cited; session 10, bench/results/2026-11-25-s10-context.md), but a
 * weak turn that rode along with a strong one is not quoted on its own.
 */
export function withoutCited(e: Excerpt, cited: ReadonlySet<string>, floorDrop = 0): Excerpt | null {
  if (!e.turns.some((t) => cited.has(t.id))) return e;
  const hits = e.hits.filter((h) => !cited.has(h.id));
  const best = hits[0];
  if (!best) return null;
  if (best.score < best.floor - floorDrop) return null;
  return { ...e, id: best.id, hits, turns: e.turns.filter((t) => !cited.has(t.id)), score: best.score, floor: best.floor };
}

/** Keeps the best turn first (cut to the cap around its matching sentence if it must be), then the others while they fit. */
function fitTurns(said: readonly Message[], bestId: string, maxTokens: number, query: string): Excerpt['turns'] {
  // A password said in passing is quoted without its value: the block goes to the model provider.
  const turns = said.map((t) => (holdsCredential(t.content) ? { ...t, content: withoutCredentials(t.content) } : t));
  const best = turns.find((t) => t.id === bestId)!;
  const kept = new Map<string, string>([[best.id, trimAroundMatch(best.content, query, maxTokens)]]);
  let left = maxTokens - countTokens(kept.get(best.id)!);
  // Nearest turns to the best one first.
  for (const t of [...turns].sort((a, b) => Math.abs(a.seq - best.seq) - Math.abs(b.seq - best.seq))) {
    if (kept.has(t.id)) continue;
    const cost = countTokens(t.content);
    if (cost <= left) kept.set(t.id, t.content);
    else if (left >= 16) kept.set(t.id, trimToTokens(t.content, left));
    else continue;
    left -= countTokens(kept.get(t.id)!);
  }
  return turns.filter((t) => kept.has(t.id)).map((t) => ({ id: t.id, role: t.role, content: kept.get(t.id)!, createdAt: t.createdAt, seq: t.seq }));
}
