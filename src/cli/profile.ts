import type { Command } from 'commander';
import type { Profile } from '../domain/profile.js';
import { fields, when } from './format.js';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';

interface ProfileOptions {
  update?: boolean;
}

/** `engram profile [--update]`: the core profile (seed 003 Layer 3): narrative, basic info, version. */
export function registerProfile(program: Command, io: CliIo): void {
  program
    .command('profile')
    .description("show the user's core profile: narrative, basic info and version")
    .option('--update', 'rewrite the profile now from the memories since the last version (the LLM when configured)')
    .action((options: ProfileOptions, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const update = options.update ? await engine.updateProfile(userId, { force: true }) : undefined;
        const profile = update?.profile ?? (await engine.profile(userId));
        const versions = profile ? (await engine.profileVersions(userId)).length : 0;
        const data = { profile, versions, ...(update ? { update: { status: update.status, reason: update.reason } } : {}) };
        emit(io, json, data, () => {
          const head = update ? [`Profile update: ${update.status} (${update.reason})`, ''] : [];
          if (!profile) return [...head, `No profile for ${userId} yet. It is written once there is something to say; force it with: engram profile --update`].join('\n');
          return [...head, renderProfile(profile, versions)].join('\n');
        });
      }),
    );
}

export function renderProfile(p: Profile, versions: number): string {
  const basics = Object.entries(p.basicInfo);
  return [
    fields([
      ['user', p.userId],
      ['version', `${p.version} (${versions} kept)`],
      ['written', when(p.createdAt)],
      ['by', p.producedBy ?? 'heuristic'],
      ['changes', p.changes],
    ]),
    '',
    p.narrative,
    ...(basics.length > 0 ? ['', fields(basics)] : []),
  ].join('\n');
}
