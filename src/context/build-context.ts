import { USED_RELEVANCE } from '../recall/calibration.js';
import { z } from 'zod';
import type { Memory, MemoryKind } from '../domain/memory.js';
import { ContextExcerpts } from '../domain/settings.js';
import { parseInput } from '../errors.js';
import type { MemoryDeps } from '../pipelines/deps.js';
import type { RankingFields } from '../store/store.js';
import { loadRanked, rankMemories, type RankedMemory } from '../pipelines/recall.js';
import { recallEpisodes } from '../pipelines/recall-episodes.js';
import { resolveSettings } from '../pipelines/settings.js';
import { EMPTY_PROFILE } from '../prompts/update-profile.js';
import { detectLanguage, type Language } from '../text/language.js';
import { DIETARY_CONSTRAINT_QUERY, statesDietaryConstraint } from '../text/dietary-constraint.js';
import { asksForSuggestions } from '../text/suggestion-request.js';
import { countTokens } from '../text/tokens.js';
import { memoEmbedder } from '../embedders/memo-embedder.js';
import { todoWindowEnd } from './todo-window.js';
import { shownTodos } from './shown-todos.js';
import { findExcerpts, withoutCited, type Excerpt } from './excerpts.js';
import { HEADINGS } from './headings.js';
import { quoteData } from './quote.js';
import { ContextRanking, evidenceScore, floorDrop, rankEvidence, sourceLift, type RankedCandidate } from './rank-evidence.js';
import { episodeLine, excerptLines, memoryHeading, memoryLine, renderContext, todoLine, type ContextParts } from './render-context.js';

export const ContextOptions = z.object({
  userId: z.string().min(1),
  /** The user's current message: what the memories are recalled for. */
  query: z.string().max(20_000),
  /** Hard ceiling on the block's size in tokens (o200k tokenizer). @default 800 */
  tokenBudget: z.number().int().min(0).default(800),
  /** Heading language; detected from the query when absent. */
  language: z.enum(['zh', 'en']).optional(),
  /** Upper bound on memories, only when set: otherwise the budget and the relevance floor decide. */
  maxMemories: z.number().int().min(1).max(200).optional(),
  /** Most recent episodes considered (seed 003: 5). @default 5 */
  maxEpisodes: z.number().int().min(0).max(50).default(5),
  /** Todos due within this many hours (or overdue, a one-off for up to OVERDUE_SHOWN_DAYS) are listed, or up to the end of the days the question looks ahead to ("下周", "this week"). @default 48 */
  todoHorizonHours: z.number().min(0).default(48),
  agentId: z.string().optional(),
  /** Excerpts of past conversation beside memories; the user's `contextExcerpts` setting when absent. */
  excerpts: ContextExcerpts.optional(),
  /**
   * Tokens one excerpt may hold. @default 200 (LoCoMo 0–4, bench/tune-context-grid.ts: evidence
   * recall at 800 / 1,500 tokens 74.9 / 78.6 at a cap of 90, 79.5 / 84.3 at 120, 80.3 / 86.0 at 200,
   * the same at 260: the answer is often a neighbouring turn a short cap cuts off)
   */
  excerptTokens: z.number().int().min(16).max(2_000).default(200),
  /** The current session: its working window (sent by the caller already) is never quoted. */
  sessionId: z.string().min(1).optional(),
  /** Size of that working window in messages. @default 30 */
  windowMessages: z.number().int().min(0).max(500).default(30),
  /** How memories and excerpts are scored together, and the relevance floor. */
  ranking: ContextRanking.partial().optional(),
});
export type ContextOptions = z.input<typeof ContextOptions>;

/** One thing in the block; an excerpt is `{ type: 'excerpt', id, messageIds, tokens }`. */
export interface ContextItem {
  type: 'profile' | 'todo' | 'memory' | 'episode' | 'excerpt';
  /** For an excerpt: its best matching turn's message id (of those no memory in the block cites). */
  id: string;
  kind?: MemoryKind;
  /** Excerpts only: every quoted turn, in order. */
  messageIds?: string[];
  /** Tokens this item added to the block. */
  tokens: number;
}

export interface ContextBlock {
  /** Text for the system prompt; empty when there is nothing to say. */
  text: string;
  /** Tokens of `text`, never more than the budget. */
  tokens: number;
  budget: number;
  language: Language;
  included: ContextItem[];
  /** Relevant candidates left out because the budget (or maxMemories) was spent. */
  omitted: number;
  /** Why the block is empty although there was something to say (a budget smaller than the header). */
  note?: string;
}

