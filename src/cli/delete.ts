import type { Command } from 'commander';
import { emit, type CliIo } from './io.js';
import { IF_VERSION_HELP, versionCondition } from './options.js';
import { withEngine } from './runtime.js';
import { versioned } from './show.js';

interface DeleteOptions {
  purge?: boolean;
  reason?: string;
  ifVersion?: string;
}

/** `engram delete <id> [--purge]`: soft delete (restorable) unless --purge erases it for good. */
export function registerDelete(program: Command, io: CliIo): void {
  program
    .command('delete')
    .description('delete a memory (soft, restorable with `engram restore`); --purge erases it for good')
    .argument('<id>', 'memory id')
    .option('--purge', 'erase the memory, its vector and its content in history; cannot be undone')
    .option('--reason <text>', 'why, kept in the history')
    .option('--if-version <version>', IF_VERSION_HELP)
    .action((id: string, options: DeleteOptions, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const change = { actor: 'user' as const, ...(options.reason ? { reason: options.reason } : {}) };
        const condition = versionCondition(options.ifVersion);
        if (options.purge) {
          await engine.purge(userId, id, change, condition);
          emit(io, json, { id, purged: true }, () => `Purged ${id}: erased for good.`);
          return;
        }
        const memory = await engine.delete(userId, id, change, condition);
        emit(io, json, versioned(memory), () => `Deleted ${id} (soft). Undo with: engram restore ${id}`);
      }),
    );
}
