/**
 * Engram against mem0 (2.4.6 and 3.x) on the same conversations, the same model server and the
 * same embeddings, in one run: `npx tsx bench/peers/run-peers.ts [--quick] [--only ingest,latency,ranking]`
 * (`--render <results.json>` rewrites a run's Markdown and chart from its raw figures).
 *
 * One mock model server (mock-llm-server.ts) runs in this process; each system runs each
 * scenario in its own child process (so RSS is its own), tagged by API key so the server's
 * counts are per system and scenario. Writes bench/results/<date>-peers.{json,md} and -latency.svg.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadLocomo, locomoPath } from '../locomo-data.js';
import { startMockServer, MOCK_DIMENSIONS, type MockServer } from './mock-llm-server.js';
import { loadRawLocomo, RESULT_MARK, type PeerTask } from './peer-common.js';
import { latencySvg, markdownReport, summarise, type RawResults } from './peers-report.js';

const HERE = import.meta.dirname;
const ROOT = resolve(HERE, '..', '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.find((a) => a.startsWith('--only'))?.split('=')[1] ?? (args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined);
const only = new Set((onlyArg ?? 'ingest,latency,ranking').split(','));

/** What a run covers. The full run keeps to about 20 minutes on 2 cores; --quick to under 5. */
const PLAN = quick
  ? { ingest: { conversations: [0], maxSessions: 3 }, latency: { sizes: [500, 1000], queries: 10, rounds: 2 }, ranking: { conversations: [5] } }
  : // Ranking on LoCoMo's held-out half (conversations 5-9): Engram's recipes were tuned on 0-4.
    { ingest: { conversations: [0], maxSessions: undefined }, latency: { sizes: [1000, 3000, 10000], queries: 20, rounds: 3 }, ranking: { conversations: [5, 6, 7, 8, 9] } };

export const SYSTEMS = ['engram', 'mem0-v2', 'mem0-v3'] as const;
export type SystemName = (typeof SYSTEMS)[number];

function log(line: string): void {
  process.stderr.write(`[peers] ${line}\n`);
}

/** Runs one scenario of one system in a child process; resolves with its result or its error. */
function runChild(system: SystemName, task: PeerTask): Promise<{ ok: true; result: unknown; ms: number } | { ok: false; error: string; ms: number }> {
  const script = system === 'engram' ? [join(HERE, 'engram-peer.ts')] : [join(HERE, 'mem0-peer.ts'), system === 'mem0-v2' ? 'v2' : 'v3'];
  const t0 = performance.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...script, JSON.stringify(task)], {
      cwd: ROOT,
      env: { ...process.env, MEM0_TELEMETRY: 'false', LOCOMO_PATH: locomoPath() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      const line = out.split('\n').find((l) => l.startsWith(RESULT_MARK));
      if (code === 0 && line) return done({ ok: true, result: JSON.parse(line.slice(RESULT_MARK.length)), ms });
      done({ ok: false, error: `exit ${code}: ${(err || out).trim().split('\n').slice(-12).join('\n')}`, ms });
    });
  });
}

