import { z } from 'zod';

/** Extraction settings (seed 002), stored per user with global defaults. */
export const ExtractionSettings = z.object({
  /** Silence after which a session's new messages are extracted. */
  silentMinutes: z.number().min(0).max(24 * 60).default(2),
  extractionEnabled: z.boolean().default(true),
  /** Messages before the new ones sent as context only. */
  contextMessages: z.number().int().min(0).max(50).default(6),
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
  /** Compression (seed 004 §2.2, needs a model): memories at least this many days old… */
  compressAfterDays: z.number().positive().default(90),
  /** …and recalled fewer times than this are merged by the lifecycle. */
  compressBelowAccesses: z.number().int().min(1).default(5),
});
export type ExtractionSettings = z.infer<typeof ExtractionSettings>;
export const SettingsPatch = ExtractionSettings.partial();
export type SettingsPatch = z.infer<typeof SettingsPatch>;
