import type Database from 'better-sqlite3';
import { evictOverBudget } from './evict-over-budget.js';
import { dataVersion, marks, padded } from './statements.js';

export interface MessageCacheOptions {
  /** Keep searched users' message rows in memory, so the message search's neighbour and id lookups read no SQL. @default true */
  enabled?: boolean;
  /** Memory for message rows across users; least recently used users are dropped. @default 64 MiB */
  maxBytes?: number;
  /** A user's rows are read on this many lookups since the last invalidation; before, SQL answers. @default 3 */
  buildAfter?: number;
}

/** One held row: its raw values (the caller's column list, rid first) and what the lookups key on. */
export interface HeldMessage {
  readonly rid: number;
  readonly id: string;
  readonly sessionId: string;
  readonly seq: number;
  readonly values: readonly unknown[];
}

/** Where the lookups find rid, id, user, session and seq in a row's values. */
export interface MessageColumns {
  /** `SELECT <select> FROM messages`: the columns held, rid first. */
  select: string;
  rid: number;
  id: number;
  userId: number;
  sessionId: number;
  seq: number;
}

/** Bytes a row costs beyond its strings (the values array, the entries of three maps), roughly. */
const ROW_OVERHEAD = 400;

/** One user's rows, by rowid, by id, and by session and seq. */
export class UserMessages {
  readonly byRid = new Map<number, HeldMessage>();
  readonly byId = new Map<string, number>();
  readonly bySession = new Map<string, Map<number, number>>();
  bytes = 0;

  set(row: HeldMessage): void {
    this.remove(row.rid);
    this.byRid.set(row.rid, row);
    this.byId.set(row.id, row.rid);
    let seqs = this.bySession.get(row.sessionId);
    if (!seqs) this.bySession.set(row.sessionId, (seqs = new Map()));
    seqs.set(row.seq, row.rid);
    this.bytes += bytesOf(row);
  }

  remove(rid: number): void {
    const row = this.byRid.get(rid);
    if (!row) return;
    this.byRid.delete(rid);
    if (this.byId.get(row.id) === rid) this.byId.delete(row.id);
    const seqs = this.bySession.get(row.sessionId);
    if (seqs?.get(row.seq) === rid) seqs.delete(row.seq);
    if (seqs?.size === 0) this.bySession.delete(row.sessionId);
    this.bytes -= bytesOf(row);
  }
}

function bytesOf(row: HeldMessage): number {
  let chars = 0;
  for (const v of row.values) if (typeof v === 'string') chars += v.length;
  return ROW_OVERHEAD + 2 * chars;
}

/**
 * Per-user message rows kept in this process and always in step with the file, by the rules of
 * the ranking cache (ranking-cache.ts) and the vector codes:
 * - another connection's commit changes `PRAGMA data_version`, and then every user is dropped;
 * - this connection's writes (append, purge, expiry) mark their rowids dirty; before a use the
 *   dirty rows are read again, so a rolled-back write is read back as it really is;
 * - never used inside a transaction (the caller reads SQL there);
 * - forgetting a user drops them.
 * The message search reads the neighbours of about a hundred matching turns (radius 2: a few
 * hundred rows, most of a short history) and the ids of its hits on every context build; each was
 * a SQL read of rows that only grow between builds. Building reads every row of the user once, so
 * it waits for `buildAfter` uses since the last invalidation; users are evicted least recently
 * used beyond `maxBytes`.
 */
export class MessageCache {
  private readonly users = new Map<string, UserMessages>();
  private readonly dirty = new Map<string, Set<number>>();
  private readonly uses = new Map<string, number>();
  private version: number | undefined;
  private readonly readVersion: () => number;
  private readonly allStmt: Database.Statement;
  private readonly rowStmts = new Map<number, Database.Statement>();
  private readonly enabled: boolean;
  private readonly maxBytes: number;
  private readonly buildAfter: number;

  constructor(
    private readonly db: Database.Database,
    private readonly columns: MessageColumns,
    options: MessageCacheOptions = {},
  ) {
    this.enabled = options.enabled ?? true;
    this.maxBytes = options.maxBytes ?? 64 * 2 ** 20;
    this.buildAfter = options.buildAfter ?? 3;
    this.readVersion = dataVersion(db);
    this.allStmt = db.prepare(`SELECT ${columns.select} FROM messages WHERE user_id = ?`).raw(true);
  }

  /** Called by every write to one of the user's message rows through this connection. */
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
    this.uses.delete(userId);
  }

  /**
   * The user's rows as this connection sees the file, or undefined while the user has not been
   * looked up often enough since the last invalidation to be worth reading. Outside transactions only.
   */
  user(userId: string): UserMessages | undefined {
    if (!this.enabled || this.db.inTransaction) return undefined;
    const version = this.readVersion();
    if (version !== this.version) {
      this.users.clear();
      this.dirty.clear();
      this.uses.clear();
      this.version = version;
    }
    let user = this.users.get(userId);
    if (user) {
      this.users.delete(userId);
      const set = this.dirty.get(userId);
      if (set) {
        this.reread(userId, user, [...set]);
        this.dirty.delete(userId);
      }
    } else {
      const seen = (this.uses.get(userId) ?? 0) + 1;
      this.uses.set(userId, seen);
      if (seen < this.buildAfter) return undefined;
      user = new UserMessages();
      for (const v of this.allStmt.iterate(userId) as Iterable<unknown[]>) user.set(this.held(v));
    }
    this.users.set(userId, user);
    evictOverBudget(this.users, this.maxBytes, (dropped) => this.dirty.delete(dropped));
    return user;
  }

  private held(v: unknown[]): HeldMessage {
    const c = this.columns;
    return { rid: v[c.rid] as number, id: v[c.id] as string, sessionId: v[c.sessionId] as string, seq: v[c.seq] as number, values: v };
  }

  /** The dirty rows read again, 64 to a statement; a row gone or now another user's is dropped. */
  private reread(userId: string, user: UserMessages, rowids: number[]): void {
    for (let i = 0; i < rowids.length; i += 64) {
      const chunk = padded(rowids.slice(i, i + 64), -1);
      let stmt = this.rowStmts.get(chunk.length);
      if (!stmt) this.rowStmts.set(chunk.length, (stmt = this.db.prepare(`SELECT ${this.columns.select} FROM messages WHERE rid IN (${marks(chunk.length)})`).raw(true)));
      const found = new Set<number>();
      for (const v of stmt.all(...chunk) as unknown[][]) {
        if (v[this.columns.userId] !== userId) continue;
        const row = this.held(v);
        found.add(row.rid);
        user.set(row);
      }
      for (const rid of rowids.slice(i, i + 64)) if (!found.has(rid)) user.remove(rid);
    }
  }

  /** Bytes held per cached user (for benchmarks and tests). */
  sizes(): Map<string, number> {
    return new Map([...this.users].map(([u, r]) => [u, r.bytes]));
  }
}
