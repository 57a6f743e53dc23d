/**
 * Engram benchmarks. Usage:
 *   npm run bench                      every scenario
 *   npm run bench -- --only locomo     one scenario (locomo | latency | ingest | context | proxy | embedder | access-writes | two-connections | server | vectors | postgres | postgres-servers), or a comma list
 *   npm run bench -- --quick           smaller latency runs (under ~3 minutes with a warm cache)
 *   npm run bench -- --peers           Engram against mem0 2.4.6 and 3.x (bench/peers/README.md)
 * Prints tables and writes bench/results/<YYYY-MM-DD>.json and .md (merged with that day's
 * earlier results, so `--only` runs add to the file rather than replace it).
 * LoCoMo is read from LOCOMO_PATH or ../shared/data/locomo/locomo10.json.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runLatency } from './latency.js';
import { LocomoMissingError } from './locomo-data.js';
import { runLocomo } from './locomo.js';
import { runIngest } from './ingest.js';
import { runContextBench } from './context.js';
import { runProxy } from './proxy.js';
import { runAccessWrites } from './access-writes.js';
import { runTwoConnections } from './two-connections.js';
import { runEmbedderQueue } from './embedder-queue.js';
import { runServerBench } from './server.js';
import { runVectorStages } from './vector-stages.js';
import { runPostgresBench } from './postgres.js';
import { runPostgresServersBench } from './postgres-servers.js';
import { machine, type Machine } from './report.js';

interface Scenario {
  run(options: { quick: boolean }): Promise<{ result: unknown; text: string }>;
}

const SCENARIOS: Record<string, Scenario> = {
  locomo: { run: () => runLocomo() },
  latency: { run: ({ quick }) => runLatency({ quick }) },
  ingest: { run: ({ quick }) => runIngest({ quick }) },
  context: { run: () => runContextBench() },
  proxy: { run: ({ quick }) => runProxy({ quick }) },
  embedder: { run: () => runEmbedderQueue() },
  'access-writes': { run: ({ quick }) => runAccessWrites({ quick }) },
  'two-connections': { run: ({ quick }) => runTwoConnections({ quick }) },
  server: { run: ({ quick }) => runServerBench({ quick }) },
  vectors: { run: ({ quick }) => runVectorStages({ quick }) },
  postgres: { run: ({ quick }) => runPostgresBench({ quick }) },
  'postgres-servers': { run: ({ quick }) => runPostgresServersBench({ quick }) },
};

interface ResultsFile {
  date: string;
  machine: Machine;
  scenarios: Record<string, { quick: boolean; finishedAt: string; seconds: number; result: unknown; text: string }>;
}

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    peers: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('npm run bench -- [--only locomo|latency|ingest|context|proxy|embedder|access-writes|two-connections|server|vectors|postgres|postgres-servers[,…]] [--quick] [--peers]');
  process.exit(0);
}
if (values.peers) {
  // Engram and mem0 side by side: a separate harness with its own pinned mem0 packages.
  const { spawnSync } = await import('node:child_process');
  for (const folder of ['mem0-v2', 'mem0-v3']) {
    const cwd = join(import.meta.dirname, 'peers', folder);
    if (existsSync(join(cwd, 'node_modules', 'mem0ai'))) continue;
    console.log(`Installing the pinned mem0 for ${folder} (once; better-sqlite3 may compile from source)…`);
    const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd, stdio: 'inherit' });
    if (install.status !== 0) console.error(`npm ci failed in bench/peers/${folder}; that version will be reported as not run.`);
  }
  const args = ['--import', 'tsx', join(import.meta.dirname, 'peers', 'run-peers.ts'), ...(values.quick ? ['--quick'] : [])];
  const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
const names = values.only ? values.only.split(',').map((s) => s.trim()) : Object.keys(SCENARIOS);
const unknown = names.filter((n) => !(n in SCENARIOS));
if (unknown.length > 0) {
  console.error(`Unknown scenario(s): ${unknown.join(', ')}. Known: ${Object.keys(SCENARIOS).join(', ')}`);
  process.exit(2);
}

const date = new Date().toISOString().slice(0, 10);
const dir = join(import.meta.dirname, 'results');
const jsonPath = join(dir, `${date}.json`);
const file: ResultsFile = existsSync(jsonPath) ? (JSON.parse(readFileSync(jsonPath, 'utf8')) as ResultsFile) : { date, machine: machine(), scenarios: {} };
file.machine = machine();
const m = file.machine;
console.log(`Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}${values.quick ? ' (quick)' : ''}\n`);

let failed = false;
for (const name of names) {
  console.log(`== ${name} ==`);
  const start = performance.now();
  try {
    const { result, text } = await SCENARIOS[name]!.run({ quick: values.quick });
    const seconds = Math.round((performance.now() - start) / 100) / 10;
    console.log(`${text}\n(${name}: ${seconds} s)\n`);
    file.scenarios[name] = { quick: values.quick, finishedAt: new Date().toISOString(), seconds, result, text };
  } catch (error) {
    failed = true;
    if (error instanceof LocomoMissingError) console.error(`${error.message}\n`);
    else console.error(error);
  }
}

mkdirSync(dir, { recursive: true });
writeFileSync(jsonPath, JSON.stringify(file, null, 2) + '\n');
const md = [
  `# Engram benchmarks, ${date}`,
  '',
  `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, Node ${m.node}, ${m.os}.`,
  '',
  ...Object.entries(file.scenarios).flatMap(([name, s]) => [`## ${name}${s.quick ? ' (quick)' : ''}`, '', s.text, '', `_${s.seconds} s, finished ${s.finishedAt}_`, '']),
].join('\n');
writeFileSync(join(dir, `${date}.md`), md);
console.log(`Wrote ${jsonPath} and ${date}.md`);
if (failed) process.exitCode = 1;
