import { z } from 'zod';

/** Whether the context block quotes excerpts of past conversation beside memories. */
export const ContextExcerpts = z.enum(['auto', 'off']);
export type ContextExcerpts = z.infer<typeof ContextExcerpts>;

/** One schema per setting, without defaults, so a patch names only the keys it changes. */
const SettingFields = {
  /** Silence after which a session's new messages are extracted. */
  silentMinutes: z.number().min(0).max(24 * 60),
  extractionEnabled: z.boolean(),
  /** Messages before the new ones sent as context only. */
  contextMessages: z.number().int().min(0).max(50),
  /** Excerpts of past conversation in the context block (seed-002-style key: memory_context_excerpts). */
  contextExcerpts: ContextExcerpts,
  /** Unprocessed messages that trigger extraction without waiting for silence. */
  overflowMessages: z.number().int().min(1).max(500),
  /** The user's IANA time zone, for "tomorrow" and "下周五". */
  timeZone: z.string(),
  /** Raw messages are kept this many days. */
  retentionDays: z.number().positive(),
  /** A session silent this long counts as ended for its episode summary. */
  episodeSilentMinutes: z.number().min(0),
  /** Unsummarised messages that trigger an episode without waiting for the end (seed 001: 30). */
  episodeWindow: z.number().int().min(3),
  /** Compression (seed 004 §2.2, needs a model): memories at least this many days old… */
  compressAfterDays: z.number().positive(),
  /** …and recalled fewer times than this are merged by the lifecycle. */
  compressBelowAccesses: z.number().int().min(1),
};

let machine: { tz: string | undefined; zone: string } | undefined;

/**
 * The zone of the machine Engram runs on (its TZ, else the system's), the default when neither the
 * user nor the global defaults name one: a person running it on their own computer is in that
 * zone ("明天早上八点" was 08:00 UTC for a user in Shanghai who never set one); a server in UTC
 * stays UTC. Anything Intl cannot name is UTC.
 */
export function machineTimeZone(): string {
  // Read once per value of TZ: settings are resolved on every context build.
  const tz = process.env['TZ'];
  if (machine && machine.tz === tz) return machine.zone;
  const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  let named = 'UTC';
  try {
    if (zone) named = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  machine = { tz, zone: named };
  return named;
}

/** Extraction settings (seed 002), stored per user with global defaults. */
export const ExtractionSettings = z.object({
  silentMinutes: SettingFields.silentMinutes.default(2),
  extractionEnabled: SettingFields.extractionEnabled.default(true),
  contextMessages: SettingFields.contextMessages.default(6),
  contextExcerpts: SettingFields.contextExcerpts.default('auto'),
  overflowMessages: SettingFields.overflowMessages.default(30),
  timeZone: SettingFields.timeZone.default(machineTimeZone),
  retentionDays: SettingFields.retentionDays.default(30),
  episodeSilentMinutes: SettingFields.episodeSilentMinutes.default(30),
  episodeWindow: SettingFields.episodeWindow.default(30),
  compressAfterDays: SettingFields.compressAfterDays.default(90),
  compressBelowAccesses: SettingFields.compressBelowAccesses.default(5),
});
export type ExtractionSettings = z.infer<typeof ExtractionSettings>;
/** A change to some settings: only the keys present are stored (no defaults filled in). */
export const SettingsPatch = z.object(SettingFields).partial();
export type SettingsPatch = z.infer<typeof SettingsPatch>;
export const SETTING_KEYS = Object.keys(SettingFields) as Array<keyof ExtractionSettings>;
