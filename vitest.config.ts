import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
    // The reliability suite has its own config and script (npm run test:reliability).
    exclude: ['**/node_modules/**', 'test/reliability/**'],
    // Generous: several tests spawn tsx child processes, slow to start on a loaded 2-core machine.
    testTimeout: 120_000,
    pool: 'forks',
    // The SQLite run even where CI has exported a PostgreSQL test database (npm run test:pg uses it).
    // TZ: the tests' default zone (a user who names none gets the machine's) is UTC on every machine.
    env: { ENGRAM_TEST_DATABASE_URL: '', TZ: 'UTC' },
  },
});
