import { evictOverBudget } from '../sqlite/evict-over-budget.js';
import { UserPostings } from '../sqlite/keyword-postings.js';
import { toFloats } from '../sqlite/vector-cache.js';
import { REMOVED, UserCodes } from '../sqlite/vector-codes.js';
import type { EmbedderInfo } from '../store.js';
import type { PgContext } from './pg-db.js';

export type CachedTable = 'memories';

export interface PgSearchCacheOptions {
  /** Keep searched users' int8 codes and keyword postings in this process, checked against the database on every search. @default true */
  enabled?: boolean;
  /** Memory for the cached users of one table; least recently searched users are dropped. @default 384 MiB */
  maxBytes?: number;
  /** A user is cached on this many searches since the process last held them; before, SQL answers. @default 3 */
  buildAfter?: number;
  /** A user with at most this many rows keeps the float vectors too (no read for exact scores). @default 20000 */
  floatRowsPerUser?: number;
}

/** What a search reads before anything else, in one query: the binding and the user's change counter (pg-schema.ts, migration 2). */
export interface SearchState {
  embedder: EmbedderInfo | null;
  /** 0 when the user has no counter row (never written, or forgotten). */
  version: number;
  removed: number;
}

export async function readSearchState(ctx: PgContext, table: CachedTable, userId: string): Promise<SearchState> {
  const [row] = await ctx.rows<{ embedder_id: string | null; dimensions: string | null; version: number | null; removed: number | null }>(
    `SELECT m1.value AS embedder_id, m2.value AS dimensions, v.version, v.removed
     FROM (VALUES (1)) AS one(x)
     LEFT JOIN engram_meta m1 ON m1.key = 'embedder_id'
     LEFT JOIN engram_meta m2 ON m2.key = 'embedder_dimensions'
     LEFT JOIN search_versions v ON v.tbl = $1 AND v.user_id = $2`,
    [table, userId],
  );
  const dimensions = Number(row?.dimensions);
  const embedder = row?.embedder_id == null || !Number.isInteger(dimensions) || dimensions <= 0 ? null : { id: row.embedder_id, dimensions };
  return { embedder, version: row?.version ?? 0, removed: row?.removed ?? 0 };
}

const bindingKey = (b: EmbedderInfo | null): string => (b === null ? '' : `${b.id}\u0000${b.dimensions}`);

interface SearchRow {
  rid: number;
  id: string;
  status: string;
  embedder_id: string | null;
  vec: Buffer | null;
  terms: string;
  term_count: number;
}

/** Rough bytes per row outside the codes and postings: the id and status maps. */
const ROW_BYTES = 120;

/** One user's rows as searches read them: int8 codes (and floats when small), keyword postings, and the id and status of each row. */
export class CachedUser {
  readonly ids = new Map<number, string>();
  readonly status = new Map<number, string>();
  private readonly termCounts = new Map<number, number>();
  readonly codes: UserCodes;
  readonly postings = new UserPostings();
  docCount = 0;
  termTotal = 0;
  /** Rows removed since the build: their code slots stay as tombstones. */
  removedSlots = 0;

  constructor(
    readonly binding: EmbedderInfo | null,
    readonly bindingKey: string,
    public version: number,
    rows: number,
    floatRowsPerUser: number,
  ) {
    this.codes = new UserCodes(binding?.dimensions ?? 16, rows + 16, true, floatRowsPerUser);
  }

  get bytes(): number {
    return this.codes.bytes + this.postings.bytes + this.ids.size * ROW_BYTES;
  }

  /** The row as the database now holds it. */
  set(row: SearchRow): void {
    this.ids.set(row.rid, row.id);
    this.status.set(row.rid, row.status);
    this.setTerms(row.rid, row.terms, row.term_count);
    const b = this.binding;
    if (row.vec !== null && b !== null && row.embedder_id === b.id && row.vec.byteLength === 4 * b.dimensions) this.codes.set(row.rid, row.status, toFloats(row.vec));
    else this.removeCode(row.rid);
  }

  /** The row is gone. */
  drop(rid: number): void {
    this.ids.delete(rid);
    this.status.delete(rid);
    this.setTerms(rid, '', 0);
    this.removeCode(rid);
  }

  private removeCode(rid: number): void {
    const slot = this.codes.slotOf.get(rid);
    if (slot === undefined || this.codes.status[slot] === REMOVED) return;
    this.codes.remove(rid);
    this.removedSlots++;
  }

  /** Document count and total length over rows with terms, as the SQL path counts them (term_count > 0). */
  private setTerms(rid: number, terms: string, termCount: number): void {
    const old = this.termCounts.get(rid);
    if (old !== undefined) (this.docCount--, (this.termTotal -= old), this.termCounts.delete(rid));
    if (termCount > 0) (this.docCount++, (this.termTotal += termCount), this.termCounts.set(rid, termCount));
    this.postings.set(rid, termCount > 0 ? terms : null);
  }
}

const COLUMNS = 'rid, id, status, embedder_id, vec, terms, term_count';
const BUILD_CHUNK = 5000;

