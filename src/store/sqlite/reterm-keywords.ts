import type Database from 'better-sqlite3';
import { indexTerms } from '../../text/segment.js';
import { userToken } from './keyword-index.js';

/**
 * Re-derives the keyword terms of every indexed memory and message from its content with the
 * current `indexTerms`, for a migration step that follows a change to how text becomes terms (a
 * query's terms must be made the way the rows' were). Rows whose terms do not change are left
 * alone; the per-user BM25 statistics are counted again. Runs inside the migration's
 * transaction.
 */
export function retermKeywords(db: Database.Database): void {
  for (const [fts, items] of [['memory_fts', 'memories'], ['message_fts', 'messages']] as const) {
    const rows = db.prepare(`SELECT f.rowid AS rid, i.user_id AS userId, i.content AS content, f.terms AS terms FROM ${fts} f JOIN ${items} i ON i.rid = f.rowid`).all() as Array<{ rid: number; userId: string; content: string; terms: string }>;
    const remove = db.prepare(`DELETE FROM ${fts} WHERE rowid = ?`);
    const insert = db.prepare(`INSERT INTO ${fts} (rowid, user_tok, terms) VALUES (?, ?, ?)`);
    const stats = db.prepare(`UPDATE keyword_stats SET doc_count = ?, term_total = ? WHERE index_name = ? AND user_id = ?`);
    const totals = new Map<string, { docs: number; terms: number }>();
    for (const row of rows) {
      const terms = indexTerms(row.content);
      if (terms.length > 0) {
        const t = totals.get(row.userId) ?? { docs: 0, terms: 0 };
        totals.set(row.userId, { docs: t.docs + 1, terms: t.terms + terms.length });
      }
      const joined = terms.join(' ');
      if (joined === row.terms) continue;
      remove.run(row.rid);
      if (terms.length > 0) insert.run(row.rid, userToken(row.userId), joined);
    }
    // Counted again from the rows rather than adjusted, so they are right whatever they were.
    for (const [userId, t] of totals) stats.run(t.docs, t.terms, fts, userId);
  }
}
