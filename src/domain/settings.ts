import { z } from 'zod';

/** Whether the context block quotes excerpts of past conversation beside memories. */
export const ContextExcerpts = z.enum(['auto', 'off']);
export type ContextExcerpts = z.infer<typeof ContextExcerpts>;

/** Extraction settings (seed 002), stored per user with global defaults. */
export const ExtractionSettings = z.object({
  /** Silence after which a session's new messages are extracted. */
  silentMinutes: z.number().min(0).max(24 * 60).default(2),
  extractionEnabled: z.boolean().default(true),
  /** Messages before the new ones sent as context only. */
  contextMessages: z.number().int().min(0).max(50).default(6),
  /** Excerpts of past conversation in the context block (seed-002-style key: memory_context_excerpts). */
  contextExcerpts: ContextExcerpts.default('auto'),
  /** Unprocessed messages that trigger extraction without waiting for silence. */
  overflowMessages: z.number().int().min(1).max(500).default(30),
  /** The user's IANA time zone, for "tomorrow" and "下周五". */
  timeZone: z.string().default('UTC'),
  /** Raw messages are kept this many days. */
  retentionDays: z.number().positive().default(30),
  /** A session silent this long counts as ended for its episode summary. */
  episodeSilentMinutes: z.number().min(0).default(30),
  /** Unsummarised messages that trigger an episode without waiting for the end (seed 001: 30). */
  episodeWindow: z.number().int().min(3).default(30),
});
export type ExtractionSettings = z.infer<typeof ExtractionSettings>;
export const SettingsPatch = ExtractionSettings.partial();
export type SettingsPatch = z.infer<typeof SettingsPatch>;
