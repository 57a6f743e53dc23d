import { ExtractionSettings, machineTimeZone, SETTING_KEYS, SettingsPatch } from '../domain/settings.js';
import { InvalidInputError, parseInput } from '../errors.js';
import type { Store } from '../store/store.js';

export const GLOBAL = '*';

/** Every setting's default, parsed once (each resolve copies it). */
const DEFAULTS: Readonly<ExtractionSettings> = Object.freeze(ExtractionSettings.parse({}));

/**
 * A user's effective settings, key by key: their own override, else the global one, else the
 * default. A stored value that no longer validates falls back to the default for that key only.
 */
export async function resolveSettings(store: Store, userId: string): Promise<ExtractionSettings> {
  const stored = await store.getSettings(userId);
  const valid: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    if (stored[key] === undefined) continue;
    const one = SettingsPatch.shape[key].safeParse(stored[key]);
    if (one.success && one.data !== undefined) valid[key] = one.data;
  }
  // The machine's zone is read now, not when the defaults were parsed (TZ may change, as in tests).
  return { ...DEFAULTS, timeZone: machineTimeZone(), ...(valid as Partial<ExtractionSettings>) };
}

/** Stores settings for one user, or for everyone with userId "*"; only the keys given change. */
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
