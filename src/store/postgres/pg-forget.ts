import { createHash } from 'node:crypto';
import type { Store } from '../store.js';
import { USER_IDS_SQL } from '../sqlite/lifecycle-tables.js';
import type { PgContext } from './pg-db.js';

/** Keyed by a salted hash, as on SQLite (sqlite/forget-fence.ts): the row names no user after a forget. */
const fenceKey = (userId: string): string => createHash('sha256').update(`engram-forget-fence\u0000${userId}`).digest('hex');

/** Raised in the same transaction by every forgetUser and purgeMemory of the user. */
export async function bumpForgetFence(ctx: PgContext, userId: string): Promise<void> {
  await ctx.run('INSERT INTO forget_fences (user_key, generation) VALUES ($1, 1) ON CONFLICT (user_key) DO UPDATE SET generation = forget_fences.generation + 1', [fenceKey(userId)]);
}

/** Every table holding a user's rows, in the order forgetUser erases them. */
const USER_TABLES = ['memories', 'messages', 'memory_history', 'sessions', 'todos', 'reminder_deliveries', 'settings', 'extraction_runs', 'memory_relations', 'profiles', 'forgotten_requests'] as const;

export function forgetRole(ctx: PgContext): Pick<Store, 'forgetGeneration' | 'forgetUser' | 'userIds'> {
  return {
    forgetGeneration: async (userId) => (await ctx.rows<{ generation: number }>('SELECT generation FROM forget_fences WHERE user_key = $1', [fenceKey(userId)]))[0]?.generation ?? 0,

    forgetUser: (userId) =>
      ctx.atomic(async (tx) => {
        // Keyword terms and vectors live on the memory and message rows: deleting the rows erases them.
        const counts: Record<string, number> = {};
        for (const table of USER_TABLES) counts[table] = await tx.run(`DELETE FROM ${table} WHERE user_id = $1`, [userId]);
        // The search cache's counters name the user too. A later write of the user in this
        // transaction must create a new counter row, not reuse the version it remembers.
        await tx.run('DELETE FROM search_versions WHERE user_id = $1', [userId]);
        await tx.run("SELECT set_config('engram.search_key', '', true)");
        await bumpForgetFence(tx, userId);
        return counts;
      }),

    userIds: async () => (await ctx.rows<{ user_id: string }>(USER_IDS_SQL)).map((r) => r.user_id),
  };
}
