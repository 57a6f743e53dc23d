/**
 * Row loading for recall, variant against variant in one process, interleaved, CPU time per call:
 * 100 random memories of one user among 10,000 read by rowid as row objects (`SELECT *`, what
 * listMemories did) or as arrays (`.raw()` + rowFromValues, what it does now), each mapped to a Memory.
 *
 * Run: npx tsx bench/row-loading-probe.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { MEMORY_COLUMNS, rowFromValues, rowToMemory, type MemoryRow } from '../src/store/sqlite/memory-rows.js';
import { marks } from '../src/store/sqlite/statements.js';
import { bulkInsert, rng } from './synthetic.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-rows-'));
try {
  const path = join(dir, 'p.db');
  const store = openSqliteStore({ path });
  await store.bindEmbedder({ id: 'x@512', dimensions: 512 });
  await bulkInsert(store, { users: ['u'], perUser: 10_000, embedderId: 'x@512', dimensions: 512, seed: 3 });
  await store.close();
  const db = new Database(path, { readonly: true });
  const rids = db.prepare('SELECT rid FROM memories').pluck().all() as number[];
  const r = rng(5);
  const pick = (): number[] => Array.from({ length: 100 }, () => rids[Math.floor(r() * rids.length)]!);
  const objects = db.prepare(`SELECT * FROM memories WHERE rid IN (${marks(100)})`);
  const arrays = db.prepare(`SELECT ${MEMORY_COLUMNS.join(', ')} FROM memories WHERE rid IN (${marks(100)})`).raw(true);
  const variants: Record<string, (ids: number[]) => unknown> = {
    'SELECT * as objects + rowToMemory': (ids) => (objects.all(...ids) as MemoryRow[]).map(rowToMemory),
    'raw arrays + rowFromValues + rowToMemory': (ids) => (arrays.all(...ids) as unknown[][]).map((v) => rowToMemory(rowFromValues(v))),
  };
  const cpu: Record<string, number[]> = {};
  for (let round = 0; round < 5; round++) {
    for (const [name, fn] of Object.entries(variants)) {
      const t = process.cpuUsage();
      for (let i = 0; i < 200; i++) fn(pick());
      const d = process.cpuUsage(t);
      (cpu[name] ??= []).push((d.user + d.system) / 1000 / 200);
    }
  }
  db.close();
  for (const [name, list] of Object.entries(cpu)) {
    const sorted = list.slice().sort((a, b) => a - b);
    console.log(`${name}: CPU ms per 100 rows, min ${sorted[0]!.toFixed(3)}, median ${sorted[2]!.toFixed(3)}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
