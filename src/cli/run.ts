import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { EngramError, type ErrorCode } from '../errors.js';
import { registerAdd } from './add.js';
import { registerBackup } from './backup.js';
import { registerChatLog } from './chat-log.js';
import { DEFAULT_DB, DEFAULT_USER, EMBEDDER_TYPES } from './config.js';
import { registerContext } from './context.js';
import { registerDelete } from './delete.js';
import { registerDemo } from './demo.js';
import { registerExport, registerImport } from './export-import.js';
import { registerExtract } from './extract.js';
import { registerForget } from './forget.js';
import { registerForgotten } from './forgotten.js';
import { registerHistory } from './history.js';
import { processIo, type CliIo } from './io.js';
import { registerLifecycle } from './lifecycle.js';
import { registerList } from './list.js';
import { registerMcp } from './mcp.js';
import { registerProfile } from './profile.js';
import { registerReindex } from './reindex.js';
import { registerRestore } from './restore.js';
import { registerSearch } from './search.js';
import { registerServe } from './serve.js';
import { registerShow } from './show.js';
import { registerKeys } from './keys.js';
import { registerTodoDone, registerTodoMove, registerTodos } from './todos.js';
import { registerCompress } from './compress.js';
import { registerEdit } from './edit.js';
import { registerRelations } from './relations.js';
import { registerRemind } from './remind.js';
import { registerSettings } from './settings.js';
import { registerMigrate } from './migrate.js';

/** Codes that mean "the caller asked for something wrong" (exit 2), as opposed to a failure (exit 1). */
const USAGE_CODES: readonly ErrorCode[] = ['INVALID_INPUT', 'NOT_FOUND'];

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

const HELP_AFTER = `
Remembering a conversation:
  engram -u li-ming say chat-1 user 我住在北京      append a message (idempotent with --id)
  engram -u li-ming extract chat-1                  remember its new messages now
  engram -u li-ming todos                           reminders it found, with due times

Environment:
  ENGRAM_USER, ENGRAM_DB, ENGRAM_EMBEDDER           defaults for --user, --db, --embedder
  ENGRAM_LLM_BASE_URL, ENGRAM_LLM_MODEL, ENGRAM_LLM_API_KEY
                                                    an OpenAI-compatible LLM for extraction, profiles
                                                    and reviews; without it extraction is heuristic
  ENGRAM_DEBUG=1                                    print stack traces of unexpected errors`;

/** A fresh program per run: commander keeps parsed state on the command objects. */
export function buildProgram(io: CliIo): Command {
  const program = new Command('engram')
    .description('Engram: long-term memory for AI assistants')
    .version(version(), '-V, --version')
    .option('-u, --user <id>', 'whose memories (env ENGRAM_USER)', io.env['ENGRAM_USER'] || DEFAULT_USER)
    .option('--db <path>', `SQLite file (env ENGRAM_DB) (default: "${DEFAULT_DB}")`)
    .option('--embedder <name>', `${EMBEDDER_TYPES.join(' | ')}[:model] (env ENGRAM_EMBEDDER) (default: "bundled")`)
    .option('--json', 'print exactly one JSON document on stdout')
    .addHelpText('after', HELP_AFTER)
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => io.stderr(s),
      // Usage errors are printed by `report` in the same one-line format as every other error.
      outputError: () => undefined,
    });
  for (const register of [
    registerAdd,
    registerSearch,
    registerList,
    registerShow,
    registerHistory,
    registerDelete,
    registerRestore,
    registerContext,
    registerChatLog,
    registerExtract,
    registerTodos,
    registerTodoDone,
    registerTodoMove,
    registerProfile,
    registerForget,
    registerForgotten,
    registerExport,
    registerImport,
    registerLifecycle,
    registerReindex,
    registerBackup,
    registerDemo,
    registerServe,
    registerKeys,
    registerMcp,
    registerEdit,
    registerSettings,
    registerCompress,
    registerRemind,
    registerRelations,
    registerMigrate,
  ]) {
    register(program, io);
  }
  return program;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** Prints one line on stderr and returns the exit code. Expected errors never show a stack. */
function report(io: CliIo, error: unknown, json: boolean): number {
  // With --json the error is one JSON document on stderr, { "error": { "code", "message" } }, so
  // stdout keeps at most the command's own document (a dry run prints one, then fails).
  const say = (code: string | undefined, message: string): void => {
    if (json) io.stderr(JSON.stringify({ error: { code: code ?? 'INTERNAL', message } }, null, 2) + '\n');
    else io.stderr(code === undefined ? `error: ${message}\n` : `error [${code}]: ${message}\n`);
  };
  if (error instanceof CommanderError) {
    // Help and version end the parse with exit code 0; "no command given" prints help and 1.
    if (error.exitCode === 0 || error.code === 'commander.help') return error.exitCode;
    say('INVALID_INPUT', `${oneLine(error.message.replace(/^error:\s*/, ''))} (see engram --help)`);
    return 2;
  }
  if (EngramError.isInstance(error)) {
    // A foreign cause (a network or file error) often says what actually went wrong.
    const inner = error.cause instanceof Error && !EngramError.isInstance(error.cause) ? oneLine(error.cause.message) : '';
    const cause = inner !== '' && !error.message.includes(inner) ? ` (${inner})` : '';
    say(error.code, `${oneLine(error.message)}${cause}`);
    return USAGE_CODES.includes(error.code) ? 2 : 1;
  }
  // A bug or an environment failure: say what it was; the stack only on request.
  const message = error instanceof Error ? error.message : String(error);
  say(undefined, oneLine(message));
  if (io.env['ENGRAM_DEBUG'] && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  return 1;
}

/**
 * Runs the CLI in-process and resolves to the exit code; never calls process.exit, so tests and
 * other tools can call it with their own writers.
 * @param argv the arguments after the program name, e.g. ['add', '用户不吃香菜', '--kind', 'preference']
 */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    await buildProgram(io).parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    return report(io, error, argv.includes('--json'));
  }
}
