import type { Command } from 'commander';
import { EngramError } from '../errors.js';
import { table } from './format.js';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';

/**
 * `engram compress`: merges a user's old, rarely used memories now (seed 004 §2.2; the thresholds
 * are the settings compressAfterDays and compressBelowAccesses). Needs ENGRAM_LLM_*; the lifecycle
 * does the same on its own when a model is configured.
 */
export function registerCompress(program: Command, io: CliIo): void {
  program
    .command('compress')
    .description('merge old, rarely used memories into fewer ones (needs an LLM; originals are archived)')
    .action((_options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json, settings }) => {
        if (!settings.model) throw new EngramError('CONFIG_INVALID', 'compress needs a language model: set ENGRAM_LLM_BASE_URL, ENGRAM_LLM_API_KEY and ENGRAM_LLM_MODEL');
        const reports = await engine.compress(userId);
        emit(io, json, { userId, compressions: reports }, () =>
          reports.length === 0
            ? 'Nothing to compress: no kind has enough old, rarely used memories.'
            : table([{ header: 'kind' }, { header: 'archived' }, { header: 'created' }], reports.map((r) => [r.kind, String(r.archived.length), r.created.join(', ')])),
        );
      }),
    );
}
