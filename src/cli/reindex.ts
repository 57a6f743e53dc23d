import type { Command } from 'commander';
import type { VectorStatus } from '../store/store.js';
import { emit, type CliIo } from './io.js';
import { progressBar, type Progress } from './progress.js';
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
        // One bar per collection (memories, then messages), drawn only on a terminal: pipes and --json get clean output.
        let current: { collection: string; bar: Progress } | undefined;
        const result = await engine.reindex({
          onProgress: json ? undefined : (p) => {
            if (current?.collection !== p.collection) {
              current?.bar.done();
              current = { collection: p.collection, bar: progressBar(`reindex ${p.collection}`) };
            }
            current.bar.update(p.reembedded, p.reembedded + p.pending);
          },
        });
        current?.bar.done();
        emit(io, json, result, () => `Re-embedded ${result.reembedded} ${result.reembedded === 1 ? 'item' : 'items'} with ${result.embedderId}.`);
      }),
    );
}
