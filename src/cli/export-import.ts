import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { InvalidInputError } from '../errors.js';
import { emit, type CliIo } from './io.js';
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
        writeFileSync(file, text);
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
    .description('restore a JSON export (as the user it was exported from; refuses a user who has memories here)')
    .argument('<file>', 'a file written by engram export')
    .action((file: string, _options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, json }) => {
        const data = readJson(path.resolve(file));
        const userId = typeof data === 'object' && data !== null && typeof (data as { userId?: unknown }).userId === 'string' ? (data as { userId: string }).userId : undefined;
        const counts = await engine.importUser(data);
        emit(io, json, { userId, ...counts }, () => `Imported ${counts.memories} memories and ${counts.messages} messages for ${userId}`);
      }),
    );
}
