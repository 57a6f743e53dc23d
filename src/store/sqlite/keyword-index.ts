import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/** The FTS column token that partitions a keyword index by user. Hashed: user ids may hold any character. */
export function userToken(userId: string): string {
  return 'u' + createHash('sha256').update(userId).digest('hex').slice(0, 24);
}

/** Quotes a term for an FTS5 query so no user text is ever read as query syntax. */
function quote(term: string): string {
  return '"' + term.replace(/"/g, '""') + '"';
}

export interface Bm25Params {
  k1: number;
  b: number;
}
export const DEFAULT_BM25: Bm25Params = { k1: 1.2, b: 0.4 };

export interface KeywordHit {
  rowid: number;
  /** BM25 with per-user statistics. */
  score: number;
  /**
   * BM25 over the ideal score of this query: an item of average length holding every query term
   * once scores 1. Comparable across queries, unlike the raw score (see recall/calibration.ts).
   */
  coverage: number;
}

/**
 * Keyword search over an FTS5 table `(user_tok, terms)` whose rowid is the item's rowid.
 * FTS5 finds candidates; scoring is our own BM25 with per-user statistics and a tunable length
 * normalisation b (FTS5's built-in bm25() fixes b at 0.75, which over-penalises long turns).
 */
export class KeywordIndex {
  private readonly insertStmt: Database.Statement;
  private readonly deleteStmt: Database.Statement;
  private readonly termsStmt: Database.Statement;
  private readonly statsStmt: Database.Statement;
  private readonly bumpStmt: Database.Statement;
  private readonly countStmt: Database.Statement;
  private readonly candidatesStmt: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
  ) {
    this.insertStmt = db.prepare(`INSERT INTO ${table} (rowid, user_tok, terms) VALUES (?, ?, ?)`);
    this.deleteStmt = db.prepare(`DELETE FROM ${table} WHERE rowid = ?`);
    this.termsStmt = db.prepare(`SELECT terms FROM ${table} WHERE rowid = ?`);
    this.statsStmt = db.prepare(`SELECT doc_count, term_total FROM keyword_stats WHERE index_name = ? AND user_id = ?`);
    this.countStmt = db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH ?`);
    this.candidatesStmt = db.prepare(`SELECT rowid, terms FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT ?`);
    this.bumpStmt = db.prepare(
      `INSERT INTO keyword_stats (index_name, user_id, doc_count, term_total) VALUES (?, ?, ?, ?)
       ON CONFLICT (index_name, user_id) DO UPDATE SET doc_count = doc_count + excluded.doc_count, term_total = term_total + excluded.term_total`,
    );
  }

  upsert(rowid: number, userId: string, terms: readonly string[]): void {
    this.remove(rowid, userId);
    if (terms.length === 0) return;
    this.insertStmt.run(rowid, userToken(userId), terms.join(' '));
    this.bumpStmt.run(this.table, userId, 1, terms.length);
  }

  remove(rowid: number, userId: string): void {
    const row = this.termsStmt.get(rowid) as { terms: string } | undefined;
    if (!row) return;
    this.deleteStmt.run(rowid);
    this.bumpStmt.run(this.table, userId, -1, -row.terms.split(' ').length);
  }

  /** Every user's rows and statistics, gone (forget-everything). */
  removeUser(userId: string): void {
    this.db.prepare(`DELETE FROM ${this.table} WHERE ${this.table} MATCH ?`).run(`user_tok:${userToken(userId)}`);
    this.db.prepare(`DELETE FROM keyword_stats WHERE index_name = ? AND user_id = ?`).run(this.table, userId);
  }

  /**
   * Scores the user's items matching any of the terms. `candidateLimit` bounds how many FTS
   * matches are rescored (FTS5's own rank picks them); returns rowid -> score, best first.
   */
  search(userId: string, queryTerms: readonly string[], limit: number, params: Bm25Params = DEFAULT_BM25, candidateLimit = 400): KeywordHit[] {
    const unique = [...new Set(queryTerms.filter((t) => t.length > 0))];
    if (unique.length === 0 || limit <= 0) return [];
    const stats = this.statsStmt.get(this.table, userId) as { doc_count: number; term_total: number } | undefined;
    if (!stats || stats.doc_count <= 0) return [];
    const user = `user_tok:${userToken(userId)}`;
    const idf = new Map<string, number>();
    // A term no item holds still counts in the ideal score (with the highest idf): a query half
    // made of unknown words can at best be half covered.
    let ideal = 0;
    for (const term of unique) {
      const df = (this.countStmt.get(`${user} AND terms:${quote(term)}`) as { n: number }).n;
      const w = Math.log(1 + (stats.doc_count - df + 0.5) / (df + 0.5));
      ideal += w;
      if (df > 0) idf.set(term, w);
    }
    if (idf.size === 0) return [];
    const match = `${user} AND terms:(${[...idf.keys()].map(quote).join(' OR ')})`;
    const rows = this.candidatesStmt.all(match, candidateLimit) as Array<{ rowid: number; terms: string }>;
    return rankBm25(rows, idf, ideal, stats.term_total / stats.doc_count, params, limit);
  }
}

/**
 * BM25 over candidate rows (their space-separated index terms), best first: `score`, and
 * `coverage` = score over the query's ideal score (comparable across queries). Shared by every
 * store adapter, so keyword ranking means the same on each.
 */
export function rankBm25<R extends { terms: string }>(rows: readonly R[], idf: ReadonlyMap<string, number>, ideal: number, avgdl: number, params: Bm25Params, limit: number): Array<Omit<R, 'terms'> & { score: number; coverage: number }> {
  const { k1, b } = params;
  const scored = rows.map(({ terms, ...rest }) => {
    const tokens = terms.split(' ');
    const tf = new Map<string, number>();
    for (const t of tokens) if (idf.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
    let score = 0;
    const norm = k1 * (1 - b + (b * tokens.length) / avgdl);
    for (const [t, f] of tf) score += idf.get(t)! * ((f * (k1 + 1)) / (f + norm));
    return { ...rest, score, coverage: score / ideal };
  });
  scored.sort((x, y) => y.score - x.score);
  return scored.slice(0, limit);
}
