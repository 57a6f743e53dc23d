/** Per-user settings; user '*' holds the global defaults. */
export interface SettingsPort {
  /** The user's settings over the global defaults (user '*'). */
  getSettings(userId: string): Promise<Record<string, unknown>>;
  /** Only the values set for this user, without the defaults (for `engram migrate`). */
  ownSettings(userId: string): Promise<Record<string, unknown>>;
  /** Merges `values` into the user's settings (keys not given keep their value). */
  setSettings(userId: string, values: Record<string, unknown>): Promise<void>;
}
