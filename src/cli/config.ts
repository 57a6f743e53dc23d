import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Clock, IdGenerator, Logger } from '../deps.js';
import type { Embedder } from '../embedders/embedder.js';
import { createBundledEmbedder } from '../embedders/bundled-embedder.js';
import { createHashEmbedder } from '../embedders/hash-embedder.js';
import { createOpenAICompatibleEmbedder } from '../embedders/openai-compatible-embedder.js';
import { EngramError } from '../errors.js';
import { createMemory, type CreateMemoryOptions, type MemoryEngine } from '../memory.js';
import type { ModelClient } from '../models/language-model.js';
import { resolveModelFromEnv } from '../models/openai-compatible.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import { openPostgresStore } from '../store/postgres/postgres-store.js';
import type { Activity } from '../util/activity.js';
import { createThreadedEmbedder } from '../embedders/embedder-thread.js';

/**
 * Configuration by strings (flags, environment) is resolved here and only here (STYLE habit 2):
 * the core receives built objects. The server and the demo reuse `resolveEngineSettings` and
 * `openEngine`.
 */
export const EMBEDDER_TYPES = ['bundled', 'hash', 'openai-compatible'] as const;
export type EmbedderType = (typeof EMBEDDER_TYPES)[number];

export type EmbedderSettings =
  | { type: 'bundled' }
  | { type: 'hash'; dimensions?: number }
  | { type: 'openai-compatible'; baseURL: string; apiKey?: string; model: string; dimensions?: number };

export interface EngineSettings {
  /** SQLite file, ":memory:", or a PostgreSQL URL (postgres://… or postgresql://…). */
  dbPath: string;
  embedder: EmbedderSettings;
  /**
   * The LLM built from ENGRAM_LLM_BASE_URL / ENGRAM_LLM_API_KEY / ENGRAM_LLM_MODEL; absent when
   * none is set, and then extraction is heuristic (explicit statements only).
   */
  model?: ModelClient;
}

export interface ResolveEngineSettingsOptions {
  /** --db; falls back to ENGRAM_DB, then "./engram.db". */
  db?: string;
  /**
   * --embedder: "bundled", "hash", "openai-compatible" or "openai-compatible:<model>";
   * falls back to ENGRAM_EMBEDDER, then "bundled".
   */
  embedder?: string;
  /**
   * Read for ENGRAM_DB, ENGRAM_EMBEDDER, ENGRAM_EMBED_BASE_URL, ENGRAM_EMBED_API_KEY,
   * ENGRAM_EMBED_MODEL, ENGRAM_EMBED_DIMENSIONS and ENGRAM_LLM_BASE_URL, ENGRAM_LLM_API_KEY, ENGRAM_LLM_MODEL.
   */
  env: Readonly<Record<string, string | undefined>>;
}

export const DEFAULT_DB = './engram.db';
export const DEFAULT_USER = 'default';

const nonEmpty = (v: string | undefined): string | undefined => (v === undefined || v.trim() === '' ? undefined : v.trim());

function configError(message: string): EngramError {
  return new EngramError('CONFIG_INVALID', message);
}

function parseDimensions(raw: string | undefined): number | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw configError(`ENGRAM_EMBED_DIMENSIONS must be a positive integer, got "${value}"`);
  return n;
}

/** Resolves flags and environment into settings; throws CONFIG_INVALID naming what is missing. */
export function resolveEngineSettings(options: ResolveEngineSettingsOptions): EngineSettings {
  const { env } = options;
  const db = nonEmpty(options.db) ?? nonEmpty(env['ENGRAM_DATABASE_URL']) ?? nonEmpty(env['ENGRAM_DB']) ?? DEFAULT_DB;
  const raw = nonEmpty(options.embedder) ?? nonEmpty(env['ENGRAM_EMBEDDER']) ?? 'bundled';
  const colon = raw.indexOf(':');
  const type = colon === -1 ? raw : raw.slice(0, colon);
  const inlineModel = colon === -1 ? undefined : nonEmpty(raw.slice(colon + 1));
  const dimensions = parseDimensions(env['ENGRAM_EMBED_DIMENSIONS']);

  let embedder: EmbedderSettings;
  switch (type) {
    case 'bundled':
      embedder = { type: 'bundled' };
      break;
    case 'hash':
      embedder = dimensions === undefined ? { type: 'hash' } : { type: 'hash', dimensions };
      break;
    case 'openai-compatible': {
      const baseURL = nonEmpty(env['ENGRAM_EMBED_BASE_URL']);
      const model = inlineModel ?? nonEmpty(env['ENGRAM_EMBED_MODEL']);
      if (!baseURL) throw configError('The openai-compatible embedder needs ENGRAM_EMBED_BASE_URL (e.g. https://api.openai.com/v1)');
      if (!model) throw configError('The openai-compatible embedder needs a model: ENGRAM_EMBED_MODEL or --embedder openai-compatible:<model>');
      const apiKey = nonEmpty(env['ENGRAM_EMBED_API_KEY']);
      embedder = { type: 'openai-compatible', baseURL, model };
      if (apiKey !== undefined) embedder.apiKey = apiKey;
      if (dimensions !== undefined) embedder.dimensions = dimensions;
      break;
    }
    default:
      throw configError(`Unknown embedder "${raw}"; expected one of ${EMBEDDER_TYPES.join(', ')}`);
  }
  // Throws CONFIG_INVALID for an incomplete set, so a typo never silently turns the LLM off.
  const model = resolveModelFromEnv({ ...env });
  return { dbPath: db === ':memory:' || isPostgresUrl(db) ? db : path.resolve(db), embedder, ...(model ? { model } : {}) };
}

