import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { KeywordCache, type KeywordCacheOptions } from './keyword-cache.js';
import { changeFeed, type ChangeFeed } from './change-feed.js';

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
  private readonly allMatchesStmt: Database.Statement;
  private readonly frequencies: DocumentFrequencies;
  private readonly cache: KeywordCache | null;
  private readonly feed: ChangeFeed;

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
    cache: KeywordCacheOptions = {},
  ) {
    this.cache = cache.enabled === false ? null : new KeywordCache(db, table, cache);
    this.insertStmt = db.prepare(`INSERT INTO ${table} (rowid, user_tok, terms) VALUES (?, ?, ?)`);
    this.deleteStmt = db.prepare(`DELETE FROM ${table} WHERE rowid = ?`);
    this.termsStmt = db.prepare(`SELECT terms FROM ${table} WHERE rowid = ?`);
    this.statsStmt = db.prepare(`SELECT doc_count, term_total FROM keyword_stats WHERE index_name = ? AND user_id = ?`);
    this.countStmt = db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH ?`);
    this.candidatesStmt = db.prepare(`SELECT rowid, terms FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT ?`);
    this.allMatchesStmt = db.prepare(`SELECT rowid, terms FROM ${table} WHERE ${table} MATCH ?`);
    this.feed = changeFeed(db);
    this.frequencies = new DocumentFrequencies(db, table);
    this.bumpStmt = db.prepare(
      `INSERT INTO keyword_stats (index_name, user_id, doc_count, term_total) VALUES (?, ?, ?, ?)
       ON CONFLICT (index_name, user_id) DO UPDATE SET doc_count = doc_count + excluded.doc_count, term_total = term_total + excluded.term_total`,
    );
  }

  /** Brings the cached postings up to date with this connection's writes (an idle moment's work). */
  refreshCache(): void {
    this.cache?.refreshDirty(userToken);
  }

  upsert(rowid: number, userId: string, terms: readonly string[]): void {
    if (!this.remove(rowid, userId)) this.changed(userId, rowid);
    if (terms.length === 0) return;
    this.insertStmt.run(rowid, userToken(userId), terms.join(' '));
    this.bumpStmt.run(this.table, userId, 1, terms.length);
  }

  /** Removes the row's terms; false when it had none. */
  remove(rowid: number, userId: string): boolean {
    const row = this.termsStmt.get(rowid) as { terms: string } | undefined;
    if (!row) return false;
    this.changed(userId, rowid);
    this.deleteStmt.run(rowid);
    this.bumpStmt.run(this.table, userId, -1, -row.terms.split(' ').length);
    return true;
  }

  /** A write to the user's row: their counts and postings are read again, here and (through the change feed) in other connections. */
  private changed(userId: string, rowid: number): void {
    this.feed.record(this.table, userId, rowid);
    this.frequencies.changed(userId);
    this.cache?.touched(userId, rowid);
  }

  /** Every user's rows and statistics, gone (forget-everything). */
  removeUser(userId: string): void {
    this.feed.record(this.table, userId, null);
    this.frequencies.changed(userId);
    this.cache?.dropUser(userId);
    this.db.prepare(`DELETE FROM ${this.table} WHERE ${this.table} MATCH ?`).run(`user_tok:${userToken(userId)}`);
    this.db.prepare(`DELETE FROM keyword_stats WHERE index_name = ? AND user_id = ?`).run(this.table, userId);
  }

  /**
   * Scores the user's items matching any of the terms, best first. A user searched often has
   * their postings in memory (keyword-cache.ts): BM25 over every match. Otherwise FTS5 finds the
   * matches and, past `candidateLimit` of them, its own rank picks which are rescored.
   */
  search(userId: string, queryTerms: readonly string[], limit: number, params: Bm25Params = DEFAULT_BM25, candidateLimit = 400): KeywordHit[] {
    const unique = [...new Set(queryTerms.filter((t) => t.length > 0))];
    if (unique.length === 0 || limit <= 0) return [];
    const stats = this.statsStmt.get(this.table, userId) as { doc_count: number; term_total: number } | undefined;
    if (!stats || stats.doc_count <= 0) return [];
    const token = userToken(userId);
    const postings = this.cache?.postings(userId, token);
    if (postings) return postings.search(unique, stats.doc_count, stats.term_total / stats.doc_count, params, limit);
    const user = `user_tok:${token}`;
    const idf = new Map<string, number>();
    // A term no item holds still counts in the ideal score (with the highest idf): a query half
    // made of unknown words can at best be half covered.
    let ideal = 0;
    let matchesAtMost = 0;
    for (const term of unique) {
      const df = this.frequencies.get(userId, term, () => (this.countStmt.get(`${user} AND terms:${quote(term)}`) as { n: number }).n);
      const w = Math.log(1 + (stats.doc_count - df + 0.5) / (df + 0.5));
      ideal += w;
      matchesAtMost += df;
      if (df > 0) idf.set(term, w);
    }
    if (idf.size === 0) return [];
    const match = `${user} AND terms:(${[...idf.keys()].map(quote).join(' OR ')})`;
    // When every match fits, take them all as they come: FTS5 would otherwise rank each of them
    // (its own bm25) only to hand over the same set.
    const rows = (matchesAtMost <= candidateLimit ? this.allMatchesStmt.all(match) : this.candidatesStmt.all(match, candidateLimit)) as Array<{ rowid: number; terms: string }>;
    return rankBm25(rows, idf, ideal, stats.term_total / stats.doc_count, params, limit);
  }
}

/**
 * Per-user document frequencies of the terms queries asked for, kept between searches: counting
 * a term's rows reads its posting list, once per query term. Always in step with the file:
 * - a write to a user's rows drops that user's counts: this connection's at once, another
 *   connection's committed one through the change feed (change-feed.ts);
 * - counts read inside a transaction are used once and not kept (a rollback would leave them wrong).
 */
class DocumentFrequencies {
  private readonly users = new Map<string, Map<string, number>>();
  private readonly feed: ChangeFeed;
  private size = 0;

  constructor(
    private readonly db: Database.Database,
    table: string,
    private readonly maxTerms = 200_000,
  ) {
    this.feed = changeFeed(db);
    this.feed.listen(table, {
      changed: (userId) => {
        if (userId === null) this.clear();
        else this.changed(userId);
      },
      reset: () => this.clear(),
    });
  }

  private clear(): void {
    this.users.clear();
    this.size = 0;
  }

  changed(userId: string): void {
    const terms = this.users.get(userId);
    if (!terms) return;
    this.size -= terms.size;
    this.users.delete(userId);
  }

  get(userId: string, term: string, count: () => number): number {
    if (this.db.inTransaction) return count();
    this.feed.sync();
    let terms = this.users.get(userId);
    const known = terms?.get(term);
    if (known !== undefined) return known;
    const n = count();
    if (this.size >= this.maxTerms) {
      this.users.clear();
      this.size = 0;
    }
    if (!terms || !this.users.has(userId)) this.users.set(userId, (terms = new Map()));
    terms.set(term, n);
    this.size++;
    return n;
  }
}

/**
 * BM25 over candidate rows (their space-separated index terms), best first: `score`, and
 * `coverage` = score over the query's ideal score (comparable across queries). Shared by every
 * store adapter, so keyword ranking means the same on each.
 */
export function rankBm25<R extends { terms: string }>(rows: readonly R[], idf: ReadonlyMap<string, number>, ideal: number, avgdl: number, params: Bm25Params, limit: number): Array<Omit<R, 'terms'> & { score: number; coverage: number }> {
  const { k1, b } = params;
  const weighted = [...idf];
  // Counted in the terms string itself, without splitting it: a split per row was a fifth of a search.
  const scored = rows.map(({ terms, ...rest }) => {
    const norm = k1 * (1 - b + (b * tokenCount(terms)) / avgdl);
    let score = 0;
    for (const [t, w] of weighted) {
      const f = occurrences(terms, t);
      if (f > 0) score += w * ((f * (k1 + 1)) / (f + norm));
    }
    return { ...rest, score, coverage: score / ideal };
  });
  scored.sort((x, y) => y.score - x.score);
  return scored.slice(0, limit);
}

/** Tokens in a space-separated terms string. */
function tokenCount(terms: string): number {
  let n = 1;
  for (let i = terms.indexOf(' '); i !== -1; i = terms.indexOf(' ', i + 1)) n++;
  return n;
}

/** How many of the space-separated tokens of `terms` are exactly `term`. */
function occurrences(terms: string, term: string): number {
  let n = 0;
  for (let i = terms.indexOf(term); i !== -1; i = terms.indexOf(term, i + 1)) {
    const end = i + term.length;
    if ((i === 0 || terms.charCodeAt(i - 1) === 32) && (end === terms.length || terms.charCodeAt(end) === 32)) n++;
  }
  return n;
}