/** Rewrites a results JSON's summary, Markdown and chart from its raw figures (after a report change). */
function render(path: string): void {
  const report = JSON.parse(readFileSync(path, 'utf8')) as Parameters<typeof markdownReport>[0] & { raw: RawResults };
  report.summary = summarise(report.raw);
  const base = path.replace(/\.json$/, '');
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${base}.md`, markdownReport(report));
  writeFileSync(`${base}-latency.svg`, latencySvg(report.summary));
  process.stdout.write(markdownReport(report));
}

async function main(): Promise<void> {
  const started = new Date();
  loadLocomo(); // fails early, with where to get it, when the dataset is absent
  const raw = loadRawLocomo();
  // mem0 2.x sends messages without roles; these let the mock tell the user's lines apart.
  const userTexts = new Set(
    raw.flatMap((c) =>
      Object.entries(c.conversation).flatMap(([k, v]) =>
        /^session_\d+$/.test(k) && Array.isArray(v)
          ? (v as Array<{ speaker: string; text: string; blip_caption?: string }>)
              .filter((t) => t.speaker === c.conversation.speaker_a)
              .map((t) => `${t.text}${t.blip_caption ? ` [shares a photo: ${t.blip_caption}]` : ''}`.replace(/\s+/g, ' ').trim())
          : [],
      ),
    ),
  );
  const server: MockServer = await startMockServer({ userTexts });
  log(`mock model server at ${server.baseURL}; ${quick ? 'quick' : 'full'} run`);
  const work = mkdtempSync(join(tmpdir(), 'engram-peers-'));
  const results: RawResults = { ingest: {}, latency: {}, ranking: {}, failures: {} };
  const loads: number[][] = [loadavg()];

  for (const scenario of ['ingest', 'latency', 'ranking'] as const) {
    if (!only.has(scenario)) continue;
    for (const system of SYSTEMS) {
      const apiKey = `${system}:${scenario}`;
      const dir = join(work, apiKey.replace(':', '-'));
      mkdirSync(dir, { recursive: true });
      log(`${scenario}: ${system} …`);
      const task = { scenario, baseURL: server.baseURL, apiKey, dir, ...PLAN[scenario] } as PeerTask;
      const outcome = await runChild(system, task);
      loads.push(loadavg());
      if (!outcome.ok) {
        log(`${scenario}: ${system} FAILED after ${(outcome.ms / 1000).toFixed(1)} s\n${outcome.error}`);
        results.failures[`${system}:${scenario}`] = outcome.error;
        continue;
      }
      log(`${scenario}: ${system} done in ${(outcome.ms / 1000).toFixed(1)} s`);
      results[scenario][system] = { ...(outcome.result as object), server: server.client(apiKey), childMs: outcome.ms };
    }
  }
  if (server.unknownPrompts.length > 0) results.failures['mock-server'] = `unrecognised prompts: ${JSON.stringify(server.unknownPrompts.slice(0, 3))}`;
  await server.close();
  rmSync(work, { recursive: true, force: true });

  const versions = {
    engram: (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    'mem0-v2': installedVersion('mem0-v2'),
    'mem0-v3': installedVersion('mem0-v3'),
  };
  const report = {
    date: started.toISOString(),
    mode: quick ? 'quick' : 'full',
    machine: {
      cores: cpus().length,
      cpu: cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(totalmem() / 1e9),
      freeMemoryGbAtEnd: Math.round(freemem() / 1e9),
      node: process.version,
      loadAverages: loads.map((l) => l.map((x) => Math.round(x * 100) / 100)),
    },
    versions,
    setup: {
      modelServer: 'bench/peers/mock-llm-server.ts: OpenAI-compatible on 127.0.0.1, deterministic answers, no delay, tokens counted with gpt-tokenizer (o200k_base)',
      embeddings: `one deterministic function for every system: Engram's feature-hashing embedder (stemmed index terms), ${MOCK_DIMENSIONS} dimensions, served over HTTP /v1/embeddings`,
      plan: PLAN,
      locomo: locomoPath(),
    },
    summary: summarise(results),
    raw: results,
  };
  const day = started.toISOString().slice(0, 10);
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const base = join(dir, `${day}-peers${quick ? '-quick' : ''}`);
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${base}.md`, markdownReport(report));
  writeFileSync(`${base}-latency.svg`, latencySvg(report.summary));
  process.stdout.write(markdownReport(report));
  log(`wrote ${base}.json, .md and -latency.svg`);
}

function installedVersion(folder: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(HERE, folder, 'node_modules', 'mem0ai', 'package.json'), 'utf8')) as { version: string }).version;
  } catch (error) {
    log(`${folder}: mem0ai not installed (${error instanceof Error ? error.message : String(error)}); run npm install in bench/peers/${folder}`);
    return null;
  }
}

const renderPath = args.includes('--render') ? args[args.indexOf('--render') + 1] : undefined;
if (renderPath) render(renderPath);
else await main();
