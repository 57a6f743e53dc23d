import { z } from 'zod';
import { MEMORY_KINDS, type Memory, type MemoryKind } from '../domain/memory.js';
import type { Profile } from '../domain/profile.js';
import type { Todo } from '../domain/todo.js';
import { parseInput } from '../errors.js';
import type { MemoryDeps } from '../pipelines/deps.js';
import { recall } from '../pipelines/recall.js';
import { recallEpisodes } from '../pipelines/recall-episodes.js';
import { resolveSettings } from '../pipelines/settings.js';
import { EMPTY_PROFILE } from '../prompts/update-profile.js';
import { detectLanguage, type Language } from '../text/language.js';
import { countTokens } from '../text/tokens.js';
import { memoEmbedder } from '../embedders/memo-embedder.js';
import { HEADINGS } from './headings.js';
import { quoteData } from './quote.js';
import { localMinute } from './local-time.js';

export const ContextOptions = z.object({
  userId: z.string().min(1),
  /** The user's current message: what the memories are recalled for. */
  query: z.string().max(20_000),
  /** Hard ceiling on the block's size in tokens (o200k tokenizer). @default 800 */
  tokenBudget: z.number().int().min(0).default(800),
  /** Heading language; detected from the query when absent. */
  language: z.enum(['zh', 'en']).optional(),
  /** Most memories considered. @default 20 */
  maxMemories: z.number().int().min(1).max(200).default(20),
  /** Most recent episodes considered (seed 003: 5). @default 5 */
  maxEpisodes: z.number().int().min(0).max(50).default(5),
  /** Todos due within this many hours (or overdue) are listed. @default 48 */
  todoHorizonHours: z.number().min(0).default(48),
  agentId: z.string().optional(),
});
export type ContextOptions = z.input<typeof ContextOptions>;

export interface ContextItem {
  type: 'profile' | 'todo' | 'memory' | 'episode';
  id: string;
  kind?: MemoryKind;
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
  /** Candidates left out because the budget was spent. */
  omitted: number;
  /** Why the block is empty although there was something to say (a budget smaller than the header). */
  note?: string;
}

interface Parts {
  profile?: Profile;
  todos: Todo[];
  memories: Memory[];
  episodes: Memory[];
}

const day = (d: Date): string => d.toISOString().slice(0, 10);

function render(language: Language, p: Parts, timeZone: string): string {
  if (!p.profile && p.todos.length + p.memories.length + p.episodes.length === 0) return '';
  const h = HEADINGS[language];
  const lines = [h.title, h.preamble, '<memories>'];
  if (p.profile) lines.push(`### ${h.profile}`, quoteData(p.profile.narrative));
  if (p.todos.length > 0) {
    lines.push(`### ${h.dueTodos}`);
    for (const t of p.todos) lines.push(`- ${quoteData(t.content)}${t.dueAt ? ` (${h.due} ${localMinute(t.dueAt, timeZone)})` : ''}`);
  }
  for (const kind of MEMORY_KINDS) {
    const group = p.memories.filter((m) => m.kind === kind);
    if (group.length === 0) continue;
    lines.push(`### ${h.kinds[kind]}`);
    for (const m of group) lines.push(`- ${quoteData(m.content)} (${day(m.happenedAt ?? m.createdAt)})`);
  }
  if (p.episodes.length > 0) {
    lines.push(`### ${h.recentConversations}`);
    for (const e of p.episodes) lines.push(`- ${day(e.happenedAt ?? e.createdAt)}: ${quoteData(e.content)}`);
  }
  lines.push('</memories>');
  return lines.join('\n');
}

/**
 * Builds the memory block for a system prompt (seed 000 §4, seed 003 "System Prompt 组装"): the
 * core profile, due todos, the memories relevant to the message grouped by kind, and recent
 * episodes, under headings in the user's language. Items are added in that order of priority,
 * each only if the whole block still fits the token budget.
 */
