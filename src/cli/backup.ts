import type { Command } from 'commander';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';

/** `engram backup <file>`: an online, consistent copy of the database (other processes keep writing). */
export function registerBackup(program: Command, io: CliIo): void {
  program
    .command('backup')
    .description('copy the database to <file> while it stays in use (SQLite backup API)')
    .argument('<file>', 'where the copy goes')
    .action((file: string, _options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, json }) => {
        const result = await engine.backup({ path: file });
        emit(io, json, result, () => `Backed up ${result.pages} pages to ${result.path}.`);
      }),
    );
}
