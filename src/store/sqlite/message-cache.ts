import type Database from 'better-sqlite3';
import type { Message } from '../../domain/conversation.js';
import { UserRowCache, type UserRowCacheOptions } from './user-row-cache.js';

/** Keep searched users' message rows in memory, so the message search's neighbour and id lookups read no SQL; `maxBytes` defaults to 64 MiB. */
export type MessageCacheOptions = UserRowCacheOptions;

/** One held row: its raw values (the caller's column list, rid first) and what the lookups key on. */
export interface HeldMessage {
  readonly rid: number;
  readonly id: string;
  readonly sessionId: string;
  readonly seq: number;
  readonly values: readonly unknown[];
  /** The row as a message, once a reader has asked for it (message-tables.ts `heldMessage`). */
  message?: Message;
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
 * Per-user message rows kept in this process and always in step with the file by `UserRowCache`'s
 * rules (another connection's commit drops every user; this connection's writes, append, purge and
 * expiry, re-read their rows; never used inside a transaction; forgetting a user drops them).
 * The message search reads the neighbours of about a hundred matching turns (radius 2: a few
 * hundred rows, most of a short history) and the ids of its hits on every context build; each was
 * a SQL read of rows that only grow between builds.
 */
export class MessageCache extends UserRowCache<HeldMessage, UserMessages> {
  constructor(db: Database.Database, columns: MessageColumns, options: MessageCacheOptions = {}) {
    const held = (v: unknown[]): HeldMessage => ({ rid: v[columns.rid] as number, id: v[columns.id] as string, sessionId: v[columns.sessionId] as string, seq: v[columns.seq] as number, values: v });
    super(db, { table: 'messages', select: columns.select, toRow: held, ridOf: (r) => r.rid, userOf: (v) => v[columns.userId], newUser: () => new UserMessages() }, options, 64 * 2 ** 20);
  }
}
