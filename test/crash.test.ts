import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

const child = join(import.meta.dirname, 'fixtures', 'crash-child.ts');

function runChild(path: string, crashAt?: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', child, path], {
    env: { ...process.env, ...(crashAt ? { CRASH_AT: crashAt } : {}) },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('crash safety: a worker killed during extraction', () => {
  for (const step of ['loaded', 'extracted', 'embedded', 'applying', 'committed']) {
    it(`killed at "${step}", then restarted: every message kept, each operation applied exactly once`, () => {
      const path = join(mkdtempSync(join(tmpdir(), 'engram-crash-')), 'crash.db');
      const crashed = runChild(path, step);
      expect(crashed.signal).toBe('SIGKILL');
      const restarted = runChild(path);
      expect(restarted.status, restarted.stderr).toBe(0);
      const report = JSON.parse(restarted.stdout) as { status: string };
      // Killed after the commit, the restart finds nothing left to do; otherwise it redoes the batch.
      expect(report.status).toBe(step === 'committed' ? 'nothing' : 'applied');

      const db = new Database(path, { readonly: true });
      const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;
      expect(count('SELECT count(*) AS n FROM messages')).toBe(3);
      const contents = (db.prepare("SELECT content FROM memories WHERE user_id = 'u' AND status = 'active' ORDER BY content").all() as Array<{ content: string }>).map((r) => r.content);
      // The update keeps the old version once, archived and superseded (issue 12.3).
      expect((db.prepare("SELECT content FROM memories WHERE user_id = 'u' AND status = 'archived'").all() as Array<{ content: string }>).map((r) => r.content)).toEqual(['用户是程序员']);
      expect(count("SELECT count(*) AS n FROM memory_relations WHERE type = 'supersedes'")).toBe(1);
      expect(contents).toEqual(['The user loves cats', '用户叫李明', '用户明天要交报告', '用户是后端工程师，使用 FastAPI'].sort());
      // Four memories and the one kept old version of the update.
      expect(count("SELECT count(*) AS n FROM memory_history WHERE action = 'create'")).toBe(5);
      expect(count("SELECT count(*) AS n FROM memory_history WHERE action = 'update'")).toBe(1);
      expect(count('SELECT count(*) AS n FROM todos')).toBe(1);
      expect(count("SELECT count(*) AS n FROM extraction_runs WHERE outcome = 'applied'")).toBe(1);
      expect(count("SELECT processed_seq AS n FROM sessions WHERE id = 's'")).toBe(2);
      db.close();
    });
  }
});
