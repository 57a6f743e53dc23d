import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/**
 * A per-user counter that every forgetting (forgetUser, purgeMemory) raises in its own
 * transaction. Work that started earlier (an extraction waiting on a slow model) reads it first
 * and checks it again inside its commit: a change means something was forgotten meanwhile, and
 * the work is dropped. Keyed by a salted hash so the row names no user after a forget.
 */
export class ForgetFence {
  constructor(private readonly db: Database.Database) {}

  private static key(userId: string): string {
    return createHash('sha256').update(`engram-forget-fence\u0000${userId}`).digest('hex');
  }

  get(userId: string): number {
    const row = this.db.prepare('SELECT generation FROM forget_fences WHERE user_key = ?').pluck().get(ForgetFence.key(userId)) as number | undefined;
    return row ?? 0;
  }

  bump(userId: string): void {
    this.db
      .prepare('INSERT INTO forget_fences (user_key, generation) VALUES (?, 1) ON CONFLICT (user_key) DO UPDATE SET generation = generation + 1')
      .run(ForgetFence.key(userId));
  }
}
