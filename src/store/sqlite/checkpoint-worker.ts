/**
 * The worker side of `startBackgroundCheckpoints` (background-checkpoints.ts): a connection of its
 * own to the file, which copies the write-ahead log back into the database every `intervalMs`
 * without waiting for any reader or writer (PASSIVE), until told to stop.
 *
 * The log only starts over from its beginning when a write begins with every frame copied: while
 * writes keep coming during the copy, it grows. So a checkpoint that found more than
 * CATCH_UP_FRAMES in the log runs again soon, each time with only what was written meanwhile to
 * copy, until one finishes between two writes and the next write starts the log over.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { CheckpointReply, CheckpointRequest, CheckpointWorkerData } from './background-checkpoints.js';

/** A log this long (SQLite's own checkpoint threshold) has not started over lately: catch up. */
const CATCH_UP_FRAMES = 1000;
const CATCH_UP_MS = 10;

const port = parentPort;
if (!port) throw new Error('checkpoint-worker runs as a worker thread');
const { path, intervalMs } = workerData as CheckpointWorkerData;
const db = new Database(path, { fileMustExist: true });

/** Checkpoints once; answers the frames in the log (0 when it failed). */
const checkpoint = (id?: number): number => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
    const log = result?.log ?? 0;
    port.postMessage({ type: 'checkpointed', id, log, checkpointed: result?.checkpointed ?? 0 } satisfies CheckpointReply);
    return log;
  } catch (error) {
    port.postMessage({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) } satisfies CheckpointReply);
    return 0;
  }
};
let timer: NodeJS.Timeout;
/** Checkpoints, then schedules the next one: soon while catching up, else after the interval. */
const tick = (id?: number): void => {
  clearTimeout(timer);
  timer = setTimeout(tick, checkpoint(id) > CATCH_UP_FRAMES ? CATCH_UP_MS : intervalMs);
};
timer = setTimeout(tick, intervalMs);

port.on('message', (request: CheckpointRequest) => {
  if (request.type === 'now') return tick(request.id);
  clearTimeout(timer);
  db.close();
  port.postMessage({ type: 'stopped' } satisfies CheckpointReply);
  port.close();
});