export async function buildContext(base: MemoryDeps, options: ContextOptions): Promise<ContextBlock> {
  const o = parseInput(ContextOptions, options, 'context options');
  // Memories and episodes are recalled for the same query: embed it once.
  const deps: MemoryDeps = { ...base, embedder: memoEmbedder(base.embedder) };
  const language = o.language ?? detectLanguage(o.query);
  const now = deps.clock.now();
  const settings = await resolveSettings(deps.store, o.userId);
  const [profile, todos, recalled, episodes] = await Promise.all([
    deps.store.latestProfile(o.userId),
    deps.store.listTodos({ userId: o.userId, completed: false, dueBefore: new Date(now.getTime() + o.todoHorizonHours * 3_600_000) }),
    o.query.trim() ? recall(deps, { userId: o.userId, query: o.query, limit: o.maxMemories, recipe: 'context', agentId: o.agentId, touch: false }) : Promise.resolve([]),
    o.maxEpisodes > 0 ? recallEpisodes(deps, { userId: o.userId, query: o.query, limit: o.maxEpisodes, timeZone: settings.timeZone }) : Promise.resolve([]),
  ]);
  const todoMemoryIds = new Set(todos.map((t) => t.memoryId));
  const memories = recalled.map((r) => r.memory).filter((m) => m.kind !== 'episode' && !todoMemoryIds.has(m.id));
  const recentEpisodes = episodes.length > 0 ? episodes : await deps.store.listMemories({ userId: o.userId, kinds: ['episode'], orderBy: 'happenedAt', limit: o.maxEpisodes });

  const chosen: Parts = { todos: [], memories: [], episodes: [] };
  const included: ContextItem[] = [];
  let text = '';
  let tokens = 0;
  let omitted = 0;
  const tryAdd = (item: Omit<ContextItem, 'tokens'>, apply: () => void, undo: () => void): void => {
    apply();
    const candidate = render(language, chosen, settings.timeZone);
    const candidateTokens = countTokens(candidate);
    if (candidateTokens > o.tokenBudget) {
      undo();
      omitted++;
      return;
    }
    included.push({ ...item, tokens: candidateTokens - tokens });
    text = candidate;
    tokens = candidateTokens;
  };

  if (profile && !Object.values(EMPTY_PROFILE).includes(profile.narrative as never)) {
    tryAdd({ type: 'profile', id: `${profile.userId}@${profile.version}` }, () => (chosen.profile = profile), () => delete chosen.profile);
  }
  for (const t of todos) tryAdd({ type: 'todo', id: t.id }, () => chosen.todos.push(t), () => chosen.todos.pop());
  // No item twice: a memory the profile already states word for word is not repeated below it.
  const stated = (m: Memory): boolean => !!chosen.profile && chosen.profile.narrative.includes(m.content.trim().replace(/[。.!！?？]$/u, ''));
  for (const m of memories) if (!stated(m)) tryAdd({ type: 'memory', id: m.id, kind: m.kind }, () => chosen.memories.push(m), () => chosen.memories.pop());
  for (const e of recentEpisodes) tryAdd({ type: 'episode', id: e.id, kind: 'episode' }, () => chosen.episodes.push(e), () => chosen.episodes.pop());

  // Only what reached the prompt counts as recalled.
  const recalledIds = included.filter((i) => i.type === 'memory' || i.type === 'episode').map((i) => i.id);
  await deps.store.recordAccess(o.userId, recalledIds, now);
  const header = text === '' && omitted > 0 ? countTokens(render(language, { profile: { narrative: '' } as Profile, todos: [], memories: [], episodes: [] }, settings.timeZone)) : 0;
  const note = header > o.tokenBudget ? `token budget ${o.tokenBudget} is smaller than the block's header and frame (${header} tokens): nothing fits` : undefined;
  return { text, tokens, budget: o.tokenBudget, language, included, omitted, ...(note ? { note } : {}) };
}
