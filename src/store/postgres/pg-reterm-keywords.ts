import type pg from 'pg';
import { indexTerms } from '../../text/segment.js';
import { keywordColumns } from './pg-search.js';

/** Rows read and rewritten per round trip. */
const BATCH = 1_000;

/**
 * Re-derives the keyword columns (terms, term_count, kw) of every memory and message from its
 * content with the current `indexTerms`, for a migration step that follows a change to how text
 * becomes terms. Rows whose terms do not change are not written; the rows that are raise their
 * user's search version through the table's trigger, so search caches see them. Runs inside the
 * migration's transaction.
 */
export async function retermKeywordsPg(client: pg.ClientBase): Promise<void> {
  for (const table of ['memories', 'messages'] as const) {
    let after = 0;
    for (;;) {
      const { rows } = await client.query<{ rid: string; content: string; terms: string }>(`SELECT rid, content, terms FROM ${table} WHERE rid > $1 ORDER BY rid LIMIT ${BATCH}`, [after]);
      if (rows.length === 0) break;
      after = Number(rows[rows.length - 1]!.rid);
      const changed = rows.flatMap((r) => {
        const kw = keywordColumns(indexTerms(r.content));
        return kw.terms === r.terms ? [] : [{ rid: r.rid, ...kw }];
      });
      for (const c of changed) {
        await client.query(`UPDATE ${table} SET terms = $2, term_count = $3, kw = array_to_tsvector($4::text[]) WHERE rid = $1`, [c.rid, c.terms, c.termCount, c.lexemes]);
      }
    }
  }
}
