import type Database from 'better-sqlite3';
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../util/worker-entry.js';

export interface CheckpointWorkerData {
  path: string;
  intervalMs: number;
}
/** `now` asks for a checkpoint at once; its reply carries the same id (the interval's carry none). */
export type CheckpointRequest = { type: 'now'; id: number } | { type: 'stop' };
export type CheckpointReply = { type: 'checkpointed'; id?: number; log: number; checkpointed: number } | { type: 'failed'; id?: number; message: string } | { type: 'stopped' };

/** SQLite's own threshold: a commit that finds this many pages in the log copies them back first. */
export const AUTO_CHECKPOINT_PAGES = 1000;
/** This connection's threshold while a worker checkpoints: only if the worker falls far behind. */
export const FALLBACK_CHECKPOINT_PAGES = 10_000;

export interface BackgroundCheckpoints {
  /**
   * Checkpoints done and failed so far, the last failure's message, and the last checkpoint's
   * frames: in the log, and copied into the file (fewer while a reader still uses older ones).
   */
  readonly stats: { runs: number; failures: number; lastFailure?: string; log?: number; checkpointed?: number };
  /** Asks for a checkpoint now; resolves when it has run. */
  now(): Promise<void>;
  /** Stops the worker and closes its connection; this connection checkpoints by itself again. */
  stop(): Promise<void>;
}

/**
 * Moves WAL checkpoints off this connection's thread. By SQLite's default the commit that finds
 * 1,000 pages in the log copies them into the database file and syncs it before returning:
 * 10–25 ms on the server's thread, in the middle of whatever the event loop had to do next
 * (measured: a chat request that arrived during an access write's checkpoint waited 11–16 ms
 * before its handler started; bench/proxy-spans.ts). Here a worker thread with a connection of
 * its own checkpoints every `intervalMs`, PASSIVE: it waits for no reader or writer, and they do
 * not wait for it. This connection keeps a checkpoint threshold of its own at 10,000 pages, so
 * the log stays bounded should the worker fall behind; if the worker fails or exits, the
 * threshold goes back to SQLite's 1,000 and a warning says so.
 */
export function startBackgroundCheckpoints(db: Database.Database, path: string, options: { intervalMs?: number } = {}): BackgroundCheckpoints {
  const [entry, workerOptions] = workerEntry(import.meta.url, 'checkpoint-worker');
  const worker = new Worker(entry, { ...workerOptions, workerData: { path, intervalMs: options.intervalMs ?? 1000 } satisfies CheckpointWorkerData });
  // A server's helper: it never keeps the process alive by itself.
  worker.unref();
  const stats: BackgroundCheckpoints['stats'] = { runs: 0, failures: 0 };
  const waiting = new Map<number, () => void>();
  let next = 0;
  let stopping = false;
  db.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  let fellBack = false;
  const fallBack = (why: string): void => {
    if (fellBack) return;
    fellBack = true;
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
    process.emitWarning(`Engram's background WAL checkpoints stopped (${why}); the store's own commits checkpoint again`, { code: 'ENGRAM_CHECKPOINTS' });
  };
  worker.on('message', (reply: CheckpointReply) => {
    if (reply.type === 'checkpointed') {
      stats.runs++;
      stats.log = reply.log;
      stats.checkpointed = reply.checkpointed;
    }
    else if (reply.type === 'failed') {
      stats.failures++;
      stats.lastFailure = reply.message;
    }
    if (reply.type !== 'stopped' && reply.id !== undefined) {
      waiting.get(reply.id)?.();
      waiting.delete(reply.id);
      if (waiting.size === 0 && !stopping) worker.unref();
    }
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('error', (error) => fallBack(error.message));
  worker.once('exit', (code) => {
    for (const resolve of waiting.values()) resolve();
    waiting.clear();
    if (!stopping) fallBack(`the worker exited with code ${code}`);
  });
  return {
    stats,
    now: () =>
      new Promise<void>((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        // Someone waits for it: the process stays up until it is done.
        worker.ref();
        worker.postMessage({ type: 'now', id } satisfies CheckpointRequest);
      }),
    async stop() {
      if (!stopping) {
        stopping = true;
        // The store's close waits for it: with nothing else to do the process would exit first.
        worker.ref();
        worker.postMessage({ type: 'stop' } satisfies CheckpointRequest);
      }
      await exited;
      if (db.open) db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
    },
  };
}
