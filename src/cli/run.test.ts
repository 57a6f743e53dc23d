import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bufferIo } from './io.js';
import { run } from './run.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

describe('run', () => {
  it('prints help and the version with exit code 0', async () => {
    const help = await h.cli(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['add', 'search', 'list', 'show', 'history', 'delete', 'restore', 'context', 'chat-log\\|say', 'extract', 'todos', 'todo-done', 'todo-move', 'profile', 'forget', 'export', 'import', 'lifecycle', 'reindex', 'demo']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect(help.stdout).toMatch(/--user <id>/);
    expect((await h.cli(['add', '--help'])).stdout).toMatch(/--importance <0\.\.1>/);
    expect((await h.cli(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('takes the default user from ENGRAM_USER, else "default"', async () => {
    await h.cli(['add', '用户住在上海']);
    expect((await h.cli(['--json', 'list'], { ENGRAM_USER: undefined })).json<{ memories: { userId: string }[] }>().memories[0]!.userId).toBe('default');
    expect((await h.cli(['list'], { ENGRAM_USER: 'li-ming' })).stdout).toBe('No memories.\n');
  });

  it('maps usage errors to one line and exit code 2, failures to exit code 1', async () => {
    const unknown = await h.cli(['serach', 'cats']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("error [INVALID_INPUT]: unknown command 'serach' (Did you mean search?) (see engram --help)\n");
    const option = await h.cli(['list', '--colour']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^error \[INVALID_INPUT\]: unknown option '--colour'/);
    const config = await h.cli(['list', '--embedder', 'word2vec']);
    expect(config.code).toBe(1);
    expect(config.stderr).toBe('error [CONFIG_INVALID]: Unknown embedder "word2vec"; expected one of bundled, hash, openai-compatible\n');
    expect((await h.cli(['--user', ' ', 'list'])).code).toBe(2);
  });

  it('never prints a stack trace for a failure outside the library', async () => {
    const notADatabase = path.join(h.dir, 'notes.txt');
    writeFileSync(notADatabase, 'just some notes, not SQLite\n'.repeat(100));
    const io = bufferIo({ ENGRAM_DB: notADatabase, ENGRAM_EMBEDDER: 'hash' });
    const code = await run(['list'], io);
    expect(code).toBe(1);
    expect(io.err()).toBe(`error [STORE_FAILED]: Could not open the database ${notADatabase}: file is not a database\n`);
    expect(io.err()).not.toMatch(/\n\s+at /);
  });

  it('runs as a real process through bin/engram.js from another directory', () => {
    const bin = fileURLToPath(new URL('../../bin/engram.js', import.meta.url));
    const r = spawnSync(process.execPath, [bin, '--help'], { cwd: h.dir, encoding: 'utf8', timeout: 90_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: engram \[options\] \[command\]/);
  });
});
