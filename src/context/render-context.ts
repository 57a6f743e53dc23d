import { MEMORY_KINDS, type Memory } from '../domain/memory.js';
import { describeRecurrence } from '../domain/recurrence.js';
import { withoutFallbackMark } from '../domain/episode.js';
import type { Profile } from '../domain/profile.js';
import type { Todo } from '../domain/todo.js';
import type { Language } from '../text/language.js';
import type { Excerpt } from './excerpts.js';
import { HEADINGS } from './headings.js';
import { localDay, localMinute } from './local-time.js';
import { quoteData } from './quote.js';
import { isOverdue } from './shown-todos.js';

/** What the block holds, in the order it is written. */
export interface ContextParts {
  profile?: Profile;
  todos: Todo[];
  memories: Memory[];
  excerpts: Excerpt[];
  episodes: Memory[];
}

/** A todo with its due time on the user's wall clock (stored in UTC); a one-off past it is marked overdue. */
export const todoLine = (language: Language, t: Todo, timeZone: string, now: Date): string => {
  const repeats = t.repeat ? describeRecurrence(t.repeat, language) : undefined;
  const h = HEADINGS[language];
  const due = t.dueAt ? `${repeats ? h.next : isOverdue(t, now) ? h.overdue : h.due} ${localMinute(t.dueAt, timeZone)}` : undefined;
  const when = [due, repeats].filter(Boolean).join(language === 'zh' ? '，' : ', ');
  return `- ${quoteData(t.content)}${when ? ` (${when})` : ''}`;
};
/** A memory with the day it happened (or was noted) on the user's wall clock. */
export const memoryLine = (m: Pick<Memory, 'content' | 'happenedAt' | 'createdAt'>, timeZone: string): string => `- ${quoteData(m.content)} (${localDay(m.happenedAt ?? m.createdAt, timeZone)})`;
/** A recent episode: its day, then its summary quoted as data (a fallback's without its mark: the assistant needs what was said, not that the model failed). */
export const episodeLine = (e: Memory, timeZone: string): string => `- ${localDay(e.happenedAt ?? e.createdAt, timeZone)}: ${quoteData(withoutFallbackMark(e.content))}`;

/** An excerpt: the day it was said on the user's wall clock, then each turn quoted as data after who spoke. */
export function excerptLines(language: Language, e: Excerpt, timeZone: string): string {
  const who = HEADINGS[language].speakers;
  return e.turns
    .map((t, i) => `${i === 0 ? `- ${localDay(t.createdAt, timeZone)} ` : '  '}${t.role === 'user' ? who.user : who.assistant}: ${quoteData(t.content)}`)
    .join('\n');
}

/** The section heading an item goes under (one per kind for memories). */
export const memoryHeading = (language: Language, m: Pick<Memory, 'kind'>): string => `### ${HEADINGS[language].kinds[m.kind]}`;

/** The whole block; empty when there is nothing to say. */
export function renderContext(language: Language, p: ContextParts, timeZone: string, now: Date): string {
  if (!p.profile && p.todos.length + p.memories.length + p.excerpts.length + p.episodes.length === 0) return '';
  const h = HEADINGS[language];
  const lines = [h.title, h.preamble, '<memories>'];
  if (p.profile) lines.push(`### ${h.profile}`, quoteData(p.profile.narrative));
  if (p.todos.length > 0) lines.push(`### ${h.dueTodos}`, ...p.todos.map((t) => todoLine(language, t, timeZone, now)));
  for (const kind of MEMORY_KINDS) {
    const group = p.memories.filter((m) => m.kind === kind);
    if (group.length > 0) lines.push(`### ${h.kinds[kind]}`, ...group.map((m) => memoryLine(m, timeZone)));
  }
  if (p.excerpts.length > 0) lines.push(`### ${h.excerpts}`, ...[...p.excerpts].sort(byTime).map((e) => excerptLines(language, e, timeZone)));
  if (p.episodes.length > 0) lines.push(`### ${h.recentConversations}`, ...p.episodes.map((e) => episodeLine(e, timeZone)));
  lines.push('</memories>');
  return lines.join('\n');
}

/** Excerpts read in the order they were said. */
const byTime = (a: Excerpt, b: Excerpt): number => a.turns[0]!.createdAt.getTime() - b.turns[0]!.createdAt.getTime() || a.turns[0]!.seq - b.turns[0]!.seq;
