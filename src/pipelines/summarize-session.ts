import type { Message } from '../domain/conversation.js';
import { MAX_CONTENT_LENGTH, type Memory } from '../domain/memory.js';
import { FALLBACK_SUMMARY_MARK } from '../domain/episode.js';
import { isSmallTalkBatch } from '../extraction/heuristic/small-talk.js';
import { summarizeEpisodePrompt, type EpisodeSummary } from '../prompts/summarize-episode.js';
import { promptRef } from '../prompts/prompt.js';
import { detectLanguage, type Language } from '../text/language.js';
import type { ChangeContext } from '../domain/history.js';
import type { MemoryDeps } from './deps.js';
import { topicWords } from '../text/topics.js';
import { isSmallTalk } from '../extraction/heuristic/small-talk.js';
import { EngramError } from '../errors.js';
import type { EngineDeps, ModelDeps } from './deps.js';

/**
 * Summarizing takes the model's slice, the running set (one summary per session in this process)
 * and what the session's summary lease needs (one summary per session across processes).
 */
export type SummarizeDeps = ModelDeps & Pick<EngineDeps, 'running' | 'workerId' | 'extraction'>;
import { holdLease, type HeldLease } from './extraction-lease.js';
import { FORGOTTEN_MEANWHILE, takeForgetGuard } from './forget-guard.js';
import { withoutCredentials } from '../extraction/credential.js';

/** Seed 003: sessions with fewer messages than this get no episode. */
export const MIN_EPISODE_MESSAGES = 3;
const RETRY_MS = 10 * 60_000;

export interface SummarizeReport {
  sessionId: string;
  status: 'summarized' | 'fallback' | 'skipped' | 'nothing';
  episodeId?: string;
  reason: string;
}

/** The text stored and searched for an episode: its summary plus its topics. */
function episodeContent(s: EpisodeSummary, language: 'zh' | 'en'): string {
  const topics = s.topics.join(language === 'zh' ? '、' : ', ');
  return language === 'zh' ? `${s.summary}（话题：${topics}）` : `${s.summary} (Topics: ${topics})`;
}

export interface BuiltEpisode {
  memory: Memory;
  content: string;
  structuredData: Record<string, unknown>;
  vector: Float32Array | null;
  change: ChangeContext;
}

/** The episode memory for a summary of some messages of a session: its text, time span and vector. */
export async function buildEpisode(
  deps: MemoryDeps,
  input: { userId: string; sessionId: string; summary: EpisodeSummary; messages: readonly Message[]; summarizer: string; language: Language; fallback?: boolean },
): Promise<BuiltEpisode> {
  const { userId, sessionId, summary, messages, summarizer, language } = input;
  const now = deps.clock.now();
  const first = messages[0]!;
  const last = messages.at(-1)!;
  // A summary quotes the user (the extractive one word for word): a credential's value is not kept.
  // As long as a memory may be, whatever the model wrote (an export of it must import back).
  const content = fitLength(withoutCredentials(episodeContent(summary, language)));
  const [vector] = await deps.embedder.embed([content]);
  const structuredData = {
    ...summary, sessionId, fromSeq: first.seq, throughSeq: last.seq, startedAt: first.createdAt.toISOString(), endedAt: last.createdAt.toISOString(),
    messageCount: messages.length, summarizer,
  };
  const memory: Memory = {
    id: deps.ids.next(), userId, sessionId, kind: 'episode', content, structuredData, importance: 0.5, confidence: input.fallback ? 0.3 : 0.8,
    source: 'system', verified: false, core: false, status: 'active',
    provenance: { sessionId, messageIds: messages.map((m) => m.id), ...(summarizer.includes('@') ? { producedBy: summarizer } : {}) },
    language, createdAt: now, updatedAt: now, accessCount: 0, happenedAt: first.createdAt, embedderId: deps.embedder.id,
  };
  return { memory, content, structuredData, vector: vector ?? null, change: { actor: 'system', producedBy: summarizer, messageIds: messages.map((m) => m.id), at: now, reason: 'session summary' } };
}

/** Without a model: an honest extractive summary (the user's own first words and frequent terms). */
function extractiveSummary(messages: readonly Message[], language: 'zh' | 'en'): EpisodeSummary {
  const user = messages.filter((m) => m.role === 'user').map((m) => m.content.trim());
  const topics = topicWords(user, 4);
  // Greetings and "ok" say nothing of what the session was about: the first turns that do.
  const telling = user.filter((t) => !isSmallTalk(t));
  const said = (telling.length > 0 ? telling : user).slice(0, 3).join(language === 'zh' ? '；' : '; ').slice(0, 240);
  return {
    summary: language === 'zh' ? `用户说：${said}` : `The user said: ${said}`,
    topics: topics.length > 0 ? topics : ['—'],
    userIntent: '',
    emotionalTone: '',
    keyFacts: [],
    unresolved: null,
  };
}

/**
 * Writes an episode (seed 003 Layer 2) for a session's messages not yet summarised: a model call
 * with seed 003's schema, stored as a memory of kind "episode" with its time span and vector.
 * When the model fails, a visible fallback episode is stored and the session is queued for retry.
 */
export async function summarizeSession(deps: SummarizeDeps, userId: string, sessionId: string): Promise<SummarizeReport> {
  const key = `summarize\u0000${userId}\u0000${sessionId}`;
  if (deps.running.has(key)) return { sessionId, status: 'nothing', reason: 'this session is being summarised already' };
  deps.running.add(key);
  try {
    // Another process (or engine) summarising this session holds its summary lease: this run writes nothing.
    const lease = await holdLease(deps, userId, sessionId, 'summarize');
    if (!lease) {
      const exists = (await deps.store.getSession(userId, sessionId)) !== null;
      return { sessionId, status: 'nothing', reason: exists ? 'another worker is summarising this session' : 'no such session' };
    }
    try {
      return await summarizeNow(deps, userId, sessionId, lease);
    } catch (error) {
      if (lease.lost(error)) return { sessionId, status: 'nothing', reason: 'summarised by another worker (summary lease lost)' };
      throw error;
    } finally {
      await lease.release();
    }
  } finally {
    deps.running.delete(key);
  }
}

