import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bufferIo } from './io.js';
import { run } from './run.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as the one JSON document a --json run prints. */
  json<T = unknown>(): T;
}

/**
 * Runs the CLI in-process against a temp database with the hash embedder: what the CLI's tests
 * use, exported so integrations can script the CLI the same way.
 */
export function cliHarness(options: { env?: Record<string, string | undefined> } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'engram-cli-'));
  const db = path.join(dir, 'engram.db');
  const env = { ENGRAM_DB: db, ENGRAM_EMBEDDER: 'hash', ...options.env };
  return {
    db,
    dir,
    async cli(args: string[], extraEnv: Record<string, string | undefined> = {}): Promise<CliResult> {
      const io = bufferIo({ ...env, ...extraEnv });
      const code = await run(args, io);
      return { code, stdout: io.out(), stderr: io.err(), json: <T>() => JSON.parse(io.out()) as T };
    },
    /** Says `text` as the user in a session, then extracts that session. */
    async remember(user: string, text: string, sessionId = 'chat-1'): Promise<void> {
      await this.cli(['--user', user, 'say', sessionId, 'user', text]);
      await this.cli(['--user', user, 'extract', sessionId]);
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
