import { ExtractionSettings, SettingsPatch } from '../domain/settings.js';
import { InvalidInputError, parseInput } from '../errors.js';
import type { Store } from '../store/store.js';

export const GLOBAL = '*';

/** A user's effective settings: their own, over the global ones, over the defaults. */
export async function resolveSettings(store: Store, userId: string): Promise<ExtractionSettings> {
  const stored = await store.getSettings(userId);
  const parsed = ExtractionSettings.safeParse(stored);
  // A stored value that no longer validates falls back to the default rather than blocking extraction.
  return parsed.success ? parsed.data : ExtractionSettings.parse({});
}

/** Stores settings for one user, or for everyone with userId "*". */
export async function updateSettings(store: Store, userId: string, patch: SettingsPatch): Promise<ExtractionSettings> {
  const data = validateSettingsPatch(patch);
  await store.setSettings(userId, data);
  return resolveSettings(store, userId === GLOBAL ? '\u0000' : userId);
}

/** Checks a settings patch from any source (a caller, an import): known keys, valid values, a real time zone. */
export function validateSettingsPatch(patch: unknown): SettingsPatch {
  const data = parseInput(SettingsPatch.strict(), patch, 'settings');
  if (data.timeZone !== undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: data.timeZone });
    } catch (cause) {
      throw new InvalidInputError(`Invalid settings: timeZone: unknown time zone "${data.timeZone}"`, { cause });
    }
  }
  return data;
}
