import { hostname } from 'node:os';

/**
 * The default id of this process's extraction worker: `<host>:<pid>`. Stable for the life of the
 * process (every engine it opens shares it) and recognisable after it dies, so a restarted
 * process can take over the leases a killed one left behind instead of waiting for them to expire.
 */
export function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}`;
}

/**
 * True when a lease owner is a `<host>:<pid>` worker of this host whose process no longer exists.
 * Owners from other hosts, or ids of another shape, are never declared abandoned: only expiry frees them.
 */
export function isAbandonedWorker(owner: string): boolean {
  const match = /^(.*):(\d+)$/.exec(owner);
  if (!match || match[1] !== hostname()) return false;
  const pid = Number(match[2]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // ESRCH: no such process. EPERM: it exists under another user, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
