import { createHash, randomUUID } from 'node:crypto';
import type { Memory } from '../domain/memory.js';
import type { Profile } from '../domain/profile.js';
import { EngramError } from '../errors.js';
import { EMPTY_PROFILE, updateProfilePrompt } from '../prompts/update-profile.js';
import { promptRef } from '../prompts/prompt.js';
import { detectLanguage, type Language } from '../text/language.js';
import type { ModelDeps, ProcessRuntime } from './deps.js';
import { FORGOTTEN_MEANWHILE, takeForgetGuard } from './forget-guard.js';
import { mentionsTopic } from '../text/mentions.js';

const DAY = 86_400_000;
/** How long a profile update may hold its job lease: long past a model call, short enough that a crashed holder blocks little. */
const PROFILE_LEASE_MS = 10 * 60_000;
export const PROFILE_BUSY = 'another worker is updating this profile';

/** The profile job's lease name: keyed by a hash, so a lease left by a crash names no user after a forget. */
const profileJob = (userId: string): string => `profile:${createHash('sha256').update(`engram-profile-job\u0000${userId}`).digest('hex')}`;

/** The model pipeline's services, and the worker id that names this process in the job lease. */
export type ProfileDeps = ModelDeps & Partial<Pick<ProcessRuntime, 'workerId'>>;
type ProfileOptions = {
  force?: boolean;
  /** A topic to leave out, as the model reads it ("wife's birthday", "the user's own birthday"). */
  forgetTopic?: string;
  /** Which sentences are about it, when it is not every mention of `forgetTopic` (the user's own, someone else's). @default mentionsTopic */
  forgetMatches?: (text: string) => boolean;
  policy?: ProfilePolicy;
};

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

async function news(deps: ModelDeps, userId: string): Promise<News> {
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

const PROFILE_KINDS = ['identity', 'person', 'preference', 'fact', 'pattern', 'plan', 'event'] as const;
const BASIC_SLOTS: Record<string, string> = { name: 'name', job: 'occupation', home: 'location', employer: 'employer' };

/** The basics the current memories state (a corrected value is gone from them, see supersede.ts). */
function currentBasics(memories: readonly Memory[]): Record<string, string> {
  const basics: Record<string, string> = {};
  for (const m of [...memories].sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime())) {
    const slot = m.structuredData?.slot;
    const value = m.structuredData?.value;
    if (typeof slot === 'string' && typeof value === 'string' && BASIC_SLOTS[slot]) basics[BASIC_SLOTS[slot]] = value;
  }
  return basics;
}

async function profileMemories(deps: ModelDeps, userId: string): Promise<Memory[]> {
  const all = await deps.store.listMemories({ userId, kinds: PROFILE_KINDS, order: 'asc', limit: 500 });
  return all.filter((m) => m.importance >= 0.6 || m.core).sort((a, b) => PROFILE_KINDS.indexOf(a.kind as (typeof PROFILE_KINDS)[number]) - PROFILE_KINDS.indexOf(b.kind as (typeof PROFILE_KINDS)[number]));
}

/**
 * Without a model: rebuilt from the memories that are current now, sentence by sentence (honest,
 * not clever). Never appended to the previous narrative: after "不对，我现在住在上海" the profile
 * says 上海 only, because the corrected memory no longer says 北京.
 */
function heuristicProfile(memories: readonly Memory[], language: Language, forgetTopic?: string, forgetMatches?: (text: string) => boolean): { narrative: string; basicInfo: Record<string, string>; changes: string } {
  const sep = language === 'zh' ? '' : ' ';
  const about = (text: string): boolean => !!forgetTopic && (forgetMatches ?? ((t: string) => mentionsTopic(t, forgetTopic)))(text);
  const sentences = memories
    .map((m) => m.content.trim().replace(/[。.!！?？]?$/u, (end) => end || (detectLanguage(m.content) === 'zh' ? '。' : '.')))
    .filter((s, i, all) => s.length > 1 && all.indexOf(s) === i && !about(s));
  const basicInfo = Object.fromEntries(Object.entries(currentBasics(memories)).filter(([, v]) => !about(v)));
  return { narrative: sentences.join(sep) || EMPTY_PROFILE[language], basicInfo, changes: forgetTopic ? 'a topic was forgotten' : `rebuilt from ${sentences.length} current memories` };
}

/** New facts for the model; a corrected one says what it replaces, so the old value is not kept as current. */
async function withReplaced(deps: ModelDeps, userId: string, facts: readonly Memory[]): Promise<Array<{ kind: string; content: string; date: string }>> {
  const out = [];
  for (const m of facts) {
    const replaced = (await deps.store.relationsOf(userId, m.id)).filter((r) => r.type === 'supersedes' && r.sourceId === m.id);
    const old = replaced.length > 0 ? await deps.store.listMemories({ userId, ids: replaced.map((r) => r.targetId), statuses: ['archived', 'deleted'] }) : [];
    const note = old.length > 0 ? (detectLanguage(m.content) === 'zh' ? `（更正，取代：${old.map((o) => o.content).join('；')}）` : ` (a correction; replaces: ${old.map((o) => o.content).join('; ')})`) : '';
    out.push({ kind: m.kind, content: `${m.content}${note}`, date: (m.happenedAt ?? m.updatedAt).toISOString().slice(0, 10) });
  }
  return out;
}

