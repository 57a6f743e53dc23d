import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import type { ContextBlock } from '../context/build-context.js';
import type { MessageRole } from '../domain/conversation.js';
import type { MemoryKind } from '../domain/memory.js';
import type { ExtractionStats } from '../extraction/stats.js';
import type { MemoryEngine } from '../memory.js';
import type { UsageSnapshot } from '../models/usage.js';
import type { ExtractReport } from '../pipelines/extract-session.js';
import type { RecalledMemory } from '../pipelines/recall.js';
import { openEngine, resolveEngineSettings } from './config.js';
import { DEMO_USERS, ISOLATION_QUERIES, demoMessageId, type DemoUser } from './demo-data.js';
import { renderDemo } from './demo-render.js';
import { emit, type CliIo } from './io.js';
import { extractWithChanges, type MemoryChange } from './memory-changes.js';
import { globalsOf } from './runtime.js';

const TOP = 3;
const BUDGET = 300;

export interface DemoStepRun {
  userId: string;
  sessionId: string;
  label: string;
  messages: { id: string; role: MessageRole; content: string }[];
  /** Messages stored by this run; 0 when this database already had them. */
  appended: number;
  report: ExtractReport;
  /** Model calls this extraction made (0 for small talk and for the heuristic extractor). */
  modelCalls: number;
  changes: MemoryChange[];
}

export interface QueryRun {
  userId: string;
  query: string;
  results: RecalledMemory[];
  context: ContextBlock;
}

export interface DemoReport {
  db: string;
  embedder: string;
  /** "heuristic", or the configured LLM's id. */
  extractor: string;
  /** Seconds the first step took: mostly loading the embedder. */
  firstStepSeconds: number;
  steps: DemoStepRun[];
  remembered: {
    userId: string;
    timeZone: string;
    memories: { id: string; kind: MemoryKind; content: string; importance: number; happenedAt?: Date }[];
    todos: { id: string; content: string; dueAt?: Date; completed: boolean }[];
  }[];
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
  stats: { extraction: ExtractionStats; usage?: UsageSnapshot };
}

/** Appends each step's messages, then extracts by hand, as the silence scheduler would. */
async function converse(engine: MemoryEngine, user: DemoUser): Promise<DemoStepRun[]> {
  await engine.setSettings(user.id, { timeZone: user.timeZone });
  const runs: DemoStepRun[] = [];
  for (const [i, step] of user.steps.entries()) {
    const messages = step.turns.map((t, j) => ({ id: demoMessageId(user.id, step, i, j), role: t.role, content: t.text }));
    const { appended } = await engine.appendMessages({ messages: messages.map((m) => ({ ...m, userId: user.id, sessionId: step.sessionId })) });
    const calls = engine.stats().extraction.modelCalls;
    const { report, changes } = await extractWithChanges(engine, user.id, step.sessionId);
    runs.push({ userId: user.id, sessionId: step.sessionId, label: step.label, messages, appended: appended.length, report, modelCalls: engine.stats().extraction.modelCalls - calls, changes });
  }
  return runs;
}

async function remembered(engine: MemoryEngine, user: DemoUser): Promise<DemoReport['remembered'][number]> {
  const memories = (await engine.list({ userId: user.id })).reverse().sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const todos = await engine.listTodos({ userId: user.id });
  return {
    userId: user.id,
    timeZone: user.timeZone,
    memories: memories.map((m) => ({ id: m.id, kind: m.kind, content: m.content, importance: m.importance, ...(m.happenedAt ? { happenedAt: m.happenedAt } : {}) })),
    todos: todos.map((t) => ({ id: t.id, content: t.content, completed: t.completed, ...(t.dueAt ? { dueAt: t.dueAt } : {}) })),
  };
}

async function ask(engine: MemoryEngine, userId: string, query: string): Promise<QueryRun> {
  const results = await engine.recall({ userId, query, limit: TOP, touch: false });
  const context = await engine.context({ userId, query, tokenBudget: BUDGET });
  return { userId, query, results, context };
}

/** Two users talk (Chinese and English); the pipeline remembers; then each asks, and alice cannot see li-ming. */
export async function runDemo(engine: MemoryEngine, options: { db: string; extractor: string }): Promise<DemoReport> {
  const started = performance.now();
  let firstStepSeconds = 0;
  const steps: DemoStepRun[] = [];
  for (const user of DEMO_USERS) {
    steps.push(...(await converse(engine, user)));
    if (firstStepSeconds === 0) firstStepSeconds = (performance.now() - started) / 1000;
  }
  const memories = [];
  for (const user of DEMO_USERS) memories.push(await remembered(engine, user));
  const queries: QueryRun[] = [];
  for (const user of DEMO_USERS) for (const q of user.queries) queries.push(await ask(engine, user.id, q));

  const [liMing, alice] = DEMO_USERS as [DemoUser, DemoUser];
  const probes = [];
  for (const query of ISOLATION_QUERIES) probes.push({ query, results: await engine.recall({ userId: alice.id, query, limit: TOP, touch: false }) });
  const aliceResults = [...queries.filter((q) => q.userId === alice.id), ...probes].flatMap((r) => r.results.map((x) => x.memory));
  return {
    db: options.db,
    embedder: engine.deps.embedder.id,
    extractor: options.extractor,
    firstStepSeconds,
    steps,
    remembered: memories,
    queries,
    isolation: {
      userId: alice.id,
      otherUserId: liMing.id,
      probes,
      queries: alice.queries.length + probes.length,
      results: aliceResults.length,
      leaked: aliceResults.filter((m) => m.userId !== alice.id).length,
    },
    stats: engine.stats(),
  };
}

/** `engram demo` (`npm run demo`): the bilingual walkthrough. */
export function registerDemo(program: Command, io: CliIo): void {
  program
    .command('demo')
    .description('two users talk (Chinese and English); the pipeline remembers; then recall, context and isolation')
    .action(async (_options: unknown, command: Command) => {
      const g = globalsOf(command);
      const db = g.db ?? path.join(mkdtempSync(path.join(tmpdir(), 'engram-demo-')), 'engram.db');
      const settings = resolveEngineSettings({ db, embedder: g.embedder ?? 'bundled', env: io.env });
      const engine = openEngine({ settings });
      try {
        const report = await runDemo(engine, { db: settings.dbPath, extractor: settings.model?.id ?? 'heuristic' });
        emit(io, g.json, report, () => renderDemo(report));
      } finally {
        await engine.close();
      }
    });
}
