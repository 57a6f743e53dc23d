import type { Command } from 'commander';
import { ERROR_CODES, EngramError } from '../errors.js';
import { emit, type CliIo } from './io.js';
import { extractWithChanges, renderChanges, renderExtractReport } from './memory-changes.js';
import { withEngine } from './runtime.js';

/**
 * `engram extract <session>`: the manual trigger (seed 002). Mines the session's messages not yet
 * extracted, with the LLM of ENGRAM_LLM_* or else the heuristic extractor, and prints the report.
 */
export function registerExtract(program: Command, io: CliIo): void {
  program
    .command('extract')
    .description("remember a session's new messages now (LLM from ENGRAM_LLM_*, else heuristic)")
    .argument('<session>', 'session id')
    .action((sessionId: string, _options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const { report, changes } = await extractWithChanges(engine, userId, sessionId);
        emit(io, json, { ...report, changes }, () => [renderExtractReport(report), ...(changes.length > 0 ? [renderChanges(changes)] : [])].join('\n'));
        // A failed batch keeps its watermark and is retried later; the exit code still says it failed.
        if (report.status === 'failed') {
          const code = ERROR_CODES.find((c) => c === report.error?.code) ?? 'STORE_FAILED';
          throw new EngramError(code, `extraction of ${sessionId} failed; its messages stay unprocessed for a retry: ${report.error?.message ?? report.reason}`);
        }
      }),
    );
}