async function summarizeNow(deps: SummarizeDeps, userId: string, sessionId: string, lease: HeldLease): Promise<SummarizeReport> {
  const now = deps.clock.now();
  const guard = await takeForgetGuard(deps.store, userId);
  const session = await deps.store.getSession(userId, sessionId);
  if (!session) return { sessionId, status: 'nothing', reason: 'no such session' };
  const retrying = session.summaryRetryAt !== undefined;
  const latestEpisode = retrying ? (await deps.store.listMemories({ userId, sessionId, kinds: ['episode'], orderBy: 'createdAt', limit: 1 }))[0] : undefined;
  const fallbackEpisode = latestEpisode?.structuredData?.summarizer === 'fallback' ? latestEpisode : undefined;
  const fromSeq = retrying && fallbackEpisode ? Number(fallbackEpisode.structuredData?.fromSeq ?? session.summarizedSeq + 1) : session.summarizedSeq + 1;
  const messages = await deps.store.listMessages({ userId, sessionId, afterSeq: fromSeq - 1, limit: 200 });
  const last = messages.at(-1);
  if (!last) return { sessionId, status: 'nothing', reason: 'no new messages' };
  const all = await deps.store.listMessages({ userId, sessionId, limit: MIN_EPISODE_MESSAGES });
  if (all.length < MIN_EPISODE_MESSAGES || isSmallTalkBatch(messages)) {
    await deps.store.markSummarized(userId, sessionId, last.seq, null, 0);
    return { sessionId, status: 'skipped', reason: all.length < MIN_EPISODE_MESSAGES ? 'fewer than 3 messages' : 'small talk only' };
  }
  const language = detectLanguage(messages.filter((m) => m.role === 'user').map((m) => m.content).join(' '));

  let summary: EpisodeSummary;
  let summarizer: string;
  let failed: EngramError | undefined;
  if (deps.model) {
    try {
      deps.stats.modelCalls++;
      const { output } = await deps.model.generate(summarizeEpisodePrompt, {
        language,
        messages: messages.map((m) => ({ role: m.role, content: m.content, time: m.createdAt.toISOString().slice(0, 16) })),
      });
      summary = output;
      summarizer = promptRef(summarizeEpisodePrompt);
    } catch (error) {
      failed = EngramError.isInstance(error) ? error : new EngramError('MODEL_FAILED', String(error), { cause: error });
      deps.logger.warn('episode summary failed; storing a fallback and retrying later', { code: failed.code, userId, sessionId, error: failed.message });
      const extractive = extractiveSummary(messages, language);
      summary = { ...extractive, summary: `${FALLBACK_SUMMARY_MARK[language]} ${extractive.summary}` };
      summarizer = 'fallback';
    }
  } else {
    summary = extractiveSummary(messages, language);
    summarizer = 'extractive';
  }

  const failures = failed ? session.summaryFailures + 1 : 0;
  const retryAt = failed ? new Date(now.getTime() + RETRY_MS * 2 ** Math.min(failures - 1, 6)) : null;
  const built = await buildEpisode(deps, { userId, sessionId, summary, messages, summarizer, language, fallback: failed !== undefined });
  const { content, structuredData, vector } = built;
  const change = { ...built.change, reason: failed ? `fallback: ${failed.code}` : 'session summary' };
  let episodeId: string | undefined;
  let forgotten = false;
  await deps.store.transaction(async (tx) => {
    // A forget during the model call wins: the summary may quote what was forgotten.
    if (!(await guard.holds(tx))) {
      forgotten = true;
      return;
    }
    // A worker that lost the summary lease while the model ran (it stalled, another took over) writes nothing.
    await lease.fence(tx);
    // Another process may have summarised these messages meanwhile: then this run writes nothing.
    const fresh = await tx.getSession(userId, sessionId);
    if (!fallbackEpisode && fresh && fresh.summarizedSeq >= last.seq) return;
    if (fallbackEpisode) {
      episodeId = fallbackEpisode.id;
      await tx.updateMemory(userId, fallbackEpisode.id, { content, structuredData, language, embedderId: deps.embedder.id, updatedAt: now }, vector ?? null, change);
    } else {
      episodeId = built.memory.id;
      await tx.insertMemory(built.memory, vector, change);
    }
    await tx.markSummarized(userId, sessionId, last.seq, retryAt, failures);
  });
  if (forgotten) {
    deps.logger.warn('episode summary dropped: the user forgot something while it ran', { userId, sessionId });
    return { sessionId, status: 'skipped', reason: FORGOTTEN_MEANWHILE };
  }
  if (episodeId === undefined) return { sessionId, status: 'nothing', reason: 'summarised by another worker' };
  return { sessionId, status: failed ? 'fallback' : 'summarized', episodeId, reason: failed ? `model failed (${failed.code}); fallback stored, retry queued` : summarizer };
}

/** The text cut to MAX_CONTENT_LENGTH, an ellipsis marking the cut. */
function fitLength(text: string): string {
  if (text.length <= MAX_CONTENT_LENGTH) return text;
  const cut = text.slice(0, MAX_CONTENT_LENGTH - 1);
  return `${/[\uD800-\uDBFF]$/u.test(cut) ? cut.slice(0, -1) : cut}…`;
}
