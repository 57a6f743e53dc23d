import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/sqlite/schema.js';
import { compileFixture, count, go, indexAgreement, inspect, spawnChild, tempDir } from './harness.js';

const PROCESSES = 12;

describe('processes opening a fresh file together', () => {
  it(`${PROCESSES} processes open, migrate, bind the embedder and write at once: all succeed, nothing is lost`, async () => {
    const dir = tempDir('open');
    const file = path.join(dir, 'fresh.db');
    const goFile = path.join(dir, 'go');
    const child = await compileFixture('open-child.ts');
    const children = Array.from({ length: PROCESSES }, (_, i) => spawnChild(child, [file, goFile, String(i)]));
    await Promise.all(children.map((c) => c.ready));
    go(goFile);
    const results = await Promise.all(children.map((c) => c.done));
    const failures = results.filter((r) => r.code !== 0);
    console.log(`open-together: processes=${PROCESSES} failures=${failures.length}`, failures.map((f) => f.stderr.split('\n')[0]));
    expect(failures.map((f) => f.stderr)).toEqual([]);

    const db = inspect(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const agreement = indexAgreement(db);
    expect(agreement).toMatchObject({ memories: PROCESSES, memoryFts: PROCESSES, memoryVec: PROCESSES });
    // Every memory kept its vector: no second process re-created the vector tables after the first bind.
    expect(count(db, 'SELECT count(*) AS n FROM memories WHERE embedder_id IS NULL')).toBe(0);
    db.close();
  });
});