/** When the model failed while forgetting a topic: the previous narrative without the topic's sentences. */
function withoutTopic(current: Profile | null, language: Language, topic: string, matches?: (text: string) => boolean): { narrative: string; basicInfo: Record<string, string>; changes: string } {
  const old = current && !Object.values(EMPTY_PROFILE).includes(current.narrative as never) ? current.narrative : '';
  const about = matches ?? ((text: string): boolean => mentionsTopic(text, topic));
  const sentences = old.split(/(?<=[。！？.!?])\s*/u).filter((x) => x.trim().length > 0 && !about(x));
  const basicInfo = Object.fromEntries(Object.entries(current?.basicInfo ?? {}).filter(([, v]) => !about(v)));
  return { narrative: sentences.join(language === 'zh' ? '' : ' ') || EMPTY_PROFILE[language], basicInfo, changes: 'a topic was forgotten' };
}

/**
 * Rewrites the core profile (seed 003 Layer 3) from the current version, the episodes and the
 * important memories since it. Every version is kept; with `forgetTopic` the new version leaves
 * the topic out. Runs when due unless `force` is set. One update per user at a time across
 * processes (a job lease): a second one finds it held and returns the current profile, unchanged,
 * with reason PROFILE_BUSY; forgetting a topic never waits for it and runs anyway.
 */
export async function updateProfile(deps: ProfileDeps, userId: string, options: ProfileOptions = {}): Promise<ProfileReport> {
  const now = deps.clock.now();
  const job = profileJob(userId);
  const owner = `${deps.workerId ?? 'engine'}/${randomUUID()}`;
  const held = await deps.store.acquireJobLease(job, owner, now, new Date(now.getTime() + PROFILE_LEASE_MS));
  if (!held && !options.forgetTopic) {
    // Another process (or engine) is rewriting this profile: it computes the same next version, so this run would only waste a model call.
    deps.logger.info('profile update skipped: another worker is updating this profile', { userId });
    return { status: 'unchanged', profile: await deps.store.latestProfile(userId), reason: PROFILE_BUSY };
  }
  try {
    return await updateNow(deps, userId, options, now);
  } finally {
    if (held) await deps.store.releaseJobLease(job, owner);
  }
}

async function updateNow(deps: ProfileDeps, userId: string, options: ProfileOptions, now: Date): Promise<ProfileReport> {
  const guard = await takeForgetGuard(deps.store, userId);
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
        newFacts: await withReplaced(deps, userId, n.facts),
        ...(options.forgetTopic ? { forgetTopic: options.forgetTopic } : {}),
      });
      // Basics the current memories state win over the model's copy of an older value.
      const basics = options.forgetTopic ? {} : currentBasics(await profileMemories(deps, userId));
      result = { narrative: output.narrative, basicInfo: { ...Object.fromEntries(Object.entries(output.basicInfo).filter((e): e is [string, string] => typeof e[1] === 'string')), ...basics }, changes: output.changes };
      producedBy = promptRef(updateProfilePrompt);
    } catch (error) {
      const code = EngramError.isInstance(error) ? error.code : 'MODEL_FAILED';
      deps.logger.warn('profile update failed; the previous version stays', { code, userId, error: String(error) });
      if (!options.forgetTopic) return { status: 'failed', profile: n.current, reason: `model failed (${code})` };
      // Forgetting must not wait for a model: fall back to removing the topic by hand.
      result = withoutTopic(n.current, language, options.forgetTopic, options.forgetMatches);
      producedBy = 'heuristic';
    }
  } else {
    result = heuristicProfile(await profileMemories(deps, userId), language, options.forgetTopic, options.forgetMatches);
    producedBy = 'heuristic';
  }
  const episodeCount = await deps.store.countMemories({ userId, kinds: ['episode'], statuses: ['active', 'archived', 'deleted'] });
  const profile: Profile = { userId, version: (n.current?.version ?? 0) + 1, ...result, producedBy, episodeCount, createdAt: now };
  // A forget during the model call wins: the new narrative may restate what was forgotten.
  const written = await deps.store.transaction(async (tx) => {
    if (!(await guard.holds(tx))) return false;
    await tx.insertProfile(profile);
    return true;
  });
  if (!written) {
    deps.logger.warn('profile update dropped: the user forgot something while it ran', { userId });
    return { status: 'unchanged', profile: await deps.store.latestProfile(userId), reason: FORGOTTEN_MEANWHILE };
  }
  return { status: 'updated', profile, reason: due };
}
