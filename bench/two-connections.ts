/**
 * Context builds while another connection writes the same SQLite file
 * (`npm run bench -- --only two-connections`): what a second process on the file (another server,
 * a CLI import, a worker) costs the first one's reads. A user of 10,000 memories and 600 messages;
 * between builds for them, the other connection records one chat turn for another user, or nothing.
 * Until session 21 any commit by another connection dropped every cached user (their ranking
 * rows, vector codes, keyword postings and messages), so each build after such a turn read SQL or
 * rebuilt its caches; since, the change journal (src/store/sqlite/change-feed.ts) hands over the
 * rows written and nothing else is dropped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory } from '../src/memory.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { quantile, table } from './report.js';
import { bulkInsert, queryText, randomEmbedder, rng, unitVector } from './synthetic.js';

const EMBEDDER = 'bench-random@512';
const DIMENSIONS = 512;
const USER = 'user-0';
const SESSION = 'chat-1';

export interface TwoConnectionsResult {
  label: string;
  p50: number;
  p95: number;
}

export async function runTwoConnections(options: { quick?: boolean; log?: (line: string) => void } = {}): Promise<{ result: TwoConnectionsResult[]; text: string }> {
  const log = options.log ?? ((line: string) => console.log(line));
  const builds = options.quick ? 100 : 300;
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-two-'));
  const path = join(dir, 'two.db');
  try {
    const setup = openSqliteStore({ path });
    await setup.bindEmbedder({ id: EMBEDDER, dimensions: DIMENSIONS });
    log('  two-connections: loading 10,000 memories and 600 messages');
    await bulkInsert(setup, { users: [USER], perUser: 10_000, embedderId: EMBEDDER, dimensions: DIMENSIONS, seed: 4 });
    const r = rng(5);
    for (let i = 0; i < 300; i++) {
      const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000);
      await setup.appendMessages(USER, `past-${Math.floor(i / 30)}`, [
        { id: `q${i}`, role: 'user', content: queryText(r), createdAt: at, vector: unitVector(r, DIMENSIONS) },
        { id: `a${i}`, role: 'assistant', content: queryText(r), createdAt: at, vector: unitVector(r, DIMENSIONS) },
      ]);
    }
    await setup.close();

    const reader = createMemory({ store: openSqliteStore({ path }), embedder: randomEmbedder(EMBEDDER, DIMENSIONS) });
    const writer = openSqliteStore({ path });
    const results: TwoConnectionsResult[] = [];
    try {
      const q = rng(9);
      let turn = 0;
      const measure = async (label: string, between: () => Promise<void>): Promise<void> => {
        log(`  two-connections: ${label}`);
        const times: number[] = [];
        for (let i = 0; i < builds + 20; i++) {
          await between();
          const started = performance.now();
          await reader.context({ userId: USER, query: `${queryText(q)} #${i}`, tokenBudget: 800, sessionId: SESSION });
          if (i >= 20) times.push(performance.now() - started);
        }
        const r2 = (x: number): number => Math.round(x * 100) / 100;
        results.push({ label, p50: r2(quantile(times, 0.5)), p95: r2(quantile(times, 0.95)) });
      };
      // Warm: the JIT, the caches and the page cache, before anything is timed.
      for (let i = 0; i < 100; i++) await reader.context({ userId: USER, query: `${queryText(q)} #warm${i}`, tokenBudget: 800, sessionId: SESSION });
      await measure('no other connection writing', async () => undefined);
      await measure('another connection records a turn for another user between builds', async () => {
        turn++;
        await writer.appendMessages('user-other', 'elsewhere', [{ id: `o${turn}`, role: 'user', content: `turn ${turn} in another process`, createdAt: new Date(), vector: null }]);
      });
      await measure('another connection records a turn for the same user between builds', async () => {
        turn++;
        await writer.appendMessages(USER, 'elsewhere', [{ id: `s${turn}`, role: 'user', content: `turn ${turn} in another process`, createdAt: new Date(), vector: null }]);
      });
    } finally {
      await reader.close();
      await writer.close();
    }
    const text = [
      `Context builds for a user of 10,000 memories and 600 messages on one connection, another connection on the same file, ${builds} builds each, ms:`,
      '',
      table(['setting', 'p50', 'p95'], results.map((x) => [x.label, String(x.p50), String(x.p95)])),
    ].join('\n');
    return { result: results, text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
