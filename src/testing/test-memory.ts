import { createHash } from 'node:crypto';
import { createHashEmbedder } from '../embedders/hash-embedder.js';
import type { Embedder } from '../embedders/embedder.js';
import { createMemory, type CreateMemoryOptions, type MemoryEngine } from '../memory.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { openTestPostgresStore, testDatabaseUrl } from '../store/postgres/test-postgres.js';
import { fixedClock, sequentialIds, type ManualClock } from './clock.js';

/**
 * A memory engine for tests: in-memory SQLite (a real store), the deterministic hash embedder,
 * a manual clock and sequential ids. Exported so users can test their own integrations.
 * With ENGRAM_TEST_DATABASE_URL set (`npm run test:pg`) the store is PostgreSQL instead: a fresh
 * schema, or for a `path` one schema named after it (two engines on one path share a store).
 */
export function testMemory(
  options: { path?: string; embedder?: Embedder; clock?: ManualClock } & Pick<CreateMemoryOptions, 'model' | 'extraction' | 'workerId' | 'onExtractionStep' | 'logger' | 'workspace' | 'notifier' | 'decayPolicy' | 'events' | 'ids'> = {},
): MemoryEngine & { clock: ManualClock } {
  const clock = options.clock ?? fixedClock('2026-01-01T00:00:00Z');
  const engine = createMemory({
    store: testDatabaseUrl()
      ? openTestPostgresStore({ schema: options.path === undefined ? undefined : `t_${createHash('sha256').update(options.path).digest('hex').slice(0, 16)}` })
      : openSqliteStore({ path: options.path ?? ':memory:' }),
    embedder: options.embedder ?? createHashEmbedder({ dimensions: 1024 }),
    clock,
    ids: options.ids ?? sequentialIds('mem'),
    model: options.model,
    extraction: options.extraction,
    workerId: options.workerId,
    onExtractionStep: options.onExtractionStep,
    logger: options.logger,
    workspace: options.workspace,
    notifier: options.notifier,
    decayPolicy: options.decayPolicy,
    events: options.events,
  });
  return Object.assign(engine, { clock });
}
