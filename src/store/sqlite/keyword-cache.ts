import type Database from 'better-sqlite3';
import { UserPostings } from './keyword-postings.js';
import { evictOverBudget } from './evict-over-budget.js';
import { dataVersion } from './statements.js';

export interface KeywordCacheOptions {
  /** Keep searched users' keyword postings in memory (exact BM25 over every match, no FTS5 read per search). @default true */
  enabled?: boolean;
  /** Memory for postings across users of one index; least recently searched users are dropped. @default 128 MiB */
  maxBytes?: number;
  /** A user's postings are built on this many searches since the last invalidation; before, FTS5 answers. @default 3 */
  buildAfter?: number;
}

/**
 * Per-user keyword postings of one FTS5 table `(user_tok, terms)`, kept in this process and
 * always in step with the file (the same rules as the vector codes, vector-cache.ts):
 * - another connection's commit changes `PRAGMA data_version`, and then every user is dropped;
 * - this connection's writes mark their rowids dirty; before a search the dirty rows are re-read,
 *   so a rolled-back write is read back as it really is;
 * - the cache is never used inside a transaction (the caller searches FTS5 there).
 * Building reads every row of the user once, so it waits for `buildAfter` searches since the last
 * invalidation: a file that another process keeps writing keeps the FTS5 cost rather than paying
 * rebuilds. Users are evicted least recently used beyond `maxBytes`.
 */
export class KeywordCache {
  private readonly users = new Map<string, UserPostings>();
  private readonly dirty = new Map<string, Set<number>>();
  private readonly searches = new Map<string, number>();
  private version: number | undefined;
  private readonly readVersion: () => number;
  private readonly allStmt: Database.Statement;
  private readonly rowStmt: Database.Statement;
  private readonly maxBytes: number;
  private readonly buildAfter: number;

  constructor(
    private readonly db: Database.Database,
    table: string,
    options: KeywordCacheOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? 128 * 2 ** 20;
    this.buildAfter = options.buildAfter ?? 3;
    this.readVersion = dataVersion(db);
    this.allStmt = db.prepare(`SELECT rowid, terms FROM ${table} WHERE ${table} MATCH ?`).raw(true);
    this.rowStmt = db.prepare(`SELECT user_tok, terms FROM ${table} WHERE rowid = ?`);
  }

  /** Called by every write to one of the user's rows through this connection. */
  touched(userId: string, rowid: number): void {
    if (!this.users.has(userId)) return;
    let set = this.dirty.get(userId);
    if (!set) this.dirty.set(userId, (set = new Set()));
    set.add(rowid);
  }

  /** Every row of the user is gone (forget-everything). */
  dropUser(userId: string): void {
    this.users.delete(userId);
    this.dirty.delete(userId);
    this.searches.delete(userId);
  }

  /**
   * The user's postings as this connection sees the file, or undefined while the user has not
   * been searched often enough to be worth building. Outside transactions only.
   * `token` is the user's FTS column token.
   */
  postings(userId: string, token: string): UserPostings | undefined {
    if (this.db.inTransaction) return undefined;
    const version = this.readVersion();
    if (version !== this.version) {
      this.users.clear();
      this.dirty.clear();
      this.searches.clear();
      this.version = version;
    }
    let postings = this.users.get(userId);
    if (postings) {
      this.users.delete(userId);
      const set = this.dirty.get(userId);
      if (set) {
        for (const rowid of set) {
          const row = this.rowStmt.get(rowid) as { user_tok: string; terms: string } | undefined;
          postings.set(rowid, row && row.user_tok === token ? row.terms : null);
        }
        this.dirty.delete(userId);
      }
      // Mostly dead slots (many rewrites): start over from the table.
      if (postings.dead > 1_000 && postings.dead > postings.size) postings = this.build(token);
    } else {
      const seen = (this.searches.get(userId) ?? 0) + 1;
      this.searches.set(userId, seen);
      if (seen < this.buildAfter) return undefined;
      postings = this.build(token);
    }
    this.users.set(userId, postings);
    this.evict();
    return postings;
  }

  private build(token: string): UserPostings {
    const postings = new UserPostings();
    for (const [rowid, terms] of this.allStmt.iterate(`user_tok:${token}`) as Iterable<[number, string]>) postings.set(rowid, terms);
    return postings;
  }

  private evict(): void {
    evictOverBudget(this.users, this.maxBytes, (user) => this.dirty.delete(user));
  }

  /** Bytes held per cached user (for benchmarks). */
  sizes(): Map<string, number> {
    return new Map([...this.users].map(([u, p]) => [u, p.bytes]));
  }
}
