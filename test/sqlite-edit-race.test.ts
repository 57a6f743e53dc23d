import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryVersion } from '../src/domain/memory-version.js';
import { createHashEmbedder } from '../src/embedders/hash-embedder.js';
import { createMemory } from '../src/memory.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';

const child = join(import.meta.dirname, 'fixtures', 'edit-race-child.ts');

interface Racer { ready: Promise<void>; done: Promise<{ won: string[]; refused: string[] }>; go(line: string): void }

function racer(path: string): Racer {
  const p = spawn(process.execPath, ['--import', 'tsx', child, path], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let signalReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  p.stdout.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
    if (stdout.startsWith('ready\n')) signalReady();
  });
  p.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const done = new Promise<{ won: string[]; refused: string[] }>((resolve, reject) =>
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(stdout.slice('ready\n'.length))) : reject(new Error(`racer exited ${code}: ${stderr}`)))));
  return { ready, done, go: (line) => p.stdin.end(`${line}\n`) };
}

describe('edits from several processes on one SQLite file', () => {
  it('each made against the same version: exactly one applies per memory, the others are refused (zh, en)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-edit-race-'));
    const path = join(dir, 'race.db');
    const seed = createMemory({ store: openSqliteStore({ path }), embedder: createHashEmbedder({ dimensions: 64 }) });
    const targets: Array<{ id: string; version: string }> = [];
    for (let i = 0; i < 40; i++) {
      const m = await seed.add({ userId: 'u', kind: 'pattern', importance: 0.3, content: i % 2 ? `用户每天早上喝咖啡 ${i}` : `The user drinks coffee every morning ${i}` });
      targets.push({ id: m.id, version: memoryVersion(m) });
    }
    await seed.close();

    const values = [0.6, 0.7, 0.8];
    const racers = values.map(() => racer(path));
    await Promise.all(racers.map((r) => r.ready));
    racers.forEach((r, i) => r.go(JSON.stringify({ targets, importance: values[i] })));
    const results = await Promise.all(racers.map((r) => r.done));

    const check = createMemory({ store: openSqliteStore({ path }), embedder: createHashEmbedder({ dimensions: 64 }) });
    for (const t of targets) {
      const winners = results.flatMap((r, i) => (r.won.includes(t.id) ? [values[i]] : []));
      expect(winners, t.id).toHaveLength(1);
      expect(results.filter((r) => r.refused.includes(t.id))).toHaveLength(values.length - 1);
      expect((await check.get('u', t.id)).importance).toBe(winners[0]);
      expect((await check.history('u', t.id)).map((h) => h.action)).toEqual(['create', 'update']);
    }
    await check.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
