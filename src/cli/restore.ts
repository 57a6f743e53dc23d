import type { Command } from 'commander';
import { emit, type CliIo } from './io.js';
import { IF_VERSION_HELP, versionCondition } from './options.js';
import { withEngine } from './runtime.js';
import { versioned } from './show.js';

/** `engram restore <id>`: brings back a soft-deleted memory. */
export function registerRestore(program: Command, io: CliIo): void {
  program
    .command('restore')
    .description('restore a soft-deleted memory')
    .argument('<id>', 'memory id')
    .option('--reason <text>', 'why, kept in the history')
    .option('--if-version <version>', IF_VERSION_HELP)
    .action((id: string, options: { reason?: string; ifVersion?: string }, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const memory = await engine.restore(userId, id, { actor: 'user', ...(options.reason ? { reason: options.reason } : {}) }, versionCondition(options.ifVersion));
        emit(io, json, versioned(memory), () => `Restored ${id} (${memory.status}): ${memory.content}`);
      }),
    );
}
