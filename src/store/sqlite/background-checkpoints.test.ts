import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Store } from '../store.js';
import { AUTO_CHECKPOINT_PAGES, FALLBACK_CHECKPOINT_PAGES, startBackgroundCheckpoints, type BackgroundCheckpoints } from './background-checkpoints.js';
import { openSqliteStore } from './sqlite-store.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'engram-checkpoints-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const checkpointsOf = (store: Store): BackgroundCheckpoints | undefined => (store as unknown as { checkpoints?: BackgroundCheckpoints }).checkpoints;
const size = (file: string): number => statSync(file).size;
const autoCheckpointOf = (store: Store): number => (store as unknown as { db: Database.Database }).db.pragma('wal_autocheckpoint', { simple: true }) as number;

/** Long turns, Chinese and English, one commit each: a few thousand pages of log, past SQLite's 1,000-page checkpoint threshold and short of the fallback's 10,000. */
async function writeTurns(store: Store, count = 150, prefix = 'm'): Promise<void> {
  for (let i = 0; i < count; i++) {
    const content = i % 2 === 0 ? `我今天去公园散步了，天气很好。第 ${i} 次。`.repeat(300) : `I walked in the park today, the weather was lovely. Turn ${i}. `.repeat(250);
    await store.appendMessages('li', 's1', [{ id: `${prefix}${i}`, role: i % 2 === 0 ? 'user' : 'assistant', content, createdAt: new Date(1_767_225_600_000 + i * 1000), vector: null }]);
  }
}

