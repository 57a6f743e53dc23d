import type { Command } from 'commander';
import type { VectorStatus } from '../store/store.js';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';

const describe = (s: VectorStatus): string =>
  s.complete
    ? `Vectors complete for ${s.embedder?.id ?? 'no embedder'} (${s.total.memories} memories, ${s.total.messages} messages).`
    : `Reindex incomplete for ${s.embedder?.id ?? 'no embedder'}: ${s.pending.memories} of ${s.total.memories} memories and ${s.pending.messages} of ${s.total.messages} messages have no vector yet; run engram reindex.`;

/** `engram reindex`: re-embeds every memory and message with the configured embedder (resumable). */
export function registerReindex(program: Command, io: CliIo): void {
  program
    .command('reindex')
    .description('re-embed everything with the current embedder (after changing --embedder); resumes an interrupted run')
    .option('--status', 'only say whether every row has its vector')
    .action((options: { status?: boolean }, command: Command) =>
      withEngine(io, command, async ({ engine, json }) => {
        if (options.status) {
          const status = await engine.reindexStatus();
          emit(io, json, status, () => describe(status));
          return;
        }
        const result = await engine.reindex({ onProgress: json ? undefined : (p) => io.stderr(`reindex: ${p.reembedded} re-embedded, ${p.pending} ${p.collection} left\n`) });
        emit(io, json, result, () => `Re-embedded ${result.reembedded} ${result.reembedded === 1 ? 'item' : 'items'} with ${result.embedderId}.`);
      }),
    );
}
