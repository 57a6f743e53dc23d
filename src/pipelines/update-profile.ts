import type { Memory } from '../domain/memory.js';
import type { Profile } from '../domain/profile.js';
import { EngramError } from '../errors.js';
import { EMPTY_PROFILE, updateProfilePrompt } from '../prompts/update-profile.js';
import { promptRef } from '../prompts/prompt.js';
import { detectLanguage, type Language } from '../text/language.js';
import type { ExtractionDeps } from './extract-session.js';

const DAY = 86_400_000;

/** When the profile is rewritten (seed 003): after 5 new episodes, after 7 days with news, or on an important statement. */
export interface ProfilePolicy {
  episodesPerUpdate: number;
  maxAgeDays: number;
  /** A new memory at least this important, or of kind identity, triggers an update at once. */
  importantAt: number;
}
export const DEFAULT_PROFILE_POLICY: ProfilePolicy = { episodesPerUpdate: 5, maxAgeDays: 7, importantAt: 0.9 };

export interface ProfileReport {
  status: 'updated' | 'unchanged' | 'failed';
  profile: Profile | null;
  reason: string;
}

interface News {
  current: Profile | null;
  episodes: Memory[];
  facts: Memory[];
}

async function news(deps: ExtractionDeps, userId: string): Promise<News> {
  const current = await deps.store.latestProfile(userId);
  const since = current?.createdAt;
  const episodes = await deps.store.listMemories({ userId, kinds: ['episode'], createdFrom: since && new Date(since.getTime() + 1), order: 'asc', limit: 50 });
  const facts = (
    await deps.store.listMemories({ userId, kinds: ['identity', 'preference', 'fact', 'person', 'plan', 'pattern', 'event'], orderBy: 'updatedAt', limit: 200 })
  ).filter((m) => (!since || m.updatedAt.getTime() > since.getTime()) && (m.importance >= 0.6 || m.core));
  return { current, episodes, facts };
}

/** Why the profile is due for a rewrite now, or null. */
export function profileDue(n: News, now: Date, policy: ProfilePolicy): string | null {
  if (n.episodes.length >= policy.episodesPerUpdate) return `${n.episodes.length} new episodes`;
  const important = n.facts.find((m) => m.kind === 'identity' || m.importance >= policy.importantAt || m.core);
  if (important) return 'the user stated something important';
  // Cold start (seed 003): the first version waits for a few conversations, or for its oldest news to age.
  const oldestNews = Math.min(...[...n.episodes, ...n.facts].map((m) => m.createdAt.getTime()));
  const age = now.getTime() - (n.current ? n.current.createdAt.getTime() : oldestNews);
  if ((n.episodes.length > 0 || n.facts.length > 0) && age >= policy.maxAgeDays * DAY) return n.current ? `${policy.maxAgeDays} days since the last version` : 'first profile';
  return null;
}

/** Without a model: the current narrative plus the new facts, sentence by sentence (honest, not clever). */
function heuristicProfile(current: Profile | null, n: News, language: Language, forgetTopic?: string): { narrative: string; basicInfo: Record<string, string>; changes: string } {
  const old = current && !Object.values(EMPTY_PROFILE).includes(current.narrative as never) ? current.narrative : '';
  const sep = language === 'zh' ? '' : ' ';
  const sentences = [...old.split(/(?<=[。！？.!?])\s*/u), ...n.facts.map((m) => m.content.replace(/[。.]?$/u, language === 'zh' ? '。' : '.'))]
    .filter((s) => s.trim().length > 0)
    .filter((s, i, all) => all.indexOf(s) === i)
    .filter((s) => !forgetTopic || !s.toLowerCase().includes(forgetTopic.toLowerCase()));
  const basicInfo: Record<string, string> = { ...(current?.basicInfo ?? {}) };
  for (const m of n.facts) {
    const slot = m.structuredData?.slot;
    const value = m.structuredData?.value;
    if (typeof slot === 'string' && typeof value === 'string' && ['name', 'job', 'home', 'employer'].includes(slot)) basicInfo[{ name: 'name', job: 'occupation', home: 'location', employer: 'employer' }[slot]!] = value;
  }
  if (forgetTopic) for (const [k, v] of Object.entries(basicInfo)) if (v.toLowerCase().includes(forgetTopic.toLowerCase())) delete basicInfo[k];
  return { narrative: sentences.join(sep) || EMPTY_PROFILE[language], basicInfo, changes: forgetTopic ? 'a topic was forgotten' : `added ${n.facts.length} facts` };
}

/**
 * Rewrites the core profile (seed 003 Layer 3) from the current version, the episodes and the
 * important memories since it. Every version is kept; with `forgetTopic` the new version leaves
 * the topic out. Runs when due unless `force` is set.
 */
export async function updateProfile(deps: ExtractionDeps, userId: string, options: { force?: boolean; forgetTopic?: string; policy?: ProfilePolicy } = {}): Promise<ProfileReport> {
  const now = deps.clock.now();
  const n = await news(deps, userId);
  const due = options.forgetTopic ? 'forget a topic' : options.force ? 'asked' : profileDue(n, now, options.policy ?? DEFAULT_PROFILE_POLICY);
  if (!due) return { status: 'unchanged', profile: n.current, reason: 'not due' };
  const language = detectLanguage([n.current?.narrative ?? '', ...n.facts.map((m) => m.content), ...n.episodes.map((e) => e.content)].join(' '));
  let result: { narrative: string; basicInfo: Record<string, string>; changes: string };
  let producedBy: string;
  if (deps.model) {
    try {
      deps.stats.modelCalls++;
      const { output } = await deps.model.generate(updateProfilePrompt, {
        currentNarrative: n.current?.narrative ?? EMPTY_PROFILE[language],
        basicInfo: n.current?.basicInfo ?? {},
        newEpisodes: n.episodes.map((e) => ({ date: (e.happenedAt ?? e.createdAt).toISOString().slice(0, 10), summary: String(e.structuredData?.summary ?? e.content), keyFacts: (e.structuredData?.keyFacts as string[] | undefined) ?? [] })),
        newFacts: n.facts.map((m) => ({ kind: m.kind, content: m.content, date: (m.happenedAt ?? m.updatedAt).toISOString().slice(0, 10) })),
        ...(options.forgetTopic ? { forgetTopic: options.forgetTopic } : {}),
      });
      result = { narrative: output.narrative, basicInfo: Object.fromEntries(Object.entries(output.basicInfo).filter((e): e is [string, string] => typeof e[1] === 'string')), changes: output.changes };
      producedBy = promptRef(updateProfilePrompt);
    } catch (error) {
      const code = EngramError.isInstance(error) ? error.code : 'MODEL_FAILED';
      deps.logger.warn('profile update failed; the previous version stays', { code, userId, error: String(error) });
      if (!options.forgetTopic) return { status: 'failed', profile: n.current, reason: `model failed (${code})` };
      // Forgetting must not wait for a model: fall back to removing the topic by hand.
      result = heuristicProfile(n.current, { ...n, facts: [] }, language, options.forgetTopic);
      producedBy = 'heuristic';
    }
  } else {
    result = heuristicProfile(n.current, n, language, options.forgetTopic);
    producedBy = 'heuristic';
  }
  const episodeCount = await deps.store.countMemories({ userId, kinds: ['episode'], statuses: ['active', 'archived', 'deleted'] });
  const profile: Profile = { userId, version: (n.current?.version ?? 0) + 1, ...result, producedBy, episodeCount, createdAt: now };
  await deps.store.insertProfile(profile);
  return { status: 'updated', profile, reason: due };
}
