/**
 * The delayed access write on the server's thread (`npm run bench -- --only access-writes`): what
 * a chat request that arrives while it runs waits for. A user of 10,000 memories; 200 writes of
 * 100 accesses each to scattered memories, 20 ms apart, timed where they run
 * (`flushAccesses`, the store's chunk). Compared: checkpoints by the commits themselves with every
 * commit synced (before session 19), the checkpoints in a worker thread, and that with the access
 * write unsynced (what the server runs now). The first write of each run reads cold pages and is
 * in the max.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openSqliteStore, unsynced } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { quantile, table } from './report.js';
import { bulkInsert } from './synthetic.js';

const EMBEDDER = 'bench-random@512';
const USER = 'user-0';

interface Variant {
  label: string;
  checkpoint: 'auto' | 'background';
  /** The access write's own commit synced (as every commit was before session 19). */
  synced: boolean;
}
export interface AccessWritesResult {
  label: string;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** The store's internals this bench times: its connection and the access write it runs in idle moments. */
interface Internals {
  db: Database.Database;
  memories: { flushAccesses(limit: number): number };
}

async function measure(base: string, dir: string, variant: Variant, writes: number): Promise<AccessWritesResult> {
  const path = join(dir, `${variant.checkpoint}-${variant.synced}.db`);
  copyFileSync(base, path);
  const store = openSqliteStore({ path, accessFlushMs: 1e9, checkpoint: variant.checkpoint, checkpointIntervalMs: 1000 });
  const internals = store as unknown as Internals;
  try {
    const ids = (await store.listMemories({ userId: USER, limit: 10_000 })).map((m) => m.id);
    const times: number[] = [];
    for (let round = 0; round < writes; round++) {
      const batch = Array.from({ length: 100 }, (_, i) => ids[(round * 7919 + i * 104_729) % ids.length]!);
      await store.recordAccess(USER, batch, new Date());
      const started = performance.now();
      const write = (): number => internals.memories.flushAccesses(100);
      if (variant.synced) write();
      else unsynced(internals.db, write);
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const r2 = (x: number): number => Math.round(x * 100) / 100;
    return { label: variant.label, p50: r2(quantile(times, 0.5)), p95: r2(quantile(times, 0.95)), p99: r2(quantile(times, 0.99)), max: r2(Math.max(...times)) };
  } finally {
    await store.close();
    rmSync(path, { force: true });
  }
}

export async function runAccessWrites(options: { quick?: boolean; log?: (line: string) => void } = {}): Promise<{ result: AccessWritesResult[]; text: string }> {
  const log = options.log ?? ((line: string) => console.log(line));
  const writes = options.quick ? 100 : 200;
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-access-'));
  try {
    const base = join(dir, 'base.db');
    const store: Store = openSqliteStore({ path: base });
    await store.bindEmbedder({ id: EMBEDDER, dimensions: 512 });
    log('  access-writes: loading 10,000 memories');
    await bulkInsert(store, { users: [USER], perUser: 10_000, embedderId: EMBEDDER, dimensions: 512, seed: 4 });
    await store.close();
    const variants: Variant[] = [
      { label: 'checkpoints by the commits, synced (before)', checkpoint: 'auto', synced: true },
      { label: 'checkpoints in a worker, synced', checkpoint: 'background', synced: true },
      { label: 'checkpoints in a worker, unsynced (the server now)', checkpoint: 'background', synced: false },
    ];
    const results: AccessWritesResult[] = [];
    for (const variant of variants) {
      log(`  access-writes: ${variant.label}`);
      results.push(await measure(base, dir, variant, writes));
    }
    const text = [
      `The delayed access write of 100 scattered memories of a 10,000-memory user, ${writes} writes 20 ms apart, ms:`,
      '',
      table(['setting', 'p50', 'p95', 'p99', 'max'], results.map((r) => [r.label, String(r.p50), String(r.p95), String(r.p99), String(r.max)])),
    ].join('\n');
    return { result: results, text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
