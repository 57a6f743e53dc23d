import { z } from 'zod';

/** Seed 003's session summary (table session_summaries), field for field. */
export const EpisodeSummary = z.object({
  /** 2-3 sentences; "闲聊，无实质内容" / "Small talk, nothing of substance" for small talk. */
  summary: z.string().min(1),
  /** 3-5 short topic tags. */
  topics: z.array(z.string().min(1)).min(1).max(5),
  /** What the user wanted from this conversation. */
  userIntent: z.string(),
  /** The user's mood: 平静, 焦虑, excited, … */
  emotionalTone: z.string(),
  /** Objective facts worth keeping long term; may be empty. */
  keyFacts: z.array(z.string().min(1)),
  /** The open question, or null when nothing was left open. */
  unresolved: z.string().min(1).nullable().default(null),
});
export type EpisodeSummary = z.infer<typeof EpisodeSummary>;

/**
 * What opens the summary of an episode stored when the model failed (an extractive summary stands
 * in, and the session is queued for another try): for the user and the operator, who see that it
 * is not the model's yet. The assistant is shown the summary without it (`withoutFallbackMark`).
 */
export const FALLBACK_SUMMARY_MARK = { zh: '（摘要生成失败，待重试）', en: '(Summary generation failed; will retry.)' } as const;

/** An episode's text without the fallback mark it opens with, if any. */
export function withoutFallbackMark(content: string): string {
  for (const mark of Object.values(FALLBACK_SUMMARY_MARK)) if (content.startsWith(mark)) return content.slice(mark.length).trimStart();
  return content;
}
