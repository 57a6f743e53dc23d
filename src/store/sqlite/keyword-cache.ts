import type Database from 'better-sqlite3';
import { UserPostings } from './keyword-postings.js';
import { UserCacheBook } from './user-cache-book.js';

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
 * always in step with the file by the rules of `UserCacheBook` (user-cache-book.ts), which the
 * held memory and message rows share; the cache is never used inside a transaction (the caller
 * searches FTS5 there).
 */
export class KeywordCache {
  private readonly book: UserCacheBook<UserPostings>;
  private readonly allStmt: Database.Statement;
  private readonly rowStmt: Database.Statement;

  constructor(db: Database.Database, table: string, options: KeywordCacheOptions = {}) {
    this.book = new UserCacheBook(db, table, { maxBytes: options.maxBytes ?? 128 * 2 ** 20, buildAfter: options.buildAfter ?? 3 });
    this.allStmt = db.prepare(`SELECT rowid, terms FROM ${table} WHERE ${table} MATCH ?`).raw(true);
    this.rowStmt = db.prepare(`SELECT user_tok, terms FROM ${table} WHERE rowid = ?`);
  }

  /** Called by every write to one of the user's rows (the index records it in the change feed). */
  touched(userId: string, rowid: number): void {
    this.book.touched(userId, rowid);
  }

  /** Every row of the user is gone (forget-everything). */
  dropUser(userId: string): void {
    this.book.dropUser(userId);
  }

  /**
   * The user's postings as this connection sees the file, or undefined while the user has not
   * been searched often enough to be worth building. Outside transactions only.
   * `token` is the user's FTS column token.
   */
  postings(userId: string, token: string): UserPostings | undefined {
    return this.book.use(
      userId,
      () => this.build(token),
      (postings, dirty) => {
        for (const rowid of dirty) {
          const row = this.rowStmt.get(rowid) as { user_tok: string; terms: string } | undefined;
          postings.set(rowid, row && row.user_tok === token ? row.terms : null);
        }
        // Mostly dead slots (many rewrites): start over from the table.
        return postings.dead > 1_000 && postings.dead > postings.size ? this.build(token) : postings;
      },
    );
  }

  private build(token: string): UserPostings {
    const postings = new UserPostings();
    for (const [rowid, terms] of this.allStmt.iterate(`user_tok:${token}`) as Iterable<[number, string]>) postings.set(rowid, terms);
    return postings;
  }

  /** Reads again the rows this connection wrote for users held (an idle moment's work); `tokenOf` gives a user's FTS token. */
  refreshDirty(tokenOf: (userId: string) => string): void {
    for (const userId of this.book.dirtyHeld()) this.postings(userId, tokenOf(userId));
  }

  /** Bytes held per cached user (for benchmarks). */
  sizes(): Map<string, number> {
    return this.book.sizes();
  }
}
