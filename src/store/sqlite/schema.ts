import type Database from 'better-sqlite3';
import { EngramError } from '../../errors.js';
import { CACHE_CHANGES_DDL } from './change-feed.js';
import { retermKeywords } from './reterm-keywords.js';

/**
 * Versioned migrations, tracked in PRAGMA user_version. Append only: never edit a shipped step.
 * Vector tables are not here: their dimension comes from the embedder (see vector-index.ts).
 */
function retermStep(db: Database.Database): void {
  retermKeywords(db);
}

const MIGRATIONS: ReadonlyArray<(db: Database.Database) => void> = [
  (db) => {
    db.exec(`
      CREATE TABLE engram_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      CREATE TABLE memories (
        rid INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        user_id TEXT NOT NULL,
        agent_id TEXT,
        session_id TEXT,
        kind TEXT NOT NULL,
        content TEXT NOT NULL,
        structured_data TEXT,
        importance REAL NOT NULL,
        confidence REAL NOT NULL,
        source TEXT NOT NULL,
        verified INTEGER NOT NULL,
        core INTEGER NOT NULL,
        status TEXT NOT NULL,
        provenance TEXT NOT NULL,
        language TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        last_accessed_at INTEGER,
        access_count INTEGER NOT NULL DEFAULT 0,
        expires_at INTEGER,
        happened_at INTEGER,
        embedder_id TEXT
      );
      CREATE INDEX memories_user_created ON memories (user_id, created_at);
      CREATE INDEX memories_user_kind ON memories (user_id, kind, status);

      CREATE TABLE memory_history (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        memory_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        action TEXT NOT NULL,
        changed TEXT NOT NULL,
        before TEXT,
        after TEXT,
        actor TEXT NOT NULL,
        reason TEXT,
        produced_by TEXT,
        message_ids TEXT NOT NULL,
        at INTEGER NOT NULL
      );
      CREATE INDEX memory_history_memory ON memory_history (user_id, memory_id, seq);

      -- Keyword index over pre-segmented terms. user_tok partitions it by user inside FTS itself.
      CREATE VIRTUAL TABLE memory_fts USING fts5 (user_tok, terms, tokenize = 'unicode61 remove_diacritics 2');
      INSERT INTO memory_fts (memory_fts, rank) VALUES ('secure-delete', 1);

      -- Per-user corpus statistics for BM25 (document count and total length).
      CREATE TABLE keyword_stats (
        index_name TEXT NOT NULL,
        user_id TEXT NOT NULL,
        doc_count INTEGER NOT NULL,
        term_total INTEGER NOT NULL,
        PRIMARY KEY (index_name, user_id)
      );
    `);
  },
  (db) => {
    db.exec(`
      CREATE TABLE sessions (
        id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT,
        created_at INTEGER NOT NULL,
        last_active_at INTEGER NOT NULL,
        next_seq INTEGER NOT NULL DEFAULT 0,
        processed_seq INTEGER NOT NULL DEFAULT -1,
        last_processed_message_id TEXT,
        processed_at INTEGER,
        ended_at INTEGER,
        failures INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        extraction_state TEXT NOT NULL DEFAULT 'ok',
        next_attempt_at INTEGER,
        lease_owner TEXT,
        lease_until INTEGER,
        PRIMARY KEY (user_id, id)
      );
      CREATE INDEX sessions_active ON sessions (last_active_at);

      CREATE TABLE messages (
        rid INTEGER PRIMARY KEY,
        id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL,
        content TEXT NOT NULL,
        caller_id TEXT,
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        embedder_id TEXT,
        UNIQUE (user_id, id),
        UNIQUE (user_id, session_id, seq)
      );
      CREATE INDEX messages_expiry ON messages (expires_at);

      CREATE VIRTUAL TABLE message_fts USING fts5 (user_tok, terms, tokenize = 'unicode61 remove_diacritics 2');
      INSERT INTO message_fts (message_fts, rank) VALUES ('secure-delete', 1);
    `);
  },
  (db) => {
    db.exec(`
      CREATE TABLE todos (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        memory_id TEXT,
        content TEXT NOT NULL,
        due_at INTEGER,
        remind_at INTEGER,
        completed INTEGER NOT NULL DEFAULT 0,
        completed_at INTEGER,
        reminded INTEGER NOT NULL DEFAULT 0,
        source_session_id TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX todos_user_due ON todos (user_id, due_at);

      -- Settings: user_id '*' holds the global defaults.
      CREATE TABLE settings (user_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (user_id, key));

      -- One row per extraction attempt: what was decided, rejected, and why.
      CREATE TABLE extraction_runs (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        from_seq INTEGER NOT NULL,
        through_seq INTEGER NOT NULL,
        extractor TEXT NOT NULL,
        outcome TEXT NOT NULL,
        counts TEXT NOT NULL,
        rejected TEXT NOT NULL,
        reason TEXT,
        error TEXT,
        at INTEGER NOT NULL
      );
      CREATE INDEX extraction_runs_session ON extraction_runs (user_id, session_id, at);
    `);
  },
  (db) => {
    db.exec(`
      -- Time through which decay has been applied (see lifecycle/decay.ts): makes decay idempotent.
      ALTER TABLE memories ADD COLUMN decayed_at INTEGER;

      CREATE TABLE memory_relations (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        source_id TEXT NOT NULL,
        target_id TEXT NOT NULL,
        type TEXT NOT NULL,
        strength REAL NOT NULL,
        reason TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX memory_relations_source ON memory_relations (user_id, source_id);
      CREATE INDEX memory_relations_target ON memory_relations (user_id, target_id);

      -- The core profile (seed 003 Layer 3): every version kept.
      CREATE TABLE profiles (
        user_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        narrative TEXT NOT NULL,
        basic_info TEXT NOT NULL,
        changes TEXT,
        produced_by TEXT,
        episode_count INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, version)
      );

      -- Episodes: seq through which a session has been summarised, and a retry mark for fallbacks.
      ALTER TABLE sessions ADD COLUMN summarized_seq INTEGER NOT NULL DEFAULT -1;
      ALTER TABLE sessions ADD COLUMN summary_retry_at INTEGER;
      ALTER TABLE sessions ADD COLUMN summary_failures INTEGER NOT NULL DEFAULT 0;

      -- Reminders: delivery attempts, and one row per delivered reminder (its id is the idempotency key).
      ALTER TABLE todos ADD COLUMN delivery_attempts INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE todos ADD COLUMN next_delivery_at INTEGER;
      ALTER TABLE todos ADD COLUMN last_delivery_error TEXT;
      CREATE TABLE reminder_deliveries (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        todo_id TEXT NOT NULL,
        delivered_at INTEGER NOT NULL
      );
    `);
  },
  (db) => {
    db.exec(`
      -- When MemoryReviewer last looked at a memory (a promotion review is not repeated until it changes).
      ALTER TABLE memories ADD COLUMN reviewed_at INTEGER;
    `);
  },
  (db) => {
    db.exec(`
      -- Forgetting fences in-flight work: raised by every forget and purge (store/sqlite/forget-fence.ts).
      CREATE TABLE IF NOT EXISTS forget_fences (user_key TEXT PRIMARY KEY, generation INTEGER NOT NULL);
      -- Warnings on a memory as a JSON array (domain/memory.ts MEMORY_FLAGS), NULL when none.
      ALTER TABLE memories ADD COLUMN flags TEXT;
    `);
  },
  (db) => {
    db.exec(`
      -- Fencing token of the extraction lease: bumped on every acquisition, checked at commit.
      ALTER TABLE sessions ADD COLUMN lease_token INTEGER NOT NULL DEFAULT 0;
    `);
  },
  (db) => {
    db.exec(`
      -- API keys of the HTTP service (src/server/keys/): only a SHA-256 of the key is stored.
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        bound_user_id TEXT,
        name TEXT,
        hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      );
      CREATE INDEX api_keys_tenant ON api_keys (tenant_id);
    `);
  },
  (db) => {
    db.exec(`
      -- The episode summary's own lease (owner, expiry, fencing token): one summariser per session across processes.
      ALTER TABLE sessions ADD COLUMN summary_lease_owner TEXT;
      ALTER TABLE sessions ADD COLUMN summary_lease_until INTEGER;
      ALTER TABLE sessions ADD COLUMN summary_lease_token INTEGER NOT NULL DEFAULT 0;
    `);
  },
  (db) => {
    db.exec(`
      -- Job leases (store/sqlite/job-leases.ts): one process runs a scheduled job (the daily lifecycle pass, a user's profile update).
      CREATE TABLE job_leases (job TEXT PRIMARY KEY, owner TEXT NOT NULL, until INTEGER NOT NULL);
    `);
  },
  // English irregular verbs index as their base form ("went", "gone" as "go"): terms made again.
  retermStep,
  (db) => {
    // Writes to cached tables, for the other connections' caches (store/sqlite/change-feed.ts).
    db.exec(CACHE_CHANGES_DDL);
  },
  (db) => {
    // How a todo repeats (domain/recurrence.ts), as JSON; NULL for a one-off.
    const columns = db.prepare("SELECT name FROM pragma_table_info('todos')").pluck().all();
    if (!columns.includes('repeat')) db.exec('ALTER TABLE todos ADD COLUMN repeat TEXT');
  },
  (db) => {
    db.exec(`
      -- What a request in conversation forgot, kept to be undone for a while (domain/forgotten.ts): one JSON document a request.
      CREATE TABLE IF NOT EXISTS forgotten_requests (
        user_id TEXT NOT NULL,
        id TEXT NOT NULL,
        at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (user_id, id)
      );
      CREATE INDEX IF NOT EXISTS forgotten_requests_expiry ON forgotten_requests (expires_at);
    `);
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The schema version just before the keyword terms were made again (for its test). */
export const RETERM_STEP = MIGRATIONS.indexOf(retermStep);

/**
 * Brings the schema up to date. Several processes may open a fresh file at once: the steps run
 * in one EXCLUSIVE transaction that re-reads user_version after taking the lock, so exactly one
 * process migrates and the others find the work done (the busy timeout makes them wait).
 */
export function migrate(db: Database.Database): void {
  const version = (): number => db.pragma('user_version', { simple: true }) as number;
  const tooNew = (v: number) => new EngramError('MIGRATION_FAILED', `Database schema version ${v} is newer than this Engram (${MIGRATIONS.length}); upgrade Engram.`);
  const seen = version();
  if (seen > MIGRATIONS.length) throw tooNew(seen);
  if (seen === MIGRATIONS.length) return;
  db.exec('BEGIN EXCLUSIVE');
  let v = version();
  try {
    if (v > MIGRATIONS.length) throw tooNew(v);
    for (; v < MIGRATIONS.length; v++) MIGRATIONS[v]!(db);
    // Steps may rewrite cached tables whole: every other connection's caches start again.
    db.prepare("INSERT INTO cache_changes (origin, tbl) VALUES ('migration', '*')").run();
    db.pragma(`user_version = ${MIGRATIONS.length}`);
    db.exec('COMMIT');
  } catch (cause) {
    if (db.inTransaction) db.exec('ROLLBACK');
    if (EngramError.isInstance(cause)) throw cause;
    throw new EngramError('MIGRATION_FAILED', `Migration ${v + 1} failed`, { cause });
  }
}
