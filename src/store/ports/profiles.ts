import type { Profile } from '../../domain/profile.js';

/** The user's profile, one row per version. */
export interface ProfilesPort {
  latestProfile(userId: string): Promise<Profile | null>;
  profileVersions(userId: string): Promise<Profile[]>;
  insertProfile(profile: Profile): Promise<void>;
  /** Erases profile versions (forgetting a topic also erases the versions that held it). */
  deleteProfileVersions(userId: string, versions: readonly number[]): Promise<void>;
}
