import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Child {
  pid: number;
  /** Resolves when the child printed its "ready" line (it then waits for the go file). */
  ready: Promise<void>;
  done: Promise<ChildResult>;
  kill(): void;
}

export const fixture = (name: string) => path.join(import.meta.dirname, 'fixtures', name);
export const tempDir = (label: string) => mkdtempSync(path.join(tmpdir(), `engram-rel-${label}-`));

const BUILD = path.join(import.meta.dirname, '.build');
const built = new Map<string, Promise<string>>();

/**
 * Bundles a TypeScript fixture once per run (esbuild, which tsx ships with; packages stay
 * external): a child then starts on plain node, without transpiling the source tree again in
 * every one of dozens of processes on a busy 2-core machine.
 */
export function compileFixture(script: string): Promise<string> {
  let out = built.get(script);
  if (!out) {
    out = (async () => {
      const { build } = await import('esbuild');
      const outfile = path.join(BUILD, script.replace(/\.ts$/, '.mjs'));
      await build({ entryPoints: [fixture(script)], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile, logLevel: 'error' });
      return outfile;
    })();
    built.set(script, out);
  }
  return out;
}

/** Spawns a compiled fixture (see compileFixture). Its first stdout line "ready" says it is loaded. */
export function spawnChild(compiled: string, args: readonly string[], env: Record<string, string> = {}): Child {
  const proc = spawn(process.execPath, [compiled, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  proc.stdout.setEncoding('utf8').on('data', (s: string) => {
    stdout += s;
    if (stdout.startsWith('ready\n')) markReady();
  });
  proc.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const done = new Promise<ChildResult>((resolve) =>
    proc.on('close', (code, signal) => {
      markReady();
      resolve({ code, signal, stdout: stdout.replace(/^ready\n/, ''), stderr });
    }),
  );
  return { pid: proc.pid!, ready, done, kill: () => proc.kill('SIGKILL') };
}

/** Releases every child waiting at the start line at once. */
export function go(goFile: string): void {
  writeFileSync(goFile, 'go');
}

/** A read-only connection with sqlite-vec loaded, for checking a file from the outside. */
export function inspect(file: string): Database.Database {
  const db = new Database(file, { readonly: true });
  sqliteVec.load(db);
  return db;
}

export const count = (db: Database.Database, sql: string, ...args: unknown[]): number => (db.prepare(sql).get(...args) as { n: number }).n;

/** Rows agree across a table and its keyword and vector indexes. */
export function indexAgreement(db: Database.Database): Record<string, number> {
  // Before any embedder is bound there are no vector tables (and no vectors to agree).
  const bound = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'memory_vec'").get() !== undefined;
  if (!bound) return { ...rows(db), memoryVec: count(db, 'SELECT count(*) AS n FROM memories'), messageVec: count(db, 'SELECT count(*) AS n FROM messages') };
  return rows(db);
}

function rows(db: Database.Database): Record<string, number> {
  return {
    memories: count(db, 'SELECT count(*) AS n FROM memories'),
    memoryFts: count(db, 'SELECT count(*) AS n FROM memory_fts'),
    memoryVec: db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'memory_vec'").get() ? count(db, 'SELECT count(*) AS n FROM memory_vec') : 0,
    messages: count(db, 'SELECT count(*) AS n FROM messages'),
    messageFts: count(db, 'SELECT count(*) AS n FROM message_fts'),
    messageVec: db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'message_vec'").get() ? count(db, 'SELECT count(*) AS n FROM message_vec') : 0,
  };
}
