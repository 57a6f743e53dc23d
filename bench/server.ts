/**
 * The HTTP overhead: search and add at 10,000 memories of one user, over loopback (a small bounded
 * client on keep-alive connections) next to the same call in-process. Vectors are random (timing
 * only, as in latency.ts); the texts are bilingual templates, so keyword search does real work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createMemory } from '../src/memory.js';
import { createApp } from '../src/server/app.js';
import { sqliteHandleOf, sqliteKeyStore } from '../src/server/keys/sqlite-key-store.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { quantile, table } from './report.js';
import { bulkInsert, memoryText, queryText, randomEmbedder, rng } from './synthetic.js';

const DIMENSIONS = 512;
const EMBEDDER = 'bench-random@512';
const USER = 'bench-user';

export interface ServerRow {
  op: 'search' | 'add';
  mode: 'in-process' | 'http';
  concurrency: number;
  requests: number;
  p50: number;
  p95: number;
  perSecond: number;
  errors: number;
}
export interface ServerResult {
  memories: number;
  rows: ServerRow[];
  /** HTTP p95 minus in-process p95 at concurrency 1 (ms), and their ratio. */
  searchP95OverheadMs: number;
  /**
   * The HTTP cost of each search call on its own: the call's time at the client minus the time the
   * engine's recall took inside the handler (ms, p50 / p95 over the interleaved HTTP calls). Free of
   * the recall's own spread, which the difference of two p95s carries.
   */
  searchPairedOverheadMs: { p50: number; p95: number };
  searchP95Ratio: number;
  addP95OverheadMs: number;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Runs `total` calls with at most `concurrency` in flight; returns per-call milliseconds and failures. */
async function drive(total: number, concurrency: number, call: (i: number) => Promise<boolean>): Promise<{ ms: number[]; errors: number; seconds: number }> {
  const ms: number[] = [];
  let errors = 0;
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        const ok = await call(i);
        ms.push(performance.now() - t);
        if (!ok) errors++;
      }
    }),
  );
  return { ms, errors, seconds: (performance.now() - start) / 1000 };
}

/**
 * In-process and HTTP calls alternated one by one (the order swapped every other pair), so a
 * burst of load on a shared machine hits both alike: the p95 difference is then the HTTP cost.
 * Before each call the event loop turns once, untimed, as it does between a server's requests.
 * Without that, the in-process calls (all microtasks, never yielding) would leave every garbage
 * collection V8 schedules as a task to the next HTTP call: measured, a 1.3–1.9 ms scavenge every
 * ~75 ms, in about one HTTP call in eight, for garbage both kinds of call made.
 */
async function interleaved(total: number, a: (i: number) => Promise<boolean>, b: (i: number) => Promise<boolean>): Promise<[Awaited<ReturnType<typeof drive>>, Awaited<ReturnType<typeof drive>>]> {
  const out: [{ ms: number[]; errors: number; seconds: number }, { ms: number[]; errors: number; seconds: number }] = [
    { ms: [], errors: 0, seconds: 0 },
    { ms: [], errors: 0, seconds: 0 },
  ];
  const one = async (which: 0 | 1, i: number): Promise<void> => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const t = performance.now();
    const ok = await (which === 0 ? a : b)(i);
    const ms = performance.now() - t;
    out[which].ms.push(ms);
    out[which].seconds += ms / 1000;
    if (!ok) out[which].errors++;
  };
  for (let i = 0; i < total; i++) {
    const first = i % 2 === 0 ? 0 : 1;
    await one(first, i);
    await one(first === 0 ? 1 : 0, i);
  }
  return [out[0], out[1]];
}

function row(op: ServerRow['op'], mode: ServerRow['mode'], concurrency: number, r: { ms: number[]; errors: number; seconds: number }): ServerRow {
  return { op, mode, concurrency, requests: r.ms.length, p50: round2(quantile(r.ms, 0.5)), p95: round2(quantile(r.ms, 0.95)), perSecond: Math.round(r.ms.length / r.seconds), errors: r.errors };
}

