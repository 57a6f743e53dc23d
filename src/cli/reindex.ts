import type { Command } from 'commander';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';

/** `engram reindex`: re-embeds every memory and message with the configured embedder. */
export function registerReindex(program: Command, io: CliIo): void {
  program
    .command('reindex')
    .description('re-embed everything with the current embedder (after changing --embedder)')
    .action((_options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, json }) => {
        const result = await engine.reindex();
        emit(io, json, result, () => `Re-embedded ${result.reembedded} ${result.reembedded === 1 ? 'item' : 'items'} with ${result.embedderId}.`);
      }),
    );
}
