import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The PostgreSQL run (`npm run test:pg`, which starts a throwaway cluster and sets
 * ENGRAM_TEST_DATABASE_URL): the PostgreSQL store's own tests, the store contract, and every
 * test file that builds its engine with testMemory() or testApp(), directly, through
 * closesAfterEach(testMemory, …) or through scriptedChat() (a fresh PostgreSQL schema each).
 * Chosen by content, so a new engine test joins without editing this list.
 */
const SQLITE_ONLY: Record<string, string> = {
  // Reads the raw bytes of the SQLite file and WAL to prove nothing is left on disk.
  'src/pipelines/forget-raw-bytes.test.ts': 'inspects SQLite file bytes',
  'src/store/sqlite/forget-user.test.ts': 'inspects SQLite file bytes and tables',
};

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'reliability' ? [] : testFiles(path);
    return path.endsWith('.test.ts') ? [path] : [];
  });
}

const include = ['src', 'test']
  .flatMap(testFiles)
  .filter((path) => !(path in SQLITE_ONLY))
  .filter((path) => /(^|\/)(postgres|pg)[-.]/.test(path.slice(path.lastIndexOf('/') + 1)) || path.startsWith('src/store/postgres/') || /\b(testMemory|testApp|scriptedChat)\(|\bclosesAfterEach\(\s*(testMemory|testApp)\b/.test(readFileSync(path, 'utf8')));

export default defineConfig({
  test: {
    include,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The tests' default zone (a user who names none gets the machine's) is UTC on every machine.
    env: { TZ: 'UTC' },
  },
});
