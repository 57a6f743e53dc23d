import type { Command } from 'commander';
import { table } from './format.js';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';
import { noProgress, progressBar } from './progress.js';

interface LifecycleOptions {
  allUsers?: boolean;
}

/**
 * `engram lifecycle`: one decay and review pass (a running app does this daily). Idempotent: a
 * second pass at the same moment changes nothing. Reviews need ENGRAM_LLM_*.
 */
export function registerLifecycle(program: Command, io: CliIo): void {
  program
    .command('lifecycle')
    .description('run decay, archiving and review once (reviews need an LLM) and print the report')
    .option('--all-users', 'every user in the database, not only --user')
    .action((options: LifecycleOptions, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json, settings }) => {
        const bar = json ? noProgress : progressBar('lifecycle');
        const report = await engine.runLifecycle({ ...(options.allUsers ? {} : { userId }), onProgress: (done, total) => bar.update(done, total) });
        bar.done();
        const scope = options.allUsers ? 'all users' : userId;
        emit(io, json, { scope, reviewer: settings.model?.id ?? null, ...report }, () => {
          const lines = [
            `Lifecycle pass for ${scope}: examined ${report.examined} · decayed ${report.decayed} · archived ${report.archived} · reviewed ${report.reviews.length} · compressed ${report.compressions.reduce((n, c) => n + c.archived.length, 0)}`,
          ];
          if (!settings.model) lines.push('(no LLM configured: decay only; set ENGRAM_LLM_* for reviews)');
          if (report.reviews.length > 0) {
            lines.push(table([{ header: 'memory' }, { header: 'mode' }, { header: 'decision' }, { header: 'reason', max: 60 }], report.reviews.map((r) => [r.memoryId, r.mode, r.decision, r.reason])));
          }
          return lines.join('\n');
        });
      }),
    );
}
