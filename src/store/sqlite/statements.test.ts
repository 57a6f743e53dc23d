import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataVersion, limitClause, readOnce } from './statements.js';

let dir: string | undefined;
const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Two connections to one WAL file, with a table to commit into. */
function twoConnections(): [Database.Database, Database.Database] {
  dir = mkdtempSync(join(tmpdir(), 'engram-stmts-'));
  const path = join(dir, 'test.db');
  const a = new Database(path);
  a.pragma('journal_mode = WAL');
  a.exec('CREATE TABLE notes (text TEXT)');
  const b = new Database(path);
  open.push(a, b);
  return [a, b];
}

describe('data_version read once per read-only operation', () => {
  it('sees another connection’s commit on every read outside an operation', () => {
    const [a, b] = twoConnections();
    const version = dataVersion(a);
    const before = version();
    b.prepare('INSERT INTO notes VALUES (?)').run('用户喜欢猫');
    expect(version()).not.toBe(before);
  });

  it('answers the first read within one operation, and the next operation reads again (Chinese and English)', () => {
    const [a, b] = twoConnections();
    const version = dataVersion(a);
    // A second reader of the same connection (another cache) shares the value.
    const other = dataVersion(a);
    let first = 0;
    let later = 0;
    readOnce(a, () => {
      first = version();
      b.prepare('INSERT INTO notes VALUES (?)').run('The user loves cats');
      later = other();
      // Nested operations share the outer one's read.
      readOnce(a, () => expect(version()).toBe(first));
      expect(version()).toBe(first);
    });
    expect(later).toBe(first);
    const next = readOnce(a, () => version());
    expect(next).not.toBe(first);
    expect(version()).toBe(next);
  });

  it('forgets the value when the operation throws', () => {
    const [a, b] = twoConnections();
    const version = dataVersion(a);
    let seen = 0;
    expect(() =>
      readOnce(a, () => {
        seen = version();
        throw new Error('失败 failed');
      }),
    ).toThrow('失败 failed');
    b.prepare('INSERT INTO notes VALUES (?)').run('x');
    expect(readOnce(a, () => version())).not.toBe(seen);
  });
});

describe('limitClause', () => {
  it('writes an integer limit into the SQL, and none for undefined or a negative limit', () => {
    expect(limitClause(5)).toBe('LIMIT 5');
    expect(limitClause(0)).toBe('LIMIT 0');
    expect(limitClause(undefined)).toBe('LIMIT -1');
    expect(limitClause(-3)).toBe('LIMIT -1');
  });

  it('refuses anything but a safe integer, so no other text reaches the SQL', () => {
    for (const bad of [2.5, Number.NaN, Infinity, 2 ** 60, '1; DROP TABLE notes' as unknown as number]) expect(() => limitClause(bad)).toThrow(TypeError);
  });

  it('limits the rows as the bound form did', () => {
    const [a] = twoConnections();
    const insert = a.prepare('INSERT INTO notes (text) VALUES (?)');
    for (const text of ['一', 'two', '三', 'four']) insert.run(text);
    const texts = (limit: number | undefined) => a.prepare(`SELECT text FROM notes ORDER BY rowid ${limitClause(limit)}`).pluck().all();
    const bound = (limit: number) => a.prepare('SELECT text FROM notes ORDER BY rowid LIMIT ?').pluck().all(limit);
    for (const limit of [0, 2, 4, 9, -1]) expect(texts(limit)).toEqual(bound(limit));
    expect(texts(undefined)).toEqual(['一', 'two', '三', 'four']);
  });
});