/**
 * Per-user search data of one table held in this process and checked against PostgreSQL on every
 * search, so it is never stale across processes: each search reads the user's change counter
 * (search_versions, raised in the same transaction as every write a search could see); when it
 * moved, only the rows stamped after the held version are read again (`chg > version`), and the
 * live row ids when a deletion happened. Never used inside a transaction (its own uncommitted or
 * rolled-back writes would enter the cache). A user is built on `buildAfter` searches; until then,
 * and past the memory budget, the SQL search answers.
 */
export class PgSearchCache {
  private readonly users = new Map<string, CachedUser>();
  private readonly searches = new Map<string, number>();
  private readonly inflight = new Map<string, Promise<CachedUser>>();
  private readonly options: Required<Omit<PgSearchCacheOptions, 'enabled'>>;

  constructor(
    readonly table: CachedTable,
    options: PgSearchCacheOptions = {},
  ) {
    this.options = { maxBytes: 384 * 2 ** 20, buildAfter: 3, floatRowsPerUser: 20_000, ...options };
  }

  /**
   * The user's cached rows, current as of a moment after `state` was read; undefined while the
   * user has not been searched often enough to be worth building. `ctx` must not be in a transaction.
   */
  async user(ctx: PgContext, userId: string, state: SearchState): Promise<CachedUser | undefined> {
    for (;;) {
      const pending = this.inflight.get(userId);
      if (pending) {
        // Another search is refreshing this user; its result may predate `state`, so look again.
        await pending.catch((error: unknown) => error);
        continue;
      }
      const held = this.users.get(userId);
      if (held && held.version === state.version && held.bindingKey === bindingKey(state.embedder)) {
        this.users.delete(userId);
        this.users.set(userId, held);
        return held;
      }
      if (!held && !this.due(userId)) return undefined;
      const refresh = this.refresh(ctx, userId, held);
      this.inflight.set(userId, refresh);
      try {
        return await refresh;
      } finally {
        this.inflight.delete(userId);
      }
    }
  }

  private due(userId: string): boolean {
    // Counts only users not held; bounded so a stream of one-off users cannot grow it without end.
    if (this.searches.size > 100_000) this.searches.clear();
    const seen = (this.searches.get(userId) ?? 0) + 1;
    this.searches.set(userId, seen);
    return seen >= this.options.buildAfter;
  }

  /**
   * Every row of the user, read through a cursor a chunk at a time: 100,000 rows of 512 dimensions
   * are 200 MB of vectors (twice that as bytea text), too much to hold as one result.
   */
  private async build(ctx: PgContext, userId: string, state: SearchState, key: string): Promise<CachedUser> {
    const [{ n } = { n: 0 }] = await ctx.rows<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.table} WHERE user_id = $1`, [userId]);
    const user = new CachedUser(state.embedder, key, state.version, n, this.options.floatRowsPerUser);
    await ctx.atomic(async (tx) => {
      await tx.run(`DECLARE engram_build NO SCROLL CURSOR FOR SELECT ${COLUMNS} FROM ${this.table} WHERE user_id = $1`, [userId]);
      for (;;) {
        const rows = await tx.rows<SearchRow>(`FETCH ${BUILD_CHUNK} FROM engram_build`);
        for (const r of rows) user.set(r);
        if (rows.length < BUILD_CHUNK) break;
      }
    });
    return user;
  }

  /** Brings the user up to date from a state read now (so it covers every commit before the caller's search began). */
  private async refresh(ctx: PgContext, userId: string, held: CachedUser | undefined): Promise<CachedUser> {
    const state = await readSearchState(ctx, this.table, userId);
    const key = bindingKey(state.embedder);
    let user = held;
    const rebuild = !user || user.bindingKey !== key || state.version < user.version || user.removedSlots > Math.max(1000, user.ids.size);
    if (rebuild) {
      user = await this.build(ctx, userId, state, key);
    } else if (user && state.version !== user.version) {
      const rows = await ctx.rows<SearchRow>(`SELECT ${COLUMNS} FROM ${this.table} WHERE user_id = $1 AND chg > $2`, [userId, user.version]);
      for (const r of rows) user.set(r);
      if (state.removed > user.version) {
        const live = new Set((await ctx.rows<{ rid: number }>(`SELECT rid FROM ${this.table} WHERE user_id = $1`, [userId])).map((r) => r.rid));
        for (const rid of [...user.ids.keys()]) if (!live.has(rid)) user.drop(rid);
      }
      user.version = state.version;
    }
    this.searches.delete(userId);
    this.users.delete(userId);
    this.users.set(userId, user!);
    evictOverBudget(this.users, this.options.maxBytes, (evicted) => this.searches.delete(evicted), MAX_USERS);
    return user!;
  }
}

/**
 * Users held at once: a user of 256 rows or more holds a WebAssembly memory of its own, and V8
 * refuses new ones past about 13,000 in a process (sqlite/vector-cache.ts keeps 3,000 a table too).
 */
const MAX_USERS = 3000;
