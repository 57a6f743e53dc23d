import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../domain/memory.js';
import { MEMORY_COLUMNS, memoryToColumns, rowFromValues, rowToMemory } from './memory-rows.js';
import { openSqliteStore } from './sqlite-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const memory = (content: string, extra: Partial<Memory> = {}): Memory => ({
  id: `m-${content.length}`, userId: 'u', kind: 'fact', content, importance: 0.7, confidence: 0.9, source: 'user', verified: true, core: false,
  status: 'active', provenance: { sessionId: 's', messageIds: ['a', 'b'], producedBy: 'extract@3' }, language: 'zh',
  createdAt: new Date(1_000), updatedAt: new Date(2_000), accessCount: 4, ...extra,
});

describe('memory rows read as arrays', () => {
  it('MEMORY_COLUMNS names every column of the memories table, and rid plus what memoryToColumns writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-rows-'));
    dirs.push(dir);
    const store = openSqliteStore({ path: join(dir, 's.db') });
    await store.close();
    const db = new Database(join(dir, 's.db'), { readonly: true });
    const names = (db.prepare('PRAGMA table_info(memories)').all() as Array<{ name: string }>).map((c) => c.name);
    db.close();
    expect([...MEMORY_COLUMNS].sort()).toEqual([...names].sort());
    expect([...MEMORY_COLUMNS].sort()).toEqual(['rid', ...Object.keys(memoryToColumns(memory('x')))].sort());
  });

  it('gives the same memory as the row object, in Chinese and English, with and without optional fields', () => {
    const cases = [
      memory('我下周三去上海出差'),
      memory('I moved to Berlin in March', {
        language: 'en', agentId: 'agent', sessionId: 'sess', structuredData: { city: 'Berlin' }, lastAccessedAt: new Date(3_000), expiresAt: new Date(9_000),
        happenedAt: new Date(500), embedderId: 'e@512', decayedAt: new Date(4_000), reviewedAt: new Date(5_000), flags: ['instruction'],
      }),
    ];
    for (const m of cases) {
      const row = { rid: 7, ...memoryToColumns(m) } as Record<string, unknown>;
      const values = MEMORY_COLUMNS.map((c) => row[c]);
      expect(rowToMemory(rowFromValues(values))).toEqual(m);
    }
  });
});
