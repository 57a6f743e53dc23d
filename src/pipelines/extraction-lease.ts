import type { Clock, Logger } from '../deps.js';
import { EngramError } from '../errors.js';
import type { LeaseTask } from '../store/ports/sessions.js';
import type { Store } from '../store/store.js';
import { isAbandonedWorker } from './worker-id.js';

/** What holding a lease needs: the store, time, a logger, this worker's id and the lease timing. */
export interface LeaseDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  workerId: string;
  extraction: { leaseMs: number; renewEveryMs?: number };
}

/** A held session lease: the fence to check in the commit transaction, and its release. */
export interface HeldLease {
  /** Throws CONFLICT (details.leaseLost) when another worker acquired the lease since. */
  fence(tx: Pick<Store, 'holdsSessionLease'>): Promise<void>;
  /** True for the error `fence` throws. */
  lost(error: unknown): boolean;
  /** Stops the renewal and frees the lease (only if it is still this acquisition's). */
  release(): Promise<void>;
}

/**
 * Takes the session's lease and keeps it: renewed every `renewEveryMs` while the work runs (a
 * model call may outlast the lease), checked again inside the commit transaction with its fencing
 * token, so a worker that lost the lease (it stalled, another took over) can never apply a batch
 * twice. A lease left by a dead process of this host is taken over at once.
 */
export async function holdLease(deps: LeaseDeps, userId: string, sessionId: string, task: LeaseTask = 'extract'): Promise<HeldLease | null> {
  const { store, clock, workerId } = deps;
  const leaseMs = deps.extraction.leaseMs;
  const now = clock.now();
  const token = await store.acquireSessionLease(userId, sessionId, workerId, now, new Date(now.getTime() + leaseMs), { isAbandoned: isAbandonedWorker, task });
  if (token === null) return null;
  const name = task === 'extract' ? 'extraction' : 'summary';
  let renewal: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    renewal = store.renewSessionLease(userId, sessionId, workerId, token, new Date(clock.now().getTime() + leaseMs), task).catch((error: unknown) => {
      deps.logger.warn(`${name} lease renewal failed`, { code: EngramError.isInstance(error) ? error.code : 'STORE_FAILED', userId, sessionId, error: String(error) });
    });
  }, deps.extraction.renewEveryMs ?? Math.max(1, Math.floor(leaseMs / 3)));
  timer.unref();
  const LOST = `${name} lease lost`;
  return {
    fence: async (tx) => {
      if (!(await tx.holdsSessionLease(userId, sessionId, workerId, token, task))) {
        throw new EngramError('CONFLICT', `${LOST}: another worker took session ${sessionId} over; this batch is not applied`, { details: { leaseLost: true } });
      }
    },
    lost: (error) => EngramError.hasCode(error, 'CONFLICT') && error.details?.leaseLost === true,
    release: async () => {
      clearInterval(timer);
      await renewal;
      await store.releaseSessionLease(userId, sessionId, workerId, token, task);
    },
  };
}
