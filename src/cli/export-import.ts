import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { InvalidInputError } from '../errors.js';
import { emit, type CliIo } from './io.js';
import { noProgress, progressBar } from './progress.js';
import { withEngine } from './runtime.js';

interface ExportOptions {
  out?: string;
}

/** `engram export [--out file]`: the user's whole memory as one JSON document (stdout without --out). */
export function registerExport(program: Command, io: CliIo): void {
  program
    .command('export')
    .description("write the user's whole memory as JSON (memories, history, profile, todos, messages)")
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .action((options: ExportOptions, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const data = await engine.exportUser(userId);
        const text = JSON.stringify(data, null, 2) + '\n';
        if (!options.out) {
          io.stdout(text);
          return;
        }
        const file = path.resolve(options.out);
        if (!existsSync(path.dirname(file))) throw new InvalidInputError(`--out: the folder ${path.dirname(file)} does not exist`, { details: { field: 'out' } });
        try {
          writeFileSync(file, text);
        } catch (cause) {
          throw new InvalidInputError(`--out: cannot write ${file}`, { cause, details: { field: 'out' } });
        }
        const summary = { userId, file, memories: data.memories.length, messages: data.messages.length, todos: data.todos.length, profiles: data.profiles.length };
        emit(io, json, summary, () => `Exported ${summary.memories} memories, ${summary.messages} messages, ${summary.todos} todos and ${summary.profiles} profile versions of ${userId} to ${file}`);
      }),
    );
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new InvalidInputError(`cannot read ${file}`, { cause });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new InvalidInputError(`${file} is not JSON`, { cause });
  }
}

/** `engram import <file>`: restores an export into this database, as the user it was exported from. */
export function registerImport(program: Command, io: CliIo): void {
  program
    .command('import')
    .description('restore a JSON export as --user (default: the user it was exported from); every row becomes theirs; refuses a user who has memories here')
    .argument('<file>', 'a file written by engram export')
    .action((file: string, _options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, json, userId }) => {
        const data = readJson(path.resolve(file));
        // --user (or ENGRAM_USER) names whose memory the file becomes; without it, the file's own user.
        const chosen = command.getOptionValueSourceWithGlobals('user') === 'cli' || io.env['ENGRAM_USER'] ? userId : undefined;
        const bar = json ? noProgress : progressBar('import', io.progress);
        const r = await engine.importUser(data, { userId: chosen, onProgress: (done, total) => bar.update(done, total) });
        bar.done();
        const notes = [r.rewrittenOwners > 0 ? `${r.rewrittenOwners} rows filed under another user were stored as ${r.userId}` : '', r.reissuedIds > 0 ? `${r.reissuedIds} ids already in use were re-issued` : '',
          r.droppedHistory > 0 ? `${r.droppedHistory} history events of memories not in the file were left out` : ''].filter(Boolean);
        emit(io, json, r, () => [`Imported ${r.memories} memories and ${r.messages} messages for ${r.userId}`, ...notes.map((n) => `  ${n}`)].join('\n'));
      }),
    );
}