type Evidence = { type: 'memory'; ranked: RankedMemory } | { type: 'excerpt'; excerpt: Excerpt };

/**
 * The block's size in tokens as lines come and go, kept as running sums: the frame once there is
 * a line, each section's heading once while it has lines, and each line with its newline. The
 * context build asks after every candidate; summing the lines afresh each time was quadratic.
 */
class BlockEstimate {
  private lines = 0;
  private headings = 0;
  private readonly sections = new Map<string, number>();
  constructor(private readonly frame: number) {}

  get tokens(): number {
    return this.sections.size === 0 ? 0 : this.frame + this.headings + this.lines;
  }

  add(heading: string, line: string): void {
    this.lines += lineTokens(line);
    const n = this.sections.get(heading) ?? 0;
    if (n === 0) this.headings += lineTokens(heading);
    this.sections.set(heading, n + 1);
  }

  remove(heading: string, line: string): void {
    this.lines -= lineTokens(line);
    const n = this.sections.get(heading) ?? 0;
    if (n <= 1) {
      if (n === 1) this.headings -= lineTokens(heading);
      this.sections.delete(heading);
    } else this.sections.set(heading, n - 1);
  }
}
const lineTokens = (s: string): number => countTokens(s) + 1;

/** Whole memories read at once when one is taken: it and the next candidates, likely taken too. */
const LOAD_BATCH = 12;
/** The ranking without overrides, parsed once (frozen: it is shared by every build). */
const DEFAULT_RANKING: ContextRanking = Object.freeze(ContextRanking.parse({}));

/**
 * Builds the memory block for a system prompt (seed 000 §4, seed 003 "System Prompt 组装"): the
 * core profile, due todos, then memories and excerpts of past conversation ranked together on one
 * absolute scale (so the budget goes to the best evidence of either, and nothing below the floor
 * goes in), then recent episodes; under headings in the user's language. Each item goes in only if
 * the block still fits the token budget. The turns an included memory cites are left out of the
 * excerpts (the memory stands for them), and an excerpt with no matching turn left goes whole.
 */
/** Todos due before this are listed: the usual horizon, or further when the question looks ahead ("下周有什么安排"). */
function todoHorizon(query: string, now: Date, hours: number, timeZone: string): Date {
  const usual = new Date(now.getTime() + hours * 3_600_000);
  const asked = todoWindowEnd(query, now, timeZone);
  return asked && asked > usual ? asked : usual;
}

