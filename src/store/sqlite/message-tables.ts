import type Database from 'better-sqlite3';
import { Session, type Message } from '../../domain/conversation.js';
import { indexTerms } from '../../text/segment.js';
import type { MessageQuery, NewStoredMessage, RestoredMessage } from '../store.js';
import type { KeywordCacheOptions } from './keyword-cache.js';
import { KeywordIndex, type Bm25Params } from './keyword-index.js';
import { MessageCache, type HeldMessage, type MessageCacheOptions, type UserMessages } from './message-cache.js';
import type { Binding } from './bound-vectors.js';
import { limitClause, padded, Statements } from './statements.js';
import type { VectorIndex } from './vector-index.js';

interface MessageRow {
  rid: number;
  id: string;
  user_id: string;
  session_id: string;
  seq: number;
  role: string;
  content: string;
  caller_id: string | null;
  created_at: number;
  expires_at: number | null;
}

function rowToMessage(r: MessageRow): Message {
  return messageOf(r.id, r.user_id, r.session_id, r.seq, r.role, r.content, r.caller_id, r.created_at, r.expires_at);
}

/**
 * A message from its column values, with its keys in one order whatever is present. Built without
 * spreads: the message search makes hundreds per context build, and spreading optional parts
 * made two objects more per message.
 */
function messageOf(id: string, userId: string, sessionId: string, seq: number, role: string, content: string, callerId: string | null, createdAt: number, expiresAt: number | null): Message {
  const r = role as Message['role'];
  const m: Message =
    callerId === null
      ? { id, userId, sessionId, seq, role: r, content, createdAt: new Date(createdAt) }
      : { id, userId, sessionId, seq, role: r, content, callerId, createdAt: new Date(createdAt) };
  if (expiresAt !== null) m.expiresAt = new Date(expiresAt);
  return m;
}

/** The columns `rowToMessage` reads, in the order raw reads return them. */
const MESSAGE_COLUMNS = ['rid', 'id', 'user_id', 'session_id', 'seq', 'role', 'content', 'caller_id', 'created_at', 'expires_at'] as const;
const MESSAGE_SELECT = MESSAGE_COLUMNS.join(', ');
const column = (name: (typeof MESSAGE_COLUMNS)[number]): number => MESSAGE_COLUMNS.indexOf(name);
const HELD = { select: MESSAGE_SELECT, rid: column('rid'), id: column('id'), userId: column('user_id'), sessionId: column('session_id'), seq: column('seq') };

/** A message from a raw row of MESSAGE_COLUMNS: better-sqlite3 builds row objects key by key, which costs as much as the read. */
function messageFromValues(v: unknown[]): Message {
  return messageOf(v[1] as string, v[2] as string, v[3] as string, v[4] as number, v[5] as string, v[6] as string, v[7] as string | null, v[8] as number, v[9] as number | null);
}

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);
const optDate = (v: number | null): Date | undefined => (v === null ? undefined : new Date(v));

export function rowToSession(r: Record<string, unknown>): Session {
  return Session.parse({
    id: r.id,
    userId: r.user_id,
    agentId: opt(r.agent_id as string | null),
    createdAt: new Date(r.created_at as number),
    lastActiveAt: new Date(r.last_active_at as number),
    processedSeq: r.processed_seq,
    lastProcessedMessageId: opt(r.last_processed_message_id as string | null),
    processedAt: optDate(r.processed_at as number | null),
    endedAt: optDate(r.ended_at as number | null),
    failures: r.failures,
    lastError: opt(r.last_error as string | null),
    extractionState: r.extraction_state,
    nextAttemptAt: optDate(r.next_attempt_at as number | null),
    summarizedSeq: r.summarized_seq ?? -1,
    summaryRetryAt: optDate((r.summary_retry_at ?? null) as number | null),
    summaryFailures: r.summary_failures ?? 0,
  });
}

const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ') || 'NULL';

/** The raw conversation layer's tables: sessions, messages, and their keyword index. */
export class MessageTables {
  readonly keywords: KeywordIndex;

  /** Searched users' rows, in step with the file (see message-cache.ts). */
  readonly rows: MessageCache;

