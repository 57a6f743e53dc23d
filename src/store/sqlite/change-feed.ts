import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { dataVersion } from './statements.js';

/** What a per-connection cache does with another connection's committed change. */
export interface ChangeListener {
  /**
   * A row of the listener's table changed: the user's row `rowid`, every row of the user
   * (`rowid` null: the user was forgotten), or a row whose user the writer did not know (`userId` null).
   */
  changed(userId: string | null, rowid: number | null): void;
  /** Changes that cannot be known any more (the journal was pruned past them, or a whole table was rewritten): drop everything. */
  reset(): void;
}

/** Entries the journal keeps; a connection that fell further behind drops its caches. */
const KEEP = 20_000;
/** Every this many entries a connection writes, it prunes the journal to the last KEEP. */
const PRUNE_EVERY = 2_000;
const ALL = '*';
const ROWS_PER_INSERT = 64;

/** The journal (a migration step creates it; a connection to a bare file, as in tests, too). */
export const CACHE_CHANGES_DDL = `CREATE TABLE IF NOT EXISTS cache_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  origin TEXT NOT NULL,
  tbl TEXT NOT NULL,
  user_id TEXT,
  row INTEGER
)`;

/**
 * Keeps one connection's caches in step with the commits of every other connection on the file,
 * row by row. Every write a cache hears of through its own connection (its `touched` calls) is
 * also written to the `cache_changes` journal in the same transaction, with the writing
 * connection's origin; when `PRAGMA data_version` says another connection committed, the entries
 * since the last look are read and handed to the caches of their table, which read those rows
 * again. Before this, such a commit dropped every cached user, so two processes on one file (or
 * a reader thread beside the writer) rebuilt their caches after each other's every write: the
 * turn a chat records, an access count. A rolled-back write rolls its entry back too. A
 * connection that fell more than KEEP entries behind, or meets a table rewritten whole (`reset`,
 * a new embedder), drops everything, as before.
 */
export class ChangeFeed {
  private readonly origin = randomUUID();
  private readonly listeners = new Map<string, ChangeListener[]>();
  private readonly readVersion: () => number;
  private version: number;
  private seq: number;
  private written = 0;
  private readonly insertStmt: Database.Statement;
  /** Multi-row inserts by their row count. */
  private readonly insertMany = new Map<number, Database.Statement>();
  private readonly sinceStmt: Database.Statement;
  private readonly firstStmt: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.readVersion = dataVersion(db);
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'cache_changes'").get()) db.exec(CACHE_CHANGES_DDL);
    this.insertStmt = db.prepare('INSERT INTO cache_changes (origin, tbl, user_id, row) VALUES (?, ?, ?, ?)');
    this.sinceStmt = db.prepare('SELECT seq, origin, tbl, user_id, row FROM cache_changes WHERE seq > ? ORDER BY seq').raw(true);
    this.firstStmt = db.prepare('SELECT min(seq) FROM cache_changes').pluck();
    // Nothing is cached yet: what was committed before now needs no telling.
    this.version = this.readVersion();
    this.seq = this.lastSeq();
  }

  /** Registers a cache of `table` (a table name as the writers record it). */
  listen(table: string, listener: ChangeListener): void {
    let list = this.listeners.get(table);
    if (!list) this.listeners.set(table, (list = []));
    list.push(listener);
  }

  /** Records a write to `table` through this connection, for the other connections' caches (in the write's transaction, if any). */
  record(table: string, userId: string | null, rowid: number | null): void {
    this.insertStmt.run(this.origin, table, userId, rowid);
    this.counted(1);
  }

  /**
   * Records many writes to `table` at once (a flush of access counts): one statement per 64 rows,
   * where one per row doubled the flush's cost.
   */
  recordRows(table: string, rows: ReadonlyArray<readonly [userId: string, rowid: number]>): void {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const chunk = rows.slice(i, i + ROWS_PER_INSERT);
      let stmt = this.insertMany.get(chunk.length);
      if (!stmt) this.insertMany.set(chunk.length, (stmt = this.db.prepare(`INSERT INTO cache_changes (origin, tbl, user_id, row) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`)));
      stmt.run(...chunk.flatMap(([userId, rowid]) => [this.origin, table, userId, rowid]));
      this.counted(chunk.length);
    }
  }

  /** Prunes the journal each time this connection's entries pass another PRUNE_EVERY. */
  private counted(entries: number): void {
    const before = this.written;
    this.written += entries;
    if (Math.floor(before / PRUNE_EVERY) !== Math.floor(this.written / PRUNE_EVERY)) this.prune();
  }

  /** Records that every cache of every table must be dropped (a table rewritten whole). */
  recordReset(): void {
    this.record(ALL, null, null);
  }

  /**
   * Hands the caches what other connections committed since the last call: each cache calls this
   * before it is used. Costs one `data_version` read when nothing changed.
   */
  sync(): void {
    const version = this.readVersion();
    if (version === this.version) return;
    this.version = version;
    // Entries are numbered without gaps (a rolled-back one's number is used again): a first one
    // past the next this connection expects means the journal was pruned past it.
    const first = this.firstStmt.get() as number | null;
    if (first !== null && first > this.seq + 1) {
      this.seq = this.lastSeq();
      this.resetAll();
      return;
    }
    for (const [seq, origin, table, userId, rowid] of this.sinceStmt.iterate(this.seq) as Iterable<[number, string, string, string | null, number | null]>) {
      this.seq = seq;
      if (origin === this.origin) continue;
      if (table === ALL) this.resetAll();
      else for (const l of this.listeners.get(table) ?? []) l.changed(userId, rowid);
    }
  }

  private resetAll(): void {
    for (const list of this.listeners.values()) for (const l of list) l.reset();
  }

  private lastSeq(): number {
    return Number(this.db.prepare('SELECT coalesce(max(seq), 0) FROM cache_changes').pluck().get());
  }

  /** Keeps the last KEEP entries; a connection that had not read past them drops its caches. */
  private prune(): void {
    const floor = this.lastSeq() - KEEP;
    if (floor > 0) this.db.prepare('DELETE FROM cache_changes WHERE seq <= ?').run(floor);
  }
}

const feeds = new WeakMap<Database.Database, ChangeFeed>();

/** The connection's change feed, shared by all its caches. */
export function changeFeed(db: Database.Database): ChangeFeed {
  let feed = feeds.get(db);
  if (!feed) feeds.set(db, (feed = new ChangeFeed(db)));
  return feed;
}
