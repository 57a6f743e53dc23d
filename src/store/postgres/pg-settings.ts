import type { Store } from '../store.js';
import type { PgContext } from './pg-db.js';

/** Settings: user '*' holds the global defaults, a user's own values override them. */
export function settingsRole(ctx: PgContext): Pick<Store, 'getSettings' | 'ownSettings' | 'setSettings'> {
  return {
    getSettings: async (userId) => {
      const rows = await ctx.rows<{ key: string; value: string }>(`SELECT key, value FROM settings WHERE user_id IN ('*', $1) ORDER BY user_id = '*' DESC`, [userId]);
      const out: Record<string, unknown> = {};
      for (const r of rows) out[r.key] = JSON.parse(r.value);
      return out;
    },
    ownSettings: async (userId) => {
      const rows = await ctx.rows<{ key: string; value: string }>('SELECT key, value FROM settings WHERE user_id = $1', [userId]);
      return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
    },
    setSettings: (userId, values) =>
      ctx.atomic(async (tx) => {
        for (const [k, v] of Object.entries(values)) {
          if (v !== undefined) await tx.run('INSERT INTO settings (user_id, key, value) VALUES ($1, $2, $3) ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value', [userId, k, JSON.stringify(v)]);
        }
      }),
  };
}