describe('WAL checkpoints in a worker thread', () => {
  it("keeps checkpoints out of the store's own commits, and copies the log into the file when it runs", async () => {
    // By SQLite's default a commit past 1,000 pages copies the log into the database file itself.
    const auto = path.join(dir, 'auto.db');
    const byCommits = openSqliteStore({ path: auto });
    const autoBefore = size(auto);
    await writeTurns(byCommits);
    expect(size(auto)).toBeGreaterThan(autoBefore + 1_000_000);
    expect(autoCheckpointOf(byCommits)).toBe(AUTO_CHECKPOINT_PAGES);
    await byCommits.close();

    // In the background (its interval far away here) the same commits leave the file as it was.
    const file = path.join(dir, 'background.db');
    const store = openSqliteStore({ path: file, checkpoint: 'background', checkpointIntervalMs: 3_600_000 });
    const checkpoints = checkpointsOf(store)!;
    expect(autoCheckpointOf(store)).toBe(FALLBACK_CHECKPOINT_PAGES);
    const before = size(file);
    await writeTurns(store);
    expect(size(file)).toBe(before);
    // The worker's checkpoint copies the log in, and the store reads every turn as written.
    await checkpoints.now();
    expect(checkpoints.stats).toMatchObject({ runs: 1, failures: 0 });
    expect(size(file)).toBeGreaterThan(before + 1_000_000);
    const turns = await store.listMessages({ userId: 'li', sessionId: 's1', limit: 2000 });
    expect(turns).toHaveLength(150);
    expect(turns[0]!.content.startsWith('我今天去公园散步了')).toBe(true);
    expect(turns[1]!.content.startsWith('I walked in the park today')).toBe(true);
    await store.close();
  });

  it('runs on its interval, stops with the store, and leaves every write readable by the next process', async () => {
    const file = path.join(dir, 'interval.db');
    const store = openSqliteStore({ path: file, checkpoint: 'background', checkpointIntervalMs: 20 });
    const checkpoints = checkpointsOf(store)!;
    const before = size(file);
    await writeTurns(store);
    await vi.waitFor(() => expect(checkpoints.stats.runs).toBeGreaterThan(0), { timeout: 10_000 });
    await vi.waitFor(() => expect(size(file)).toBeGreaterThan(before + 1_000_000), { timeout: 10_000 });
    await store.appendMessages('li', 's1', [{ id: 'last', role: 'user', content: '最后一句 the last turn', createdAt: new Date(1_767_300_000_000), vector: null }]);
    await store.close();
    const runs = checkpoints.stats.runs;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(checkpoints.stats.runs).toBe(runs);

    const again = openSqliteStore({ path: file });
    const turns = await again.listMessages({ userId: 'li', sessionId: 's1', limit: 2000 });
    expect(turns).toHaveLength(151);
    expect(turns.at(-1)!.content).toBe('最后一句 the last turn');
    await again.close();
  });

  it('catches up with a long log while writes keep coming, until the log starts over', async () => {
    const file = path.join(dir, 'busy.db');
    const store = openSqliteStore({ path: file, checkpoint: 'background', checkpointIntervalMs: 3_600_000 });
    const checkpoints = checkpointsOf(store)!;
    // A few thousand frames, never checkpointed: the worker's one checkpoint is far away.
    await writeTurns(store);
    // One checkpoint copies them while a turn is written every 30 ms. Copying that much takes
    // longer than the gap, so the log cannot start over after it: the worker runs again soon,
    // each time with only what was written meanwhile to copy, until the log has started over.
    void checkpoints.now();
    for (let i = 0; i < 100 && !(checkpoints.stats.log !== undefined && checkpoints.stats.log < 1000); i++) {
      await writeTurns(store, 1, `late${i}-`);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(checkpoints.stats.runs).toBeGreaterThan(1);
    expect(checkpoints.stats.log).toBeLessThan(1000);
    await store.close();
  });

  it('an erase still truncates the log while the worker checkpoints all the time (Chinese and English)', async () => {
    const file = path.join(dir, 'erase.db');
    const store = openSqliteStore({ path: file, checkpoint: 'background', checkpointIntervalMs: 1 });
    const checkpoints = checkpointsOf(store)!;
    const secrets = ['我的银行卡密码是八八六六', 'my passport number is X1234567'];
    for (let round = 0; round < 20; round++) {
      await store.appendMessages('li', 's1', secrets.map((content, i) => ({ id: `r${round}-${i}`, role: 'user' as const, content: `${content} ${round}`, createdAt: new Date(1_767_225_600_000 + round * 1000 + i), vector: null })));
      await vi.waitFor(() => expect(checkpoints.stats.runs).toBeGreaterThan(round), { timeout: 10_000 });
      await store.purgeMessages('li', secrets.map((_, i) => `r${round}-${i}`));
      const raw = [file, `${file}-wal`].map((f) => readFileSync(f).toString('utf8')).join('');
      for (const secret of secrets) expect(raw).not.toContain(secret);
    }
    await store.close();
  });

  it("a process with nothing else to do stays up until the store's close is done (zh/en)", () => {
    const script = path.join(dir, 'close.mts');
    const store = new URL('./sqlite-store.ts', import.meta.url).href;
    writeFileSync(
      script,
      [
        `const { openSqliteStore } = await import(${JSON.stringify(store)});`,
        `const store = openSqliteStore({ path: ${JSON.stringify(path.join(dir, 'close.db'))}, checkpoint: 'background' });`,
        "await store.appendMessages('li', 's1', [{ id: 'a', role: 'user', content: '我喜欢猫 I like cats', createdAt: new Date(), vector: null }]);",
        'await store.close();',
        "console.log('closed');",
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', cwd: process.cwd() });
    expect({ status: run.status, stdout: run.stdout.trim() }).toEqual({ status: 0, stdout: 'closed' });
  });

  it('two processes writing one file, each with its worker checkpointing every few ms: every write there once, the file sound (zh/en)', async () => {
    const file = path.join(dir, 'shared.db');
    const store = new URL('./sqlite-store.ts', import.meta.url).href;
    const script = path.join(dir, 'writer.mts');
    writeFileSync(
      script,
      [
        `const { openSqliteStore } = await import(${JSON.stringify(store)});`,
        'const [file, who] = process.argv.slice(2);',
        "const store = openSqliteStore({ path: file, checkpoint: 'background', checkpointIntervalMs: 5 });",
        'for (let i = 0; i < 150; i++) {',
        "  const content = i % 2 === 0 ? `${who} 说：我今天去公园散步了 ${i} `.repeat(40) : `${who} says: I walked in the park ${i} `.repeat(40);",
        "  await store.appendMessages('shared', `s-${who}`, [{ id: `${who}-${i}`, role: 'user', content, createdAt: new Date(1767225600000 + i * 1000), vector: null }]);",
        '}',
        'await store.close();',
        "console.log('done');",
      ].join('\n'),
    );
    await openSqliteStore({ path: file }).close();
    const run = (who: string) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', script, file, who], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.on('exit', (code) => resolve({ code, out }));
      });
    const results = await Promise.all([run('ann'), run('li')]);
    for (const r of results) expect(r).toEqual({ code: 0, out: 'done\n' });
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const counts = db.prepare("SELECT session_id AS s, count(*) AS n, count(DISTINCT id) AS ids FROM messages WHERE user_id = 'shared' GROUP BY session_id ORDER BY session_id").all();
      expect(counts).toEqual([{ s: 's-ann', n: 150, ids: 150 }, { s: 's-li', n: 150, ids: 150 }]);
    } finally {
      db.close();
    }
  });

  it('an in-memory store has no log and no worker', async () => {
    const store = openSqliteStore({ path: ':memory:', checkpoint: 'background' });
    expect(checkpointsOf(store)).toBeUndefined();
    await store.close();
  });

  it('hands checkpoints back to the connection, with a warning, when the worker cannot run', async () => {
    const file = path.join(dir, 'orphan.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const checkpoints = startBackgroundCheckpoints(db, path.join(dir, 'missing', 'gone.db'), { intervalMs: 20 });
      await vi.waitFor(() => expect(warnings.map((w) => (w as Error & { code?: string }).code)).toContain('ENGRAM_CHECKPOINTS'), { timeout: 5000 });
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(AUTO_CHECKPOINT_PAGES);
      await checkpoints.stop();
    } finally {
      process.off('warning', onWarning);
      db.close();
    }
  });
});
