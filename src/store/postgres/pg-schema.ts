import type pg from 'pg';
import { EngramError } from '../../errors.js';
import { retermKeywordsPg } from './pg-reterm-keywords.js';

/**
 * Versioned migrations, recorded one row each in `engram_migrations`. Append only: never edit a
 * shipped step. Columns mirror the SQLite schema (times are epoch milliseconds in BIGINT, flags
 * 0/1 in INTEGER) so rows map through the same functions (sqlite/memory-rows.ts). Derived data
 * lives on the row itself: `terms`/`term_count`/`kw` (keyword index) and `vec`/`vec_code`
 * (float32 vector and its sign code), so deleting a row erases everything derived from it.
 */
const MIGRATIONS: ReadonlyArray<string | ((client: pg.ClientBase) => Promise<void>)> = [
  `
  CREATE TABLE engram_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE memories (
    rid BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    agent_id TEXT,
    session_id TEXT,
    kind TEXT NOT NULL,
    content TEXT NOT NULL,
    structured_data TEXT,
    importance DOUBLE PRECISION NOT NULL,
    confidence DOUBLE PRECISION NOT NULL,
    source TEXT NOT NULL,
    verified INTEGER NOT NULL,
    core INTEGER NOT NULL,
    status TEXT NOT NULL,
    provenance TEXT NOT NULL,
    language TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    last_accessed_at BIGINT,
    access_count INTEGER NOT NULL DEFAULT 0,
    expires_at BIGINT,
    happened_at BIGINT,
    embedder_id TEXT,
    decayed_at BIGINT,
    reviewed_at BIGINT,
    flags TEXT,
    terms TEXT NOT NULL DEFAULT '',
    term_count INTEGER NOT NULL DEFAULT 0,
    kw TSVECTOR NOT NULL DEFAULT ''::tsvector,
    vec BYTEA,
    vec_code VARBIT
  );
  CREATE INDEX memories_user_created ON memories (user_id, created_at);
  CREATE INDEX memories_user_kind ON memories (user_id, kind, status);
  CREATE INDEX memories_kw ON memories USING GIN (kw);

  CREATE TABLE memory_history (
    seq BIGSERIAL PRIMARY KEY,
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
    at BIGINT NOT NULL
  );
  CREATE INDEX memory_history_memory ON memory_history (user_id, memory_id, seq);

  CREATE TABLE sessions (
    id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    agent_id TEXT,
    created_at BIGINT NOT NULL,
    last_active_at BIGINT NOT NULL,
    next_seq INTEGER NOT NULL DEFAULT 0,
    processed_seq INTEGER NOT NULL DEFAULT -1,
    last_processed_message_id TEXT,
    processed_at BIGINT,
    ended_at BIGINT,
    failures INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    extraction_state TEXT NOT NULL DEFAULT 'ok',
    next_attempt_at BIGINT,
    lease_owner TEXT,
    lease_until BIGINT,
    lease_token INTEGER NOT NULL DEFAULT 0,
    summarized_seq INTEGER NOT NULL DEFAULT -1,
    summary_retry_at BIGINT,
    summary_failures INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, id)
  );
  CREATE INDEX sessions_active ON sessions (last_active_at);

  CREATE TABLE messages (
    rid BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    role TEXT NOT NULL,
    content TEXT NOT NULL,
    caller_id TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT,
    embedder_id TEXT,
    terms TEXT NOT NULL DEFAULT '',
    term_count INTEGER NOT NULL DEFAULT 0,
    kw TSVECTOR NOT NULL DEFAULT ''::tsvector,
    vec BYTEA,
    vec_code VARBIT,
    UNIQUE (user_id, id),
    UNIQUE (user_id, session_id, seq)
  );
  CREATE INDEX messages_expiry ON messages (expires_at);
  CREATE INDEX messages_kw ON messages USING GIN (kw);

  CREATE TABLE todos (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    memory_id TEXT,
    content TEXT NOT NULL,
    due_at BIGINT,
    remind_at BIGINT,
    completed INTEGER NOT NULL DEFAULT 0,
    completed_at BIGINT,
    reminded INTEGER NOT NULL DEFAULT 0,
    source_session_id TEXT,
    created_at BIGINT NOT NULL,
    delivery_attempts INTEGER NOT NULL DEFAULT 0,
    next_delivery_at BIGINT,
    last_delivery_error TEXT
  );
  CREATE INDEX todos_user_due ON todos (user_id, due_at);
  CREATE INDEX todos_reminders ON todos (remind_at) WHERE reminded = 0 AND completed = 0;

  CREATE TABLE reminder_deliveries (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    todo_id TEXT NOT NULL,
    delivered_at BIGINT NOT NULL
  );

  CREATE TABLE settings (user_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (user_id, key));

  CREATE TABLE extraction_runs (
    rid BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
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
    at BIGINT NOT NULL
  );
  CREATE INDEX extraction_runs_session ON extraction_runs (user_id, session_id, at);

  CREATE TABLE memory_relations (
    rid BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    source_id TEXT NOT NULL,
    target_id TEXT NOT NULL,
    type TEXT NOT NULL,
    strength DOUBLE PRECISION NOT NULL,
    reason TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX memory_relations_source ON memory_relations (user_id, source_id);
  CREATE INDEX memory_relations_target ON memory_relations (user_id, target_id);

  CREATE TABLE profiles (
    user_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    narrative TEXT NOT NULL,
    basic_info TEXT NOT NULL,
    changes TEXT,
    produced_by TEXT,
    episode_count INTEGER NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, version)
  );

  CREATE TABLE forget_fences (user_key TEXT PRIMARY KEY, generation INTEGER NOT NULL);

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    bound_user_id TEXT,
    name TEXT,
    hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
  );
  CREATE INDEX api_keys_tenant ON api_keys (tenant_id);
  `,
  // 2: change tracking for the per-process search cache (pg-search-cache.ts). Every write that
  // changes what a search reads (a row inserted, deleted, or its user, status, terms, embedder or
  // vector changed) raises the user's `version` in search_versions from one sequence, in the same
  // transaction, and stamps the row's `chg` with it; a deletion also sets `removed`. The counter
  // row is locked from a transaction's first such write until it ends, so a user's versions rise
  // in commit order: a reader holding version v finds every later change as the rows with chg > v.
  // A transaction raises it once per user (remembered in a transaction-local setting, undone with
  // a rolled-back savepoint), so a batch of inserts does not rewrite the counter row per row.
  `
  CREATE SEQUENCE search_change_seq;
  CREATE TABLE search_versions (
    tbl TEXT NOT NULL,
    user_id TEXT NOT NULL,
    version BIGINT NOT NULL,
    removed BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tbl, user_id)
  );
  ALTER TABLE memories ADD COLUMN chg BIGINT NOT NULL DEFAULT 0;
  CREATE INDEX memories_user_chg ON memories (user_id, chg) INCLUDE (rid);
  INSERT INTO search_versions (tbl, user_id, version) SELECT 'memories', user_id, nextval('search_change_seq') FROM memories GROUP BY user_id;

  CREATE FUNCTION engram_search_bump(t TEXT, u TEXT) RETURNS BIGINT LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  DECLARE
    key TEXT := current_schema() || '.' || t || '.' || u;
    v BIGINT;
  BEGIN
    IF current_setting('engram.search_key', true) = key THEN
      RETURN current_setting('engram.search_version')::bigint;
    END IF;
    -- nextval in DO UPDATE runs after the row lock is taken: the value is above every committed one.
    INSERT INTO search_versions (tbl, user_id, version) VALUES (t, u, nextval('search_change_seq'))
      ON CONFLICT (tbl, user_id) DO UPDATE SET version = nextval('search_change_seq')
      RETURNING version INTO v;
    PERFORM set_config('engram.search_key', key, true), set_config('engram.search_version', v::text, true);
    RETURN v;
  END $fn$;

  CREATE FUNCTION engram_search_stamp() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    IF TG_OP = 'UPDATE' THEN
      IF NEW.user_id = OLD.user_id AND NEW.status = OLD.status AND NEW.terms = OLD.terms
         AND NEW.embedder_id IS NOT DISTINCT FROM OLD.embedder_id AND NEW.vec IS NOT DISTINCT FROM OLD.vec THEN
        RETURN NEW;
      END IF;
      IF NEW.user_id <> OLD.user_id THEN
        UPDATE search_versions SET version = nextval('search_change_seq') WHERE tbl = TG_TABLE_NAME AND user_id = OLD.user_id;
        UPDATE search_versions SET removed = version WHERE tbl = TG_TABLE_NAME AND user_id = OLD.user_id;
      END IF;
    END IF;
    NEW.chg := engram_search_bump(TG_TABLE_NAME, NEW.user_id);
    RETURN NEW;
  END $fn$;

  CREATE FUNCTION engram_search_removed() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    UPDATE search_versions SET version = nextval('search_change_seq') WHERE tbl = TG_TABLE_NAME AND user_id IN (SELECT DISTINCT user_id FROM gone);
    UPDATE search_versions SET removed = version WHERE tbl = TG_TABLE_NAME AND user_id IN (SELECT DISTINCT user_id FROM gone);
    RETURN NULL;
  END $fn$;

  CREATE TRIGGER memories_search_stamp BEFORE INSERT OR UPDATE OF user_id, status, terms, embedder_id, vec ON memories
    FOR EACH ROW EXECUTE FUNCTION engram_search_stamp();
  CREATE TRIGGER memories_search_removed AFTER DELETE ON memories
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION engram_search_removed();
  `,
  // 3: the episode summary's own lease (owner, expiry, fencing token): one summariser per session across processes.
  `
  ALTER TABLE sessions ADD COLUMN summary_lease_owner TEXT;
  ALTER TABLE sessions ADD COLUMN summary_lease_until BIGINT;
  ALTER TABLE sessions ADD COLUMN summary_lease_token INTEGER NOT NULL DEFAULT 0;
  `,
  // 4: job leases (pg-job-leases.ts): one process runs a scheduled job (the daily lifecycle pass, a user's profile update).
  `
  CREATE TABLE job_leases (job TEXT PRIMARY KEY, owner TEXT NOT NULL, until BIGINT NOT NULL);
  `,
  // 5: English irregular verbs index as their base form ("went", "gone" as "go"): terms made again.
  retermKeywordsPg,
  // 6: how a todo repeats (domain/recurrence.ts), as JSON; NULL for a one-off.
  `
  ALTER TABLE todos ADD COLUMN IF NOT EXISTS repeat TEXT;
  `,
  // 7: what a request in conversation forgot, kept to be undone for a while (domain/forgotten.ts): one JSON document a request.
  `
  CREATE TABLE IF NOT EXISTS forgotten_requests (
    user_id TEXT NOT NULL,
    id TEXT NOT NULL,
    at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (user_id, id)
  );
  CREATE INDEX IF NOT EXISTS forgotten_requests_expiry ON forgotten_requests (expires_at);
  `,
];

