import { defineConfig } from 'vitest/config';

/**
 * The reliability suite (`npm run test:reliability`): several processes on one file, kill -9 at
 * random points, a model fault server, property-based isolation and bad-input tests. Bounded:
 * every test sizes itself to finish the whole suite within a few minutes on 2 cores.
 */
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The SQLite run even where CI has exported a PostgreSQL test database (npm run test:pg uses it).
    // TZ: the tests' default zone (a user who names none gets the machine's) is UTC on every machine.
    env: { ENGRAM_TEST_DATABASE_URL: '', TZ: 'UTC' },
    // The multi-process tests spawn their own workers: running files one at a time keeps them from starving each other.
    fileParallelism: false,
  },
});
