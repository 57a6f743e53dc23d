import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import type { ContextBlock } from '../context/build-context.js';
import type { MemoryEngine } from '../memory.js';
import type { RecalledMemory } from '../pipelines/recall.js';
import { openEngine, resolveEngineSettings } from './config.js';
import { renderContext } from './context.js';
import { DEMO_USERS, ISOLATION_QUERIES, type DemoUser } from './demo-data.js';
import { fields, heading, table } from './format.js';
import { emit, type CliIo } from './io.js';
import { globalsOf } from './runtime.js';
import { renderRecall } from './search.js';

const DAY_MS = 86_400_000;
const TOP = 3;
const BUDGET = 300;

interface QueryRun {
  userId: string;
  query: string;
  results: RecalledMemory[];
  context: ContextBlock;
}

interface DemoReport {
  db: string;
  embedder: string;
  /** Seconds the first write took: mostly loading the embedder. */
  firstEmbedSeconds: number;
  written: { userId: string; count: number; reused: boolean }[];
  queries: QueryRun[];
  isolation: {
    userId: string;
    otherUserId: string;
    /** Questions about the other user, asked as this one. */
    probes: { query: string; results: RecalledMemory[] }[];
    /** Over all of this user's queries, probes included. */
    queries: number;
    results: number;
    leaked: number;
  };
}

async function seed(engine: MemoryEngine, user: DemoUser, now: Date): Promise<{ count: number; reused: boolean }> {
  // Running the demo twice on one --db reuses what is there instead of writing duplicates.
  const existing = await engine.list({ userId: user.id, limit: 1 });
  if (existing.length > 0) return { count: (await engine.list({ userId: user.id })).length, reused: true };
  for (const m of user.memories) {
    await engine.add({
      userId: user.id,
      kind: m.kind,
      content: m.content,
      ...(m.importance !== undefined ? { importance: m.importance } : {}),
      ...(m.inDays !== undefined ? { happenedAt: new Date(now.getTime() + m.inDays * DAY_MS) } : {}),
    });
  }
  return { count: user.memories.length, reused: false };
}

async function ask(engine: MemoryEngine, userId: string, query: string): Promise<QueryRun> {
  const results = await engine.recall({ userId, query, limit: TOP, touch: false });
  const context = await engine.context({ userId, query, tokenBudget: BUDGET });
  return { userId, query, results, context };
}

/** Writes two users' memories (Chinese and English), then recalls and builds context for each. */
export async function runDemo(engine: MemoryEngine, db: string): Promise<DemoReport> {
  const now = engine.deps.clock.now();
  const started = performance.now();
  const written: DemoReport['written'] = [];
  let firstEmbedSeconds = 0;
  for (const user of DEMO_USERS) {
    written.push({ userId: user.id, ...(await seed(engine, user, now)) });
    if (firstEmbedSeconds === 0) firstEmbedSeconds = (performance.now() - started) / 1000;
  }
  const queries: QueryRun[] = [];
  for (const user of DEMO_USERS) for (const q of user.queries) queries.push(await ask(engine, user.id, q));

  const [liMing, alice] = DEMO_USERS as [DemoUser, DemoUser];
  const probes = [];
  for (const query of ISOLATION_QUERIES) probes.push({ query, results: await engine.recall({ userId: alice.id, query, limit: TOP, touch: false }) });
  const aliceResults = [...queries.filter((q) => q.userId === alice.id), ...probes].flatMap((r) => r.results.map((x) => x.memory));
  const isolation = {
    userId: alice.id,
    otherUserId: liMing.id,
    probes,
    queries: alice.queries.length + probes.length,
    results: aliceResults.length,
    leaked: aliceResults.filter((m) => m.userId !== alice.id).length,
  };
  return { db, embedder: engine.deps.embedder.id, firstEmbedSeconds, written, queries, isolation };
}

function renderDemo(r: DemoReport): string {
  const out: string[] = [heading('Engram demo', '═'), fields([
    ['database', r.db],
    ['embedder', `${r.embedder} (first write ${r.firstEmbedSeconds.toFixed(1)} s, includes loading the model)`],
  ])];
  out.push('', heading('Memories written'));
  for (const user of DEMO_USERS) {
    const w = r.written.find((x) => x.userId === user.id)!;
    out.push(`${user.id} (${user.label}): ${w.count} memories${w.reused ? ', already in this database' : ''}`);
    out.push(table([{ header: '  kind' }, { header: 'content' }], user.memories.map((m) => [`  ${m.kind}`, m.content])).split('\n').slice(1).join('\n'));
  }
  r.queries.forEach((q, i) => {
    out.push('', heading(`${i + 1}. ${q.userId} asks: ${q.query}`));
    out.push(q.results.length === 0 ? '(no memories recalled)' : renderRecall(q.results, { ids: false, contentWidth: 40 }));
    out.push('', 'context block:', indent(renderContext(q.context, { items: false })));
  });
  const iso = r.isolation;
  out.push('', heading(`Isolation: ${iso.userId} asks about ${iso.otherUserId}`));
  for (const p of iso.probes) {
    out.push(`${p.query}`);
    out.push(indent(table([{ header: 'user' }, { header: 'kind' }, { header: 'content', max: 48 }], p.results.map((x) => [x.memory.userId, x.memory.kind, x.memory.content]))));
  }
  out.push(
    '',
    `${iso.userId}'s ${iso.queries} queries (${iso.probes.length} about ${iso.otherUserId}) recalled ${iso.results} memories; ` +
      `${iso.leaked} belonged to ${iso.otherUserId} ${iso.leaked === 0 ? '✓' : '✗ LEAK'}`,
  );
  out.push('', `Explore: engram --db ${r.db} --user li-ming list`);
  return out.join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : `  ${l}`))
    .join('\n');
}

/** `engram demo`: what `npm start` runs. */
export function registerDemo(program: Command, io: CliIo): void {
  program
    .command('demo')
    .description('write sample memories for two users (Chinese and English) and show recall and context')
    .action(async (_options: unknown, command: Command) => {
      const g = globalsOf(command);
      const db = g.db ?? path.join(mkdtempSync(path.join(tmpdir(), 'engram-demo-')), 'engram.db');
      const settings = resolveEngineSettings({ db, embedder: g.embedder ?? 'bundled', env: io.env });
      const engine = openEngine({ settings });
      try {
        const report = await runDemo(engine, settings.dbPath);
        emit(io, g.json, report, () => renderDemo(report));
      } finally {
        await engine.close();
      }
    });
}
