import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

const child = join(import.meta.dirname, 'fixtures', 'crash-child.ts');
/** Two tsx child processes per test: generous, for a loaded machine (not a performance bound). */
const CHILD_TIMEOUT = 180_000;

function runChild(path: string, crashAt?: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', child, path], {
    env: { ...process.env, ...env, ...(crashAt ? { CRASH_AT: crashAt } : {}) },
    encoding: 'utf8',
    timeout: 80_000,
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
      // Four memories created; the kept old version of the update is recorded as archived.
      expect(count("SELECT count(*) AS n FROM memory_history WHERE action = 'create'")).toBe(4);
      expect(count("SELECT count(*) AS n FROM memory_history WHERE action = 'archive'")).toBe(1);
      expect(count("SELECT count(*) AS n FROM memory_history WHERE action = 'update'")).toBe(1);
      expect(count('SELECT count(*) AS n FROM todos')).toBe(1);
      expect(count("SELECT count(*) AS n FROM extraction_runs WHERE outcome = 'applied'")).toBe(1);
      expect(count("SELECT processed_seq AS n FROM sessions WHERE id = 's'")).toBe(2);
      db.close();
    }, CHILD_TIMEOUT);
  }

  it('a restarted process (new pid, default worker id) takes over the lease its killed predecessor left, instead of "busy"', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'engram-crash-')), 'crash.db');
    expect(runChild(path, 'extracted', { DEFAULT_WORKER: '1' }).signal).toBe('SIGKILL');
    const db = new Database(path, { readonly: true });
    expect((db.prepare("SELECT lease_owner AS o FROM sessions WHERE id = 's'").get() as { o: string | null }).o).toMatch(/:\d+$/);
    db.close();
    const restarted = runChild(path, undefined, { DEFAULT_WORKER: '1' });
    expect(restarted.status, restarted.stderr).toBe(0);
    expect(JSON.parse(restarted.stdout)).toMatchObject({ status: 'applied', added: 3 });
  }, CHILD_TIMEOUT);
});
