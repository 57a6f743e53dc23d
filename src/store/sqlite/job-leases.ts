import type Database from 'better-sqlite3';
import { Statements } from './statements.js';

/** Named job leases (LifecyclePort.acquireJobLease): one process runs a scheduled job at a time. */
export class JobLeases {
  private readonly sql: Statements;

  constructor(private readonly db: Database.Database) {
    this.sql = new Statements(db);
  }

  acquire(job: string, owner: string, now: Date, until: Date): boolean {
    // IMMEDIATE: the write lock is taken before the read, so two processes on one file are serialised.
    return this.db.transaction(() => {
      this.sql.get('DELETE FROM job_leases WHERE until < ? AND job <> ?').run(now.getTime(), job);
      const row = this.sql.get('SELECT owner, until FROM job_leases WHERE job = ?').get(job) as { owner: string; until: number } | undefined;
      if (row && row.owner !== owner && row.until >= now.getTime()) return false;
      this.sql.get('INSERT INTO job_leases (job, owner, until) VALUES (?, ?, ?) ON CONFLICT (job) DO UPDATE SET owner = excluded.owner, until = excluded.until')
        .run(job, owner, until.getTime());
      return true;
    }).immediate();
  }

  release(job: string, owner: string): void {
    this.sql.get('DELETE FROM job_leases WHERE job = ? AND owner = ?').run(job, owner);
  }
}
