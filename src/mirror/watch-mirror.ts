import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Logger } from '../deps.js';
import { silentLogger } from '../deps.js';
import { hashText, MIRROR_FILES, readBase, readMirrorFile } from './mirror-files.js';
import type { MirrorFile } from './mirror-format.js';

export interface WatchMirrorOptions<R> {
  /** The workspace folder given to createMemory({ workspace }). */
  workspace: string;
  /** Reads a user's edits back; pass `(userId) => memory.syncMirror(userId)`. */
  sync: (userId: string) => Promise<R>;
  /** Quiet time after the last change of a folder before it is synced (editors save in bursts). @default 300 */
  debounceMs?: number;
  /** Called after each sync that ran because of an edit. */
  onSync?: (userId: string, report: R) => void;
  /** @default silent */
  logger?: Logger;
}

export interface MirrorWatcher {
  /** Stops watching and waits for a sync already running. */
  close(): Promise<void>;
}

const NAMES = new Map<string, MirrorFile>(Object.entries(MIRROR_FILES).map(([file, name]) => [name, file as MirrorFile]));

/**
 * Watches a workspace and syncs a user's memory.md / learnings.md as soon as a person saves an
 * edit (seed 004: the files are the source of truth). Meant for a long-running process (the
 * server). Engram's own writes do not trigger a sync: a file whose hash equals what Engram last
 * wrote holds no edit. A failed sync is logged; the edit stays in the file and is merged by the
 * next write or sync, so nothing is lost.
 */
export function watchMirror<R>(options: WatchMirrorOptions<R>): MirrorWatcher {
  const logger = options.logger ?? silentLogger;
  const debounceMs = options.debounceMs ?? 300;
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let closed = false;

  const check = async (folder: string): Promise<void> => {
    const base = await readBase(folder);
    if (!base.userId) return;
    for (const file of NAMES.values()) {
      const text = await readMirrorFile(folder, file);
      if (text !== undefined && base.hashes[file] !== hashText(text)) {
        const report = await options.sync(base.userId);
        options.onSync?.(base.userId, report);
        return;
      }
    }
  };
  const schedule = (folder: string): void => {
    clearTimeout(timers.get(folder));
    timers.set(folder, setTimeout(() => {
      timers.delete(folder);
      if (closed) return;
      const job = check(folder).catch((error: unknown) => logger.warn('mirror sync after an edit failed', { code: 'MIRROR_FAILED', folder, error: String(error) }));
      running.add(job);
      void job.finally(() => running.delete(job));
    }, debounceMs));
  };

  const watcher: FSWatcher = watch(options.workspace, { recursive: true }, (_event, name) => {
    if (typeof name !== 'string' || !NAMES.has(basename(name))) return;
    const folder = dirname(name);
    if (folder === '.' || folder.includes('/') || folder.includes('\\')) return; // only <workspace>/<user folder>/<file>
    schedule(join(options.workspace, folder));
  });
  watcher.on('error', (error) => logger.warn('mirror watcher failed', { code: 'MIRROR_FAILED', error: String(error) }));

  return {
    close: async () => {
      closed = true;
      watcher.close();
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await Promise.all(running);
    },
  };
}