/** True for a PostgreSQL connection string: the store is then PostgreSQL instead of a SQLite file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/**
 * The embedder the settings name. `thread`: a local model (the bundled one) runs in a worker thread
 * of its own (the server's choice: its thread keeps answering while texts are embedded); a
 * short-lived command keeps it in its own thread and skips the worker's start.
 */
export function createEmbedderFromSettings(settings: EmbedderSettings, options: { thread?: boolean } = {}): Embedder {
  switch (settings.type) {
    case 'bundled':
      return options.thread ? createThreadedEmbedder({ kind: 'bundled' }) : createBundledEmbedder();
    case 'hash':
      return createHashEmbedder(settings.dimensions === undefined ? {} : { dimensions: settings.dimensions });
    case 'openai-compatible':
      return createOpenAICompatibleEmbedder(settings);
  }
}

export interface OpenEngineOptions {
  settings: EngineSettings;
  /** Overrides the embedder built from the settings (e.g. one already loaded). */
  embedder?: Embedder;
  /** Overrides the LLM of the settings (e.g. a scripted model in tests). */
  model?: ModelClient;
  clock?: Clock;
  ids?: IdGenerator;
  logger?: Logger;
  /** What a long-running process (the server) adds: events, reminders, the memory.md mirror. */
  runtime?: Pick<CreateMemoryOptions, 'events' | 'notifier' | 'workspace'>;
  /** The server's requests in flight: a SQLite store writes delayed access records between them. */
  activity?: Activity;
  /** Run a local embedding model in a worker thread (see createEmbedderFromSettings). */
  embedderThread?: boolean;
  /** A SQLite store's WAL checkpoints in a worker thread, off the requests' thread (the server's; see SqliteStoreOptions.checkpoint). */
  checkpoint?: 'auto' | 'background';
}

/**
 * Opens the store at a location given by a flag or the environment: a SQLite file or ":memory:".
 * Every command opens its store here (a postgres:// location is to be resolved here too).
 */
export function openStoreAt(location: string, options: { activity?: Activity; checkpoint?: 'auto' | 'background' } = {}): Store {
  try {
    if (isPostgresUrl(location)) return openPostgresStore({ url: location });
    if (location !== ':memory:') mkdirSync(path.dirname(location), { recursive: true });
    return openSqliteStore({ path: location, ...(options.activity ? { activity: options.activity } : {}), ...(options.checkpoint ? { checkpoint: options.checkpoint } : {}) });
  } catch (cause) {
    if (EngramError.isInstance(cause) && cause.code !== 'STORE_FAILED') throw cause;
    // The store wraps SQLite's error as STORE_FAILED; say it in the user's terms, with SQLite's reason.
    const inner = EngramError.isInstance(cause) && cause.cause !== undefined ? cause.cause : cause;
    const reason = inner instanceof Error ? inner.message : String(inner);
    throw new EngramError('STORE_FAILED', `Could not open the database ${location}: ${reason}`, { cause });
  }
}

/** The server's key store over the same database as `store` (the SQLite file or the PostgreSQL schema). */
export { keyStoreOf } from '../server/keys/key-store-of.js';

/** Opens the store and builds the engine from resolved settings. The caller closes it. */
export function openEngine(options: OpenEngineOptions): MemoryEngine {
  const store = openStoreAt(options.settings.dbPath, { activity: options.activity, checkpoint: options.checkpoint });
  const model = options.model ?? options.settings.model;
  return createMemory({
    store,
    embedder: options.embedder ?? createEmbedderFromSettings(options.settings.embedder, { thread: options.embedderThread }),
    ...(model ? { model } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.ids ? { ids: options.ids } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...options.runtime,
  });
}
