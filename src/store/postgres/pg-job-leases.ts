import type { Store } from '../store.js';
import type { PgContext } from './pg-db.js';

/**
 * Named job leases in one row each. No session-level advisory locks: they would not survive a
 * transaction-mode pooler, and a row with an expiry frees itself when its holder crashes.
 */
export function jobLeaseRole(ctx: PgContext): Pick<Store, 'acquireJobLease' | 'releaseJobLease'> {
  return {
    acquireJobLease: async (job, owner, now, until) => {
      // SKIP LOCKED: expired rows another process is deleting (or taking over) are left to it, so the cleanup never waits or deadlocks.
      await ctx.run('DELETE FROM job_leases WHERE job IN (SELECT job FROM job_leases WHERE until < $1 AND job <> $2 FOR UPDATE SKIP LOCKED)', [now.getTime(), job]);
      // Two processes inserting at once: the second waits on the unique index, then its DO UPDATE
      // sees the first's committed row, which its WHERE refuses, so it returns no row.
      const rows = await ctx.rows(
        `INSERT INTO job_leases (job, owner, until) VALUES ($1, $2, $3)
         ON CONFLICT (job) DO UPDATE SET owner = excluded.owner, until = excluded.until
         WHERE job_leases.owner = excluded.owner OR job_leases.until < $4
         RETURNING 1`,
        [job, owner, until.getTime(), now.getTime()],
      );
      return rows.length === 1;
    },
    releaseJobLease: async (job, owner) => {
      await ctx.run('DELETE FROM job_leases WHERE job = $1 AND owner = $2', [job, owner]);
    },
  };
}
