import fc from 'fast-check';
import type Database from 'better-sqlite3';
import { inspect, tempDir } from './harness.js';
import { ERROR_CODES } from '../../src/errors.js';
import { cliHarness } from '../../src/cli/test-cli.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../src/embedders/hash-embedder.js';
import { EngramError } from '../../src/errors.js';
import { createMemory, type MemoryEngine } from '../../src/memory.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { fixedClock } from '../../src/testing/clock.js';

/** Values callers get wrong: wrong types, NaN and infinities, huge and fractional numbers, odd strings, nested junk. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(undefined, null, NaN, Infinity, -Infinity, -1, 0.5, 1e308, '', ' ', '*', 'NaN', '2026-13-45', '\u202e', '我', [], {}, true) },
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.anything({ maxDepth: 3 }),
);
/** An object shaped like a valid input with some fields replaced by junk. */
const mutate = (valid: Record<string, unknown>) =>
  fc.record(Object.fromEntries(Object.keys(valid).map((k) => [k, fc.oneof({ weight: 2, arbitrary: fc.constant(valid[k]) }, { weight: 1, arbitrary: junk })])) as Record<string, fc.Arbitrary<unknown>>).map((o) => o as Record<string, unknown>);
/** Junk at the top, or a valid-looking object with junk inside. */
const inputOf = (valid: Record<string, unknown>) => fc.oneof(junk, mutate(valid));

const stats = { inputs: 0, typedErrors: 0, accepted: 0 };

// Junk such as "-1" or "2026-13-45" is a valid relative path for backup/export: keep what they write out of the checkout.
const cwd = process.cwd();
beforeAll(() => process.chdir(tempDir('bad-input-cwd')));
afterAll(() => process.chdir(cwd));

type Call = (e: MemoryEngine, input: unknown) => Promise<unknown>;
const calls: Array<[string, fc.Arbitrary<unknown>, Call]> = [
  ['add', inputOf({ userId: 'u', kind: 'fact', content: '用户喜欢猫', importance: 0.5 }), (e, i) => e.add(i as never)],
  ['update', inputOf({ content: 'The user likes dogs', importance: 0.7 }), (e, i) => e.update('u', 'seed', i as never)],
  ['list', inputOf({ userId: 'u', limit: 5, offset: 0, kinds: ['fact'] }), (e, i) => e.list(i as never)],
  ['recall', inputOf({ userId: 'u', query: '猫', limit: 5 }), (e, i) => e.recall(i as never)],
  ['context', inputOf({ userId: 'u', query: 'What pets? 宠物', tokenBudget: 300 }), (e, i) => e.context(i as never)],
  ['searchMessages', inputOf({ userId: 'u', query: 'cats', limit: 3 }), (e, i) => e.searchMessages(i as never)],
  ['appendMessages', inputOf({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: '我喜欢猫' }] }), (e, i) => e.appendMessages(i as never)],
  ['setSettings', inputOf({ silentMinutes: 3, timeZone: 'Asia/Shanghai' }), (e, i) => e.setSettings('u', i as never)],
  ['listTodos', inputOf({ userId: 'u', limit: 3 }), (e, i) => e.listTodos(i as never)],
  ['importUser', inputOf({ format: 'engram-export', version: 1, userId: 'v', exportedAt: '2026-01-01T00:00:00Z', memories: [], history: [], relations: [], profiles: [], todos: [], messages: [], settings: {} }), (e, i) => e.importUser(i)],
  ['backup', inputOf({ path: '/nonexistent-folder/x.db' }), (e, i) => e.backup(i as never)],
  ['reindex', inputOf({ batchSize: 8 }), (e, i) => e.reindex(i as never)],
];

/** Row counts of every table: a refused call must leave them exactly as they were. */
function fingerprint(db: Database.Database): string {
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_vec_%' AND name NOT LIKE '%_fts_%' ORDER BY name").all() as Array<{ name: string }>).map((t) => t.name);
  return tables.map((t) => `${t}=${(db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n}`).join(' ');
}

describe('bad input (property-based) over the library', () => {
  for (const [name, input, call] of calls) {
    it(`${name}: any input is accepted or refused with a typed error, and a refusal writes nothing`, async () => {
      const store = openSqliteStore({ path: ':memory:' });
      const db = (store as unknown as { db: Database.Database }).db;
      const e = createMemory({ store, embedder: createHashEmbedder({ dimensions: 32 }), clock: fixedClock('2026-03-01T09:00:00Z'), ids: { next: (() => { let n = 0; return () => (n++ === 0 ? 'seed' : `id-${n}`); })() } });
      await e.add({ userId: 'u', kind: 'fact', content: 'The user likes cats / 用户喜欢猫' });
      try {
        await fc.assert(
          fc.asyncProperty(input, async (value) => {
            stats.inputs++;
            await e.idle(); // background extraction (the overflow trigger) is not this call's doing
            const before = fingerprint(db);
            try {
              await call(e, value);
              stats.accepted++;
            } catch (error) {
              expect(EngramError.isInstance(error), `${name}(${String(JSON.stringify(value))?.slice(0, 200)}) threw ${String(error)}`).toBe(true);
              stats.typedErrors++;
              await e.idle();
              expect(fingerprint(db)).toBe(before);
            }
          }),
          { numRuns: Number(process.env.ENGRAM_PROPERTY_RUNS ?? 80), seed: Number(process.env.ENGRAM_RELIABILITY_SEED ?? 20261124) },
        );
      } finally {
        await e.close();
      }
      console.log(`bad-input: ${name} ${JSON.stringify(stats)}`);
    });
  }
});

const ARGS = ['--limit', 'NaN', '-1', '1e309', '0.5', '--json', '-u', '*', '', ' ', '用户甲', 'a/../b', '%', '--out', '/nonexistent-folder/x.json', '--budget', '--kind', 'bogus', '--', '-x', '{"a":', 'mem-404', '\u202e'];
const COMMANDS = ['add', 'search', 'list', 'show', 'history', 'delete', 'restore', 'context', 'extract', 'todos', 'profile', 'export', 'import', 'lifecycle', 'reindex', 'backup', 'chat-log', 'nonsense'];

describe('bad input (property-based) over the CLI', () => {
  it('any arguments: exit 0, or 1/2 with a typed error code on stderr, and a failed command writes nothing', async () => {
    const h = cliHarness();
    await h.cli(['-u', 'u', 'add', '用户喜欢猫 / the user likes cats']);
    const cli = { runs: 0, failures: 0 };
    try {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...COMMANDS), fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ARGS) }, fc.string({ maxLength: 8 })), { maxLength: 4 }), async (command, args) => {
          cli.runs++;
          const db = inspect(h.db);
          const before = fingerprint(db);
          db.close();
          const r = await h.cli([command, ...args]);
          if (r.code === 0) return;
          cli.failures++;
          expect([1, 2], `engram ${[command, ...args].join(' ')}: ${r.stderr}`).toContain(r.code);
          expect(ERROR_CODES.some((code) => r.stderr.includes(code)), `untyped error from engram ${[command, ...args].join(' ')}: ${r.stderr}`).toBe(true);
          const after = inspect(h.db);
          expect(fingerprint(after)).toBe(before);
          after.close();
        }),
        { numRuns: Number(process.env.ENGRAM_PROPERTY_RUNS ?? 80), seed: Number(process.env.ENGRAM_RELIABILITY_SEED ?? 20261124) },
      );
    } finally {
      h.cleanup();
    }
    console.log(`bad-input: cli ${JSON.stringify(cli)}`);
  });
});