  /** Statements by SQL text: context builds run the same reads on every turn. */
  private readonly sql: Statements;

  constructor(
    private readonly db: Database.Database,
    keywordSearch?: KeywordCacheOptions,
    messageCache?: MessageCacheOptions,
  ) {
    this.keywords = new KeywordIndex(db, 'message_fts', keywordSearch);
    this.rows = new MessageCache(db, HELD, messageCache);
    this.sql = new Statements(db);
  }

  append(userId: string, sessionId: string, messages: readonly NewStoredMessage[], bound: Binding | null): Message[] {
    const db = this.db;
    const first = messages[0];
    if (!first) return [];
    db.prepare(
      `INSERT INTO sessions (id, user_id, created_at, last_active_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (user_id, id) DO NOTHING`,
    ).run(sessionId, userId, first.createdAt.getTime(), first.createdAt.getTime());
    const exists = db.prepare('SELECT 1 FROM messages WHERE user_id = ? AND id = ?');
    const nextSeq = db.prepare('UPDATE sessions SET next_seq = next_seq + 1, last_active_at = max(last_active_at, ?) WHERE user_id = ? AND id = ? RETURNING next_seq - 1 AS seq');
    const stored: Message[] = [];
    for (const m of messages) {
      if (exists.get(userId, m.id)) continue;
      const { seq } = nextSeq.get(m.createdAt.getTime(), userId, sessionId) as { seq: number };
      stored.push(this.insert(userId, sessionId, seq, m, bound));
    }
    return stored;
  }

  /** Puts messages back at their own places (`ForgottenPort.restoreMessages`): skipped where the id or the place is taken. */
  restore(userId: string, messages: readonly RestoredMessage[], bound: Binding | null): Message[] {
    const db = this.db;
    const session = db.prepare(
      `INSERT INTO sessions (id, user_id, created_at, last_active_at, next_seq) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (user_id, id) DO UPDATE SET next_seq = max(next_seq, excluded.next_seq), last_active_at = max(last_active_at, excluded.last_active_at)`,
    );
    const taken = db.prepare('SELECT 1 FROM messages WHERE user_id = ? AND (id = ? OR (session_id = ? AND seq = ?))');
    const stored: Message[] = [];
    for (const m of messages) {
      if (taken.get(userId, m.id, m.sessionId, m.seq)) continue;
      session.run(m.sessionId, userId, m.createdAt.getTime(), m.createdAt.getTime(), m.seq + 1);
      stored.push(this.insert(userId, m.sessionId, m.seq, m, bound));
    }
    return stored;
  }

