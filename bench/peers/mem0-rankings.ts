/**
 * mem0 3.x's ranked turn ids for every question of the given conversations, from its peer
 * process against the mock server (the peers ranking scenario with `detail`), cached in
 * bench/.cache/mem0-v3-ranked-<conversations>.json so an analysis rerun does not re-run mem0.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { locomoPath } from '../locomo-data.js';
import { startMockServer } from './mock-llm-server.js';
import { RESULT_MARK, type PeerTask } from './peer-common.js';

const HERE = import.meta.dirname;
const ROOT = resolve(HERE, '..', '..');

export interface Mem0Ranked {
  conversation: number;
  question: number;
  ranked: string[];
}

export async function mem0Rankings(conversations: readonly number[], log: (line: string) => void = () => {}): Promise<Mem0Ranked[]> {
  const cacheDir = join(ROOT, 'bench', '.cache');
  const cache = join(cacheDir, `mem0-v3-ranked-${conversations.join('_')}.json`);
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, 'utf8')) as Mem0Ranked[];
  const server = await startMockServer({ userTexts: new Set() });
  const dir = mkdtempSync(join(tmpdir(), 'engram-mem0-rank-'));
  try {
    const task: PeerTask = { scenario: 'ranking', conversations: [...conversations], baseURL: server.baseURL, apiKey: 'mem0-v3:ranking', dir, detail: true };
    log(`mem0 3.x ranking conversations ${conversations.join(',')} (minutes)`);
    const out = await new Promise<string>((done, fail) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(HERE, 'mem0-peer.ts'), 'v3', JSON.stringify(task)], {
        cwd: ROOT,
        env: { ...process.env, MEM0_TELEMETRY: 'false', LOCOMO_PATH: locomoPath() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => (code === 0 ? done(stdout) : fail(new Error(`mem0 peer exit ${code}: ${stderr.slice(-2000)}`))));
    });
    const line = out.split('\n').find((l) => l.startsWith(RESULT_MARK));
    if (!line) throw new Error('mem0 peer printed no result');
    const detail = (JSON.parse(line.slice(RESULT_MARK.length)) as { detail?: Mem0Ranked[] }).detail;
    if (!detail) throw new Error('mem0 peer result has no per-question detail');
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(cache, JSON.stringify(detail));
    return detail;
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const list = (process.argv[2] ?? '0,1,2,3,4').split(',').map(Number);
  const r = await mem0Rankings(list, (l) => process.stderr.write(`${l}\n`));
  process.stdout.write(`${r.length} questions ranked\n`);
}
