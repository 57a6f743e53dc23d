import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { describe, expect, it } from 'vitest';
import { testMemory } from '../../testing/test-memory.js';
import { userToken } from './keyword-index.js';

/** Every value of every row of every table (virtual tables' shadow tables included), as text. */
function everything(path: string): string {
  const db = new Database(path, { readonly: true });
  sqliteVec.load(db);
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((t) => t.name);
  const out: string[] = [];
  for (const t of tables) {
    for (const row of db.prepare(`SELECT * FROM "${t}"`).raw().all() as unknown[][]) {
      for (const v of row) out.push(Buffer.isBuffer(v) ? v.toString('utf8') : String(v));
    }
  }
  db.close();
  return out.join('\n');
}

describe('forget everything about a user', () => {
  it('leaves no trace in any table, and keeps other users', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'engram-forget-')), 'f.db');
    const memory = testMemory({ path });
    const secrets = ['ZEBRAPASSWORD', '秘密日记内容'];
    await memory.add({ userId: 'victim-42', kind: 'preference', content: `The user likes ${secrets[0]}` });
    const m = await memory.add({ userId: 'victim-42', content: `用户写了${secrets[1]}` });
    await memory.update('victim-42', m.id, { content: `用户写了${secrets[1]}，很长` });
    await memory.appendMessages({ messages: [{ userId: 'victim-42', sessionId: 'sess-victim', role: 'user', content: `my password is ${secrets[0]}` }] });
    await memory.setSettings('victim-42', { timeZone: 'Asia/Shanghai' });
    await memory.extract('victim-42', 'sess-victim');
    await memory.add({ userId: 'other', content: 'The user likes tea' });

    const before = everything(path);
    for (const needle of [...secrets, 'victim-42', userToken('victim-42')]) expect(before).toContain(needle);

    const counts = await memory.forget({ userId: 'victim-42' });
    expect(counts.memories).toBeGreaterThanOrEqual(2);
    await memory.close();

    const dump = everything(path);
    for (const needle of [...secrets, 'victim-42', 'sess-victim', userToken('victim-42')]) expect(dump).not.toContain(needle);
    expect(dump).toContain('The user likes tea');
    // Nothing left in the file's free pages either (secure_delete), as far as the raw bytes show.
    const raw = [path, `${path}-wal`].filter(existsSync).map((p) => readFileSync(p).toString('utf8')).join('');
    expect(raw).not.toContain(secrets[0]);
  });
});
