import type { Session } from '../domain/conversation.js';
import { extractSession, type ExtractionDeps, type ExtractReport } from './extract-session.js';
import { resolveSettings } from './settings.js';
import { summarizeSession, type SummarizeReport } from './summarize-session.js';
import { updateProfile } from './update-profile.js';

/** Why a session is due for an episode summary now, or null (seed 003: at the end; seed 001: past 30 messages). */
export function episodeDue(session: Session, unsummarized: number, settings: { episodeSilentMinutes: number; episodeWindow: number }, now: Date): string | null {
  if (session.summaryRetryAt) return session.summaryRetryAt.getTime() <= now.getTime() ? 'retry' : null;
  if (unsummarized <= 0) return null;
  if (unsummarized >= settings.episodeWindow) return 'window';
  if (session.endedAt && session.endedAt.getTime() >= session.lastActiveAt.getTime()) return 'session-end';
  if (now.getTime() - session.lastActiveAt.getTime() >= settings.episodeSilentMinutes * 60_000) return 'silence';
  return null;
}

export type Trigger = 'silence' | 'overflow' | 'session-end' | 'retry';

/** Why a session is due for extraction now, or null (seed 002's check, plus overflow and session end). */
export function dueTrigger(session: Session, unprocessed: number, settings: { silentMinutes: number; overflowMessages: number; extractionEnabled: boolean }, now: Date): Trigger | null {
  if (unprocessed <= 0 || !settings.extractionEnabled) return null;
  if (session.nextAttemptAt && session.nextAttemptAt.getTime() > now.getTime()) return null;
  const retry = session.failures > 0;
  if (unprocessed >= settings.overflowMessages) return retry ? 'retry' : 'overflow';
  if (session.endedAt && session.endedAt.getTime() >= session.lastActiveAt.getTime()) return retry ? 'retry' : 'session-end';
  if (now.getTime() - session.lastActiveAt.getTime() >= settings.silentMinutes * 60_000) return retry ? 'retry' : 'silence';
  return null;
}

export interface ExtractionScheduler {
  /** One pass: extracts every due session, oldest activity first. */
  tick(): Promise<ExtractReport[]>;
  /** Starts a background extraction (and, at session end, the episode) of one session; never awaited by the chat path. */
  nudge(userId: string, sessionId: string, options?: { summarize?: boolean }): void;
  /** Resolves when every background extraction started so far has finished. */
  idle(): Promise<void>;
  /** Runs tick() every intervalMs until stop(). */
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

export interface SchedulerHooks {
  /** Runs after every pass (reminders, daily lifecycle). */
  afterPass?: () => Promise<void>;
  /** Called for every user whose memories a pass changed (e.g. to rewrite their mirror files). */
  onUserChanged?: (userId: string) => Promise<void>;
  /** Called after every background extraction with its report (the server's `extraction.done` event). */
  onExtracted?: (userId: string, sessionId: string, report: ExtractReport) => void;
}

export function createExtractionScheduler(deps: ExtractionDeps, hooks: SchedulerHooks = {}): ExtractionScheduler {
  const inFlight = new Set<Promise<unknown>>();
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<ExtractReport[]> | undefined;

  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    return p;
  };

  const tick = async (): Promise<ExtractReport[]> => {
    const now = deps.clock.now();
    const reports: ExtractReport[] = [];
    const touched = new Set<string>();
    // Raw messages past their retention go first; a session's unprocessed ones are extracted before that.
    const expired = await deps.store.deleteExpiredMessages(now);
    if (expired > 0) deps.logger.info('expired messages deleted', { count: expired });
    // What a request in conversation forgot, past its time to be undone, is erased for good.
    const lapsed = await deps.store.deleteExpiredForgotten(now);
    if (lapsed > 0) deps.logger.info('forgotten requests past their undo time erased', { count: lapsed });
    for (const { session, unprocessed } of await deps.store.sessionsWithBacklog(500)) {
      const settings = await resolveSettings(deps.store, session.userId);
      const trigger = dueTrigger(session, unprocessed, settings, now);
      if (!trigger) continue;
      deps.logger.debug('extraction triggered', { userId: session.userId, sessionId: session.id, trigger, unprocessed });
      const report = await extractSession(deps, session.userId, session.id);
      hooks.onExtracted?.(session.userId, session.id, report);
      if (report.status === 'applied') touched.add(session.userId);
      reports.push(report);
    }
    await summarizeDue(now, touched);
    for (const userId of touched) {
      await updateProfile(deps, userId);
      await hooks.onUserChanged?.(userId);
    }
    await hooks.afterPass?.();
    return reports;
  };

  /** Episodes for sessions that ended, went quiet or overflowed; then profiles that became due. */
  const summarizeDue = async (now: Date, touched: Set<string>): Promise<SummarizeReport[]> => {
    const done: SummarizeReport[] = [];
    for (const { session, unsummarized } of await deps.store.sessionsToSummarize(500)) {
      const settings = await resolveSettings(deps.store, session.userId);
      if (!episodeDue(session, unsummarized, settings, now)) continue;
      const report = await summarizeSession(deps, session.userId, session.id);
      if (report.status === 'summarized' || report.status === 'fallback') touched.add(session.userId);
      done.push(report);
    }
    return done;
  };

  return {
    tick: () => track(tick()),
    nudge(userId, sessionId, options = {}) {
      const work = async (): Promise<void> => {
        const report = await extractSession(deps, userId, sessionId);
        hooks.onExtracted?.(userId, sessionId, report);
        if (options.summarize) {
          const summary = await summarizeSession(deps, userId, sessionId);
          if (summary.status === 'summarized' || summary.status === 'fallback') await updateProfile(deps, userId);
        }
        if (report.status === 'applied' || options.summarize) await hooks.onUserChanged?.(userId);
      };
      track(
        work().catch((error: unknown) => {
          deps.logger.error('background extraction crashed', { code: 'STORE_FAILED', userId, sessionId, error: String(error) });
        }),
      );
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    start(intervalMs = 30_000) {
      if (timer) return;
      timer = setInterval(() => {
        if (ticking) return; // never overlap passes
        ticking = track(tick()).finally(() => (ticking = undefined));
        ticking.catch((error: unknown) => deps.logger.error('extraction pass failed', { code: 'STORE_FAILED', error: String(error) }));
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