export async function buildContext(base: MemoryDeps, options: ContextOptions): Promise<ContextBlock> {
  const o = parseInput(ContextOptions, options, 'context options');
  const ranking = o.ranking ? ContextRanking.parse(o.ranking) : DEFAULT_RANKING;
  // Memories, episodes and messages are searched for the same query: embed it once.
  const deps: MemoryDeps = { ...base, embedder: memoEmbedder(base.embedder) };
  const language = o.language ?? detectLanguage(o.query);
  const now = deps.clock.now();
  const settings = await resolveSettings(deps.store, o.userId);
  const excerptsOn = (o.excerpts ?? settings.contextExcerpts) === 'auto';
  const asked = o.query.trim().length > 0;
  // A low pre-filter only: the block's own floors (memoryFloor, floor) decide what goes in.
  // Ranked without reading whole memories: a line needs only the ranking fields, and the budget
  // takes a few dozen of the 100; whole rows are read for the ones taken (see `take` below).
  const recalling = asked ? rankMemories(deps, { userId: o.userId, query: o.query, limit: o.maxMemories ?? 100, recipe: 'context', config: { minRelevance: 0.1 }, agentId: o.agentId, touch: false, timeZone: settings.timeZone }) : Promise.resolve([]);
  // A request for suggestions is about the user's tastes: their preferences are ranked too, however far from its words.
  const suggesting = asked && asksForSuggestions(o.query);
  const horizon = todoHorizon(o.query, now, o.todoHorizonHours, settings.timeZone);
  const [profile, listedTodos, recalled, episodes, excerpts, preferences, constraints] = await Promise.all([
    deps.store.latestProfile(o.userId),
    deps.store.listTodos({ userId: o.userId, completed: false, live: true, dueBefore: horizon }),
    recalling,
    // Relevant episodes come out of the same recall (an agent filter would hide the user's episodes from it: then a search of their own).
    o.maxEpisodes > 0
      ? recallEpisodes(deps, { userId: o.userId, query: o.query, limit: o.maxEpisodes, timeZone: settings.timeZone, ...(o.agentId === undefined && o.maxMemories === undefined ? { recalled: recalling } : {}) })
      : Promise.resolve([]),
    asked && excerptsOn
      ? findExcerpts(deps, { userId: o.userId, query: o.query, now, ranking, sessionId: o.sessionId, windowMessages: o.windowMessages, maxTokens: o.excerptTokens, candidates: ranking.excerptCandidates, timeZone: settings.timeZone })
      : Promise.resolve([]),
    suggesting && ranking.suggestionPreferences > 0
      ? rankMemories(deps, { userId: o.userId, query: o.query, limit: ranking.suggestionPreferences, recipe: 'context', kinds: ['preference'], config: { minRelevance: 0 }, agentId: o.agentId, touch: false, timeZone: settings.timeZone })
      : Promise.resolve([]),
    // ...and whatever any suggestion must respect (an allergy, a diet), found by its words alone.
    suggesting && ranking.suggestionConstraints > 0
      ? rankMemories(deps, { userId: o.userId, query: DIETARY_CONSTRAINT_QUERY, limit: 20, recipe: 'context', kinds: ['fact', 'identity', 'preference'], config: { methods: ['keyword'], minRelevance: 0 }, agentId: o.agentId, touch: false, timeZone: settings.timeZone })
      : Promise.resolve([]),
  ]);
  // A one-off long past due and a series' passed occurrence are not listed as coming (shownTodos).
  const todos = shownTodos(listedTodos, now, horizon);
  const todoMemoryIds = new Set(todos.map((t) => t.memoryId));
  const facts = recalled.filter((r) => r.fields.kind !== 'episode' && !todoMemoryIds.has(r.fields.id));
  const lift = sourceLift(facts.map((r) => r.score.final), ranking.searchWeight);
  const memories: Array<RankedCandidate<Evidence>> = facts.map((r, i) => ({
    item: { type: 'memory', ranked: r },
    // The block's own scale, or recall's calibrated relevance (absolute, 0–1) when that says more:
    // with a weak embedder a keyword-matched fact can sit just under the floor on cosine alone.
    // Recall's own order lifts it as the message search's lifts an excerpt (ordering only: the floor rises alike).
    score: Math.max(evidenceScore(r.score, ranking) + ranking.memoryBonus, r.score.relevance) + lift[i]!,
    floor: ranking.memoryFloor + lift[i]!,
  }));
  if (preferences.length > 0) admitPreferences(memories, preferences.filter((p) => !todoMemoryIds.has(p.fields.id)), ranking, lift);
  const musts = constraints.filter((c) => !todoMemoryIds.has(c.fields.id) && statesDietaryConstraint(c.fields.content)).slice(0, ranking.suggestionConstraints);
  if (musts.length > 0) admitConstraints(memories, musts);
  const candidates = [...memories, ...excerpts.map((e) => ({ item: { type: 'excerpt' as const, excerpt: e }, score: e.score, floor: e.floor }))];
  const ranked = rankEvidence<Evidence>(candidates, ranking);
  // An excerpt that loses its best turn to a memory is judged again on the turn it has left, against the same floors.
  const drop = floorDrop(candidates, ranking);
  const wholeMemories = new Map<string, Memory | null>();
  /** The whole memory of a candidate taken, read with the next few not yet read; null when it is gone since ranking. */
  const take = async (position: number, id: string): Promise<Memory | null> => {
    if (!wholeMemories.has(id)) {
      const batch = ranked.slice(position).flatMap((c) => (c.item.type === 'memory' && !wholeMemories.has(c.item.ranked.fields.id) ? [c.item.ranked.fields.id] : [])).slice(0, LOAD_BATCH);
      const read = await loadRanked(deps, o.userId, batch, ['active']);
      for (const b of batch) wholeMemories.set(b, read.get(b) ?? null);
    }
    return wholeMemories.get(id)!;
  };
  const recentEpisodes = episodes.length > 0 ? episodes : await deps.store.listMemories({ userId: o.userId, kinds: ['episode'], orderBy: 'happenedAt', limit: o.maxEpisodes });

  const h = HEADINGS[language];
  const chosen: ContextParts = { todos: [], memories: [], excerpts: [], episodes: [] };
  const entries: Array<{ item: ContextItem; heading: string; line: string; remove: () => void }> = [];
  const frame = countTokens([h.title, h.preamble, '<memories>', '</memories>'].join('\n'));
  // An estimate kept as items come and go; the rendered block is counted exactly below.
  const estimate = new BlockEstimate(frame);
  let omitted = 0;
  const tryAdd = (item: ContextItem, heading: string, line: string, apply: () => void, remove: () => void): boolean => {
    const before = estimate.tokens;
    entries.push({ item, heading, line, remove });
    estimate.add(heading, line);
    const after = estimate.tokens;
    if (after > o.tokenBudget) {
      entries.pop();
      estimate.remove(heading, line);
      omitted++;
      return false;
    }
    item.tokens = after - before;
    apply();
    return true;
  };
  const pull = <T>(list: T[], value: T) => () => void list.splice(list.indexOf(value), 1);

  if (profile && !Object.values(EMPTY_PROFILE).includes(profile.narrative as never)) {
    tryAdd({ type: 'profile', id: `${profile.userId}@${profile.version}`, tokens: 0 }, `### ${h.profile}`, quoteData(profile.narrative), () => (chosen.profile = profile), () => delete chosen.profile);
  }
  for (const t of todos) tryAdd({ type: 'todo', id: t.id, tokens: 0 }, `### ${h.dueTodos}`, todoLine(language, t, settings.timeZone, now), () => chosen.todos.push(t), pull(chosen.todos, t));

  const stated = (m: RankingFields): boolean => !!chosen.profile && chosen.profile.narrative.includes(m.content.trim().replace(/[。.!！?？]$/u, ''));
  const cited = new Set<string>();
  const excerptHeading = `### ${h.excerpts}`;
  for (const [position, { item }] of ranked.entries()) {
    if (item.type === 'memory') {
      const f = item.ranked.fields;
      if (o.maxMemories !== undefined && chosen.memories.length >= o.maxMemories) {
        omitted++;
        continue;
      }
      // No item twice: a memory the profile already states word for word is not repeated below it.
      if (stated(f)) continue;
      const entry = { type: 'memory' as const, id: f.id, kind: f.kind, tokens: 0 };
      let taken: Memory | undefined;
      const untake = (): void => {
        if (taken) chosen.memories.splice(chosen.memories.indexOf(taken), 1);
      };
      if (!tryAdd(entry, memoryHeading(language, f), memoryLine(f, settings.timeZone), () => undefined, untake)) continue;
      const m = await take(position, f.id);
      if (!m) {
        // Deleted or changed since ranking: not shown stale, and its room goes back.
        const at = entries.findIndex((e) => e.item === entry);
        const [gone] = entries.splice(at, 1);
        estimate.remove(gone!.heading, gone!.line);
        continue;
      }
      chosen.memories.push((taken = m));
      for (const id of m.provenance.messageIds) cited.add(id);
      // Excerpts already in give way to it: the turns it cites, whole when no matching turn left clears its floor on its own.
      for (const e of entries.filter((x) => x.item.type === 'excerpt')) {
        const excerpt = chosen.excerpts.find((x) => x.id === e.item.id)!;
        const left = withoutCited(excerpt, cited, drop);
        if (left === excerpt) continue;
        if (!left) {
          e.remove();
          entries.splice(entries.indexOf(e), 1);
          estimate.remove(e.heading, e.line);
          continue;
        }
        Object.assign(excerpt, left);
        estimate.remove(e.heading, e.line);
        e.line = excerptLines(language, excerpt, settings.timeZone);
        estimate.add(e.heading, e.line);
        e.item.id = excerpt.id;
        e.item.messageIds = excerpt.turns.map((t) => t.id);
      }
      continue;
    }
    // A memory stands for the turns it cites, and an excerpt in already for the turns it quotes (a
    // short turn's lead, a run of matches split in two): they are left out, the excerpt too when no
    // matching turn left clears its floor.
    // (A set is made only for an excerpt that does share a turn: the block's build is on the proxy's path.)
    const shares = item.excerpt.turns.some((t) => chosen.excerpts.some((x) => x.turns.some((u) => u.id === t.id)));
    const excerpt = withoutCited(item.excerpt, shares ? new Set([...cited, ...chosen.excerpts.flatMap((x) => x.turns.map((t) => t.id))]) : cited, drop);
    if (!excerpt) continue;
    tryAdd(
      { type: 'excerpt', id: excerpt.id, messageIds: excerpt.turns.map((t) => t.id), tokens: 0 },
      excerptHeading,
      excerptLines(language, excerpt, settings.timeZone),
      () => chosen.excerpts.push(excerpt),
      pull(chosen.excerpts, excerpt),
    );
  }
  for (const e of recentEpisodes) tryAdd({ type: 'episode', id: e.id, kind: 'episode', tokens: 0 }, `### ${h.recentConversations}`, episodeLine(e, settings.timeZone), () => chosen.episodes.push(e), pull(chosen.episodes, e));

  // The estimate can be off by a token where lines meet: drop the last additions until the real count fits.
  let text = renderContext(language, chosen, settings.timeZone, now);
  let tokens = countTokens(text);
  while (tokens > o.tokenBudget && entries.length > 0) {
    entries.pop()!.remove();
    omitted++;
    text = renderContext(language, chosen, settings.timeZone, now);
    tokens = countTokens(text);
  }
  const included = entries.map((e) => e.item);

  // Only what reached the prompt counts as recalled, and only what it was chosen for: a memory the
  // query matches (calibrated relevance, not a weak filler), a preference or constraint a request for
  // suggestions asked for, an episode found for the query (not the recent ones shown by default).
  const used = new Set([
    ...recalled.filter((r) => r.score.relevance >= USED_RELEVANCE).map((r) => r.fields.id),
    ...preferences.map((p) => p.fields.id),
    ...musts.map((c) => c.fields.id),
    ...episodes.map((e) => e.id),
  ]);
  const recalledIds = included.filter((i) => (i.type === 'memory' || i.type === 'episode') && used.has(i.id)).map((i) => i.id);
  await deps.store.recordAccess(o.userId, recalledIds, now);
  const header = text === '' && omitted > 0 ? frame : 0;
  const note = header > o.tokenBudget ? `token budget ${o.tokenBudget} is smaller than the block's header and frame (${header} tokens): nothing fits` : undefined;
  return { text, tokens, budget: o.tokenBudget, language, included, omitted, ...(note ? { note } : {}) };
}

