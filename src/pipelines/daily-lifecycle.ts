import { randomUUID } from 'node:crypto';
import type { ModelDeps, ProcessRuntime } from './deps.js';
import { runLifecycle, type LifecycleReport } from './run-lifecycle.js';
import type { DecayPolicy } from '../lifecycle/decay-policy.js';

const DAY = 86_400_000;

/**
 * The scheduler's daily lifecycle pass, run by one process per UTC day when several share the
 * store: decay is idempotent, but memory reviews and compressions call the model. The job lease
 * `lifecycle:<date>` is kept, not released, when the pass ends: it marks the day as done, and it
 * expires a day later, after its date can no longer be asked for. Returns null when another
 * process (or engine) has taken the day. A by-hand runLifecycle is not guarded.
 */
export async function runDailyLifecycle(deps: ModelDeps & Pick<ProcessRuntime, 'workerId'>, options: { policy?: DecayPolicy } = {}): Promise<LifecycleReport | null> {
  const now = deps.clock.now();
  const job = `lifecycle:${now.toISOString().slice(0, 10)}`;
  // A fresh owner per pass: a second engine in this process (same worker id) must not count as the holder.
  const owner = `${deps.workerId}/${randomUUID()}`;
  if (!(await deps.store.acquireJobLease(job, owner, now, new Date(now.getTime() + DAY)))) {
    deps.logger.info('daily lifecycle pass skipped: another process runs it today', { job });
    return null;
  }
  return runLifecycle(deps, options);
}