export async function runServerBench(options: { quick?: boolean } = {}): Promise<{ result: ServerResult; text: string }> {
  const n = options.quick ? 200 : 1000;
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-server-'));
  const store = openSqliteStore({ path: join(dir, 'bench.db') });
  const memory = createMemory({ store, embedder: randomEmbedder(EMBEDDER, DIMENSIONS) });
  await store.bindEmbedder({ id: EMBEDDER, dimensions: DIMENSIONS });
  await bulkInsert(store, { users: [USER], perUser: 10_000, embedderId: EMBEDDER, dimensions: DIMENSIONS, seed: 11 });
  const db = sqliteHandleOf(store);
  if (!db) throw new Error('expected SQLite');
  // The app's engine is the same engine, with recall timed: what the handler spent in it.
  let recallMs = 0;
  const timedMemory = new Proxy(memory, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (key === 'recall') {
        return async (...args: Parameters<typeof memory.recall>) => {
          const started = performance.now();
          try {
            return await target.recall(...args);
          } finally {
            recallMs += performance.now() - started;
          }
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const app = createApp({ memory: timedMemory, keys: sqliteKeyStore(db), allowOpen: true, rateLimit: false });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  // Idle keep-alive sockets must outlive the in-process rows between HTTP rows (minutes on a busy machine): no idle timeout.
  if ('keepAliveTimeout' in server) server.keepAliveTimeout = 0;
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const failures: string[] = [];
  const post = (path: string, body: unknown): Promise<boolean> =>
    new Promise((resolve) => {
      const data = Buffer.from(JSON.stringify(body));
      const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': data.length } }, (res) => {
        res.resume();
        res.on('end', () => {
          if ((res.statusCode ?? 500) >= 300) failures.push(`HTTP ${res.statusCode}`);
          resolve((res.statusCode ?? 500) < 300);
        });
      });
      req.on('error', (error) => {
        failures.push(error.message);
        resolve(false);
      });
      req.end(data);
    });

  const r = rng(5);
  const queries = Array.from({ length: n }, () => queryText(r));
  const texts = Array.from({ length: n }, () => memoryText(r));
  const searchPath = `/v1/users/${USER}/search`;
  const addPath = `/v1/users/${USER}/memories`;
  const inSearch = (i: number) => memory.recall({ userId: USER, query: queries[i % n]!, limit: 10 }).then(() => true, () => false);
  const paired: number[] = [];
  const httpSearch = (i: number) => post(searchPath, { query: queries[i % n]!, limit: 10 });
  const httpSearchPaired = async (i: number) => {
    recallMs = 0;
    const started = performance.now();
    const ok = await httpSearch(i);
    paired.push(performance.now() - started - recallMs);
    return ok;
  };
  const inAdd = (i: number) => memory.add({ userId: USER, content: `${texts[i % n]!} #${i}` }).then(() => true, () => false);
  const httpAdd = (i: number) => post(addPath, { content: `${texts[i % n]!} ##${i}` });

  try {
    // Warm up both paths (JIT, statement caches, the first connections).
    await drive(50, 1, inSearch);
    await drive(50, 1, httpSearch);
    const [inSearch1, httpSearch1] = await interleaved(n, inSearch, httpSearchPaired);
    const [inAdd1, httpAdd1] = await interleaved(n, inAdd, httpAdd);
    const rows: ServerRow[] = [
      row('search', 'in-process', 1, inSearch1),
      row('search', 'http', 1, httpSearch1),
      row('search', 'in-process', 4, await drive(n, 4, inSearch)),
      row('search', 'http', 4, await drive(n, 4, httpSearch)),
      row('add', 'in-process', 1, inAdd1),
      row('add', 'http', 1, httpAdd1),
      row('add', 'http', 4, await drive(n, 4, httpAdd)),
    ];
    const p95 = (op: string, mode: string) => rows.find((x) => x.op === op && x.mode === mode && x.concurrency === 1)!.p95;
    const result: ServerResult = {
      memories: 10_000,
      rows,
      searchP95OverheadMs: round2(p95('search', 'http') - p95('search', 'in-process')),
      searchP95Ratio: round2(p95('search', 'http') / p95('search', 'in-process')),
      searchPairedOverheadMs: { p50: round2(quantile(paired, 0.5)), p95: round2(quantile(paired, 0.95)) },
      addP95OverheadMs: round2(p95('add', 'http') - p95('add', 'in-process')),
    };
    const text = [
      `One user with 10,000 memories (random 512-d vectors, bilingual template texts); ${n} calls per row; loopback keep-alive client; at 1 in flight, in-process and HTTP calls alternate one by one, the event loop turning once (untimed) before each (per s = 1 / mean latency there).`,
      '',
      table(['op', 'mode', 'in flight', 'calls', 'p50 ms', 'p95 ms', 'per s', 'errors'], rows.map((x) => [x.op, x.mode, String(x.concurrency), String(x.requests), String(x.p50), String(x.p95), String(x.perSecond), String(x.errors)])),
      '',
      `Search p95 over HTTP − in-process: ${result.searchP95OverheadMs} ms (×${result.searchP95Ratio}); add p95 overhead: ${result.addP95OverheadMs} ms.`,
      `HTTP cost per search call, paired (client time − the recall's time inside the handler; client and server in this one process): p50 ${result.searchPairedOverheadMs.p50} ms, p95 ${result.searchPairedOverheadMs.p95} ms.`,
      ...(failures.length > 0 ? [`Failures: ${[...new Set(failures)].join('; ')}`] : []),
    ].join('\n');
    return { result, text };
  } finally {
    agent.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