/** Above any evidence's score: what a suggestion must respect heads the block, whatever the request is about. */
const CONSTRAINT_SCORE = 10;

/**
 * Allergies, intolerances and diets for a request for suggestions: at the top, candidates or not;
 * the budget still decides. One that clears its floor on its own keeps its place. The others sit
 * exactly on a floor of their own, so they lower no other floor (`floorDrop` counts a candidate
 * that clears its floor by a margin).
 */
function admitConstraints(memories: Array<RankedCandidate<Evidence>>, constraints: readonly RankedMemory[]): void {
  const at = new Map(memories.map((m, i) => [m.item.type === 'memory' ? m.item.ranked.fields.id : '', i]));
  for (const c of constraints) {
    const i = at.get(c.fields.id);
    if (i !== undefined && memories[i]!.score >= memories[i]!.floor!) continue;
    const admitted = { item: { type: 'memory' as const, ranked: i === undefined ? c : (memories[i]!.item as Extract<Evidence, { type: 'memory' }>).ranked }, score: CONSTRAINT_SCORE, floor: CONSTRAINT_SCORE };
    if (i === undefined) memories.push(admitted);
    else memories[i] = admitted;
  }
}

/**
 * A request for suggestions is about the user's tastes. Its best preferences (`preferences`, ranked
 * for it with no relevance cut) come in over `suggestionFloor` rather than the memory floor, at most
 * `suggestionPreferences` of them below the memory floor: those among the candidates get the lower
 * floor, the others join them. They keep their scores, so they follow whatever cleared the usual
 * floor, and the budget still decides.
 */
function admitPreferences(memories: Array<RankedCandidate<Evidence>>, preferences: readonly RankedMemory[], ranking: ContextRanking, lift: readonly number[]): void {
  const at = new Map(memories.map((m, i) => [m.item.type === 'memory' ? m.item.ranked.fields.id : '', i]));
  let admitted = 0;
  for (const p of preferences) {
    if (admitted >= ranking.suggestionPreferences) return;
    const i = at.get(p.fields.id);
    if (i === undefined) {
      const score = Math.max(evidenceScore(p.score, ranking) + ranking.memoryBonus, p.score.relevance);
      if (score < ranking.suggestionFloor) continue;
      memories.push({ item: { type: 'memory', ranked: p }, score, floor: ranking.suggestionFloor });
      admitted++;
      continue;
    }
    const candidate = memories[i]!;
    if (candidate.score >= candidate.floor!) continue;
    candidate.floor = Math.min(candidate.floor!, ranking.suggestionFloor + lift[i]!);
    if (candidate.score >= candidate.floor) admitted++;
  }
}