  /** One message's row, keyword row and vector (the vector only when it is the bound embedder's). */
  private insert(userId: string, sessionId: string, seq: number, m: NewStoredMessage, bound: Binding | null): Message {
    // A message is never lost for want of a vector: one from another embedder than the bound one
    // (a writer fenced by a reindex) or none at all is stored unmarked, and reindex embeds it.
    const vector = m.vector && bound && m.embedderId === bound.id && m.vector.length === bound.dimensions ? m.vector : null;
    const info = this.sql
      .get(
        `INSERT INTO messages (id, user_id, session_id, seq, role, content, caller_id, created_at, expires_at, embedder_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(m.id, userId, sessionId, seq, m.role, m.content, m.callerId ?? null, m.createdAt.getTime(), m.expiresAt?.getTime() ?? null, vector ? bound!.id : null);
    const rid = Number(info.lastInsertRowid);
    this.rows.touched(userId, rid);
    this.keywords.upsert(rid, userId, indexTerms(m.content));
    if (vector) bound!.messages.upsert(rid, userId, 'active', vector);
    return { id: m.id, userId, sessionId, seq, role: m.role, content: m.content, createdAt: m.createdAt, ...(m.callerId ? { callerId: m.callerId } : {}), ...(m.expiresAt ? { expiresAt: m.expiresAt } : {}) };
  }

  session(userId: string, sessionId: string): Session | null {
    const row = this.sql.get('SELECT * FROM sessions WHERE user_id = ? AND id = ?').get(userId, sessionId) as Record<string, unknown> | undefined;
    return row ? rowToSession(row) : null;
  }

  list(q: MessageQuery): Message[] {
    // A session's turns (the working window): from the held rows when the user is held.
    const held = q.sessionId !== undefined && q.ids === undefined ? this.rows.user(q.userId) : undefined;
    if (held) return listHeld(held, q);
    const clauses = ['user_id = ?'];
    const args: unknown[] = [q.userId];
    if (q.sessionId !== undefined) (clauses.push('session_id = ?'), args.push(q.sessionId));
    if (q.ids) {
      // Padded with '' (no message has an empty id), so similar lengths share one statement.
      const ids = q.ids.length === 0 ? [] : padded(q.ids, '');
      clauses.push(`id IN (${placeholders(ids.length)})`);
      args.push(...ids);
    }
    if (q.afterSeq !== undefined) (clauses.push('seq > ?'), args.push(q.afterSeq));
    if (q.throughSeq !== undefined) (clauses.push('seq <= ?'), args.push(q.throughSeq));
    const dir = q.order === 'desc' ? 'DESC' : 'ASC';
    const rows = this.sql
      .get(`SELECT * FROM messages WHERE ${clauses.join(' AND ')} ORDER BY session_id, seq ${dir} ${limitClause(q.limit)}`)
      .all(...args) as MessageRow[];
    return rows.map(rowToMessage);
  }

  neighbours(userId: string, ids: readonly string[], radius: number): Message[] {
    return this.neighbourRows(userId, ids, radius).map((r) => r.message);
  }

  /** The neighbours with their rowids (for scoring their vectors without another lookup). */
  neighbourRows(userId: string, ids: readonly string[], radius: number): Array<{ rid: number; message: Message }> {
    if (ids.length === 0) return [];
    const held = this.rows.user(userId);
    if (held) return neighboursHeld(held, ids, radius);
    const keys = padded(ids, '');
    // The neighbours' rowids first, then each row once by rowid: a DISTINCT over whole rows sorted
    // their contents, and row objects cost as much as the reads (measured 3.5 → 1.1 ms for 120 seeds).
    const rows = this.sql
      .raw(
        `SELECT ${MESSAGE_SELECT} FROM messages WHERE rid IN (
           SELECT n.rid FROM messages m JOIN messages n
             ON n.user_id = m.user_id AND n.session_id = m.session_id AND n.seq BETWEEN m.seq - ? AND m.seq + ?
           WHERE m.user_id = ? AND m.id IN (${placeholders(keys.length)}))`,
      )
      .all(radius, radius, userId, ...keys) as unknown[][];
    return rows.map((v) => ({ rid: v[0] as number, message: messageFromValues(v) }));
  }

  /** rowid -> message id for the user's messages, optionally within one session. */
  idsOf(userId: string, rowids: readonly number[], sessionId?: string): Map<number, string> {
    if (rowids.length === 0) return new Map();
    const held = this.rows.user(userId);
    if (held) {
      const out = new Map<number, string>();
      for (const rid of rowids) {
        const r = held.byRid.get(rid);
        if (r && (sessionId === undefined || r.sessionId === sessionId)) out.set(rid, r.id);
      }
      return out;
    }
    const session = sessionId === undefined ? '' : ' AND session_id = ?';
    const rids = padded(rowids, -1);
    const rows = this.sql
      // "+user_id": look the rows up by rowid; the (user_id, …) index would walk all of the user's messages.
      .get(`SELECT rid, id FROM messages WHERE +user_id = ?${session} AND rid IN (${placeholders(rids.length)})`)
      .all(userId, ...(sessionId === undefined ? [] : [sessionId]), ...rids) as Array<{ rid: number; id: string }>;
    return new Map(rows.map((r) => [r.rid, r.id]));
  }

  rowidsOf(userId: string, ids: readonly string[]): Array<{ rid: number; id: string }> {
    if (ids.length === 0) return [];
    const keys = padded(ids, '');
    return this.sql.get(`SELECT rid, id FROM messages WHERE user_id = ? AND id IN (${placeholders(keys.length)})`).all(userId, ...keys) as Array<{ rid: number; id: string }>;
  }

  keyword(userId: string, terms: readonly string[], k: number, bm25: Bm25Params | undefined, sessionId?: string): Array<{ id: string; score: number; coverage: number }> {
    const hits = this.keywords.search(userId, terms, sessionId === undefined ? k : k * 4, bm25);
    const ids = this.idsOf(userId, hits.map((h) => h.rowid), sessionId);
    return hits.flatMap((h) => (ids.has(h.rowid) ? [{ id: ids.get(h.rowid)!, score: h.score, coverage: h.coverage }] : [])).slice(0, k);
  }

  /** Deletes expired messages that extraction has already seen; unprocessed ones wait for it. */
  deleteExpired(now: Date, vectors: VectorIndex | null): number {
    const rows = this.db
      .prepare(
        `SELECT m.rid, m.user_id FROM messages m JOIN sessions s ON s.user_id = m.user_id AND s.id = m.session_id
         WHERE m.expires_at IS NOT NULL AND m.expires_at <= ? AND m.seq <= s.processed_seq`,
      )
      .all(now.getTime()) as Array<{ rid: number; user_id: string }>;
    const remove = this.db.prepare('DELETE FROM messages WHERE rid = ?');
    for (const r of rows) {
      this.rows.touched(r.user_id, r.rid);
      this.keywords.remove(r.rid, r.user_id);
      vectors?.remove(r.rid);
      remove.run(r.rid);
    }
    return rows.length;
  }

  /** Erases the given messages of one user: rows, keyword rows and vectors. */
  purge(userId: string, ids: readonly string[], vectors: VectorIndex | null): number {
    const rows = this.rowidsOf(userId, ids);
    const remove = this.db.prepare('DELETE FROM messages WHERE rid = ?');
    for (const r of rows) {
      this.rows.touched(userId, r.rid);
      this.keywords.remove(r.rid, userId);
      vectors?.remove(r.rid);
      remove.run(r.rid);
    }
    return rows.length;
  }
}

/** `list` of one session from held rows: as the SQL orders (by seq within the session), filters and limits. */
function listHeld(held: UserMessages, q: MessageQuery): Message[] {
  const seqs = held.bySession.get(q.sessionId!);
  if (!seqs) return [];
  const chosen: number[] = [];
  for (const seq of seqs.keys()) if ((q.afterSeq === undefined || seq > q.afterSeq) && (q.throughSeq === undefined || seq <= q.throughSeq)) chosen.push(seq);
  chosen.sort(q.order === 'desc' ? (a, b) => b - a : (a, b) => a - b);
  // SQLite's LIMIT: a negative one is none.
  const limit = q.limit === undefined || q.limit < 0 ? chosen.length : q.limit;
  return chosen.slice(0, limit).map((seq) => messageFromValues(held.byRid.get(seqs.get(seq)!)!.values as unknown[]));
}

/** `neighbourRows` from held rows: each seed's turns within `radius` in its session, by rowid as the SQL returns them. */
function neighboursHeld(held: UserMessages, ids: readonly string[], radius: number): Array<{ rid: number; message: Message }> {
  const rids = new Set<number>();
  for (const id of ids) {
    const rid = held.byId.get(id);
    if (rid === undefined) continue;
    const seed = held.byRid.get(rid)!;
    const seqs = held.bySession.get(seed.sessionId)!;
    for (let seq = Math.ceil(seed.seq - radius); seq <= seed.seq + radius; seq++) {
      const n = seqs.get(seq);
      if (n !== undefined) rids.add(n);
    }
  }
  return [...rids].sort((a, b) => a - b).map((rid) => ({ rid, message: heldMessage(held.byRid.get(rid)!) }));
}

/**
 * A held row's message, built on first use and kept with the row (a re-read row is a new one): the
 * message search reads a few hundred neighbours per context build, mostly the same turns, and
 * building them afresh was a tenth of the excerpt search. Frozen, as every reader shares it.
 */
function heldMessage(row: HeldMessage): Message {
  return (row.message ??= Object.freeze(messageFromValues(row.values as unknown[])));
}
