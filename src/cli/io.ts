import type { Logger } from '../deps.js';

/**
 * Where a command writes. `run(argv, io)` takes one, so tests capture output in-process and the
 * real entry point passes the process streams and environment.
 */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Environment the defaults are read from (ENGRAM_USER, ENGRAM_DB, ENGRAM_EMBEDDER…). */
  env: Readonly<Record<string, string | undefined>>;
  /** Where progress bars draw (only when it is a terminal). @default process.stderr */
  progress?: { isTTY?: boolean; write(text: string): unknown };
}

/**
 * The engine's warnings and errors on the command's stderr, as one line each (an old store being
 * re-embedded, an extraction skipped); its routine info stays quiet.
 */
export function ioLogger(io: Pick<CliIo, 'stderr'>): Logger {
  const line = (msg: string, data?: Record<string, unknown>): void => io.stderr(`engram: ${msg}${data ? ` ${JSON.stringify(data)}` : ''}\n`);
  return { debug: () => undefined, info: () => undefined, warn: line, error: line };
}

export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
  };
}

/** An io that keeps everything written, for tests and for embedding the CLI in other tools. */
export function bufferIo(env: Record<string, string | undefined> = {}): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    env,
    out: () => out,
    err: () => err,
  };
}

/**
 * Prints a command's result: exactly one JSON document with `--json`, otherwise the human text.
 * The human text is built lazily so JSON runs never pay for formatting.
 */
export function emit(io: CliIo, json: boolean, data: unknown, human: () => string): void {
  if (json) io.stdout(JSON.stringify(data, null, 2) + '\n');
  else {
    const text = human();
    io.stdout(text.endsWith('\n') ? text : text + '\n');
  }
}