/** The version of the step that made the keyword terms again (for its test). */
export const PG_RETERM_VERSION = MIGRATIONS.indexOf(retermKeywordsPg) + 1;

export const PG_SCHEMA_VERSION = MIGRATIONS.length;

/** Any constant: the advisory lock every process opening the store takes while it migrates. */
const MIGRATION_LOCK = 0x656e6772;

/**
 * Brings the schema up to date in one transaction under a transaction-level advisory lock, so
 * several processes opening a fresh database at once migrate exactly once (the others wait, then
 * find the steps recorded); running it again is a no-op. Works behind a transaction pooler.
 */
export async function migratePg(client: pg.ClientBase, schema: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK, schema]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(`SET LOCAL search_path TO "${schema}"`);
    await client.query('CREATE TABLE IF NOT EXISTS engram_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM engram_migrations');
    const seen = rows[0]?.v ?? 0;
    if (seen > MIGRATIONS.length) {
      throw new EngramError('MIGRATION_FAILED', `Database schema version ${seen} is newer than this Engram (${MIGRATIONS.length}); upgrade Engram.`);
    }
    for (let v = seen; v < MIGRATIONS.length; v++) {
      const step = MIGRATIONS[v]!;
      if (typeof step === 'string') await client.query(step);
      else await step(client);
      await client.query('INSERT INTO engram_migrations (version) VALUES ($1)', [v + 1]);
    }
    await client.query('COMMIT');
  } catch (cause) {
    // A failed ROLLBACK means the connection is gone, and the server has rolled back already.
    await client.query('ROLLBACK').catch((rollbackError: unknown) => rollbackError);
    if (EngramError.isInstance(cause)) throw cause;
    throw new EngramError('MIGRATION_FAILED', `PostgreSQL migration of schema "${schema}" failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
