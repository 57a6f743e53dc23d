/**
 * Engram as a benchmark peer, in its own process: `tsx engram-peer.ts '<task json>'`.
 * Prints one result line (see peer-common.ts). Model and embeddings come from the mock server.
 */
import { join } from 'node:path';
import { createBundledEmbedder } from '../../src/embedders/index.js';
import type { Embedder } from '../../src/embedders/embedder.js';
import { createOpenAICompatibleEmbedder } from '../../src/embedders/openai-compatible-embedder.js';
import { createMemory, type MemoryEngine } from '../../src/memory.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible.js';
import type { RecallConfigInput } from '../../src/recall/recall-config.js';
import type { RecipeName } from '../../src/recall/recipes.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { MOCK_DIMENSIONS } from './mock-llm-server.js';
import { fixedClock } from '../../src/testing/clock.js';
import { createCachedEmbedder } from '../cached-embedder.js';
import { loadLocomo, type LocomoConversation } from '../locomo-data.js';
import {
  WARM_UP, createFloor, KS, latencyQueries, latencyTexts, loadRawLocomo, localEmbedder, printResult, readTask, recallAt, replaySessions,
  rssMb, summariseRecall, timeRounds, type PeerTask, type ServerRef,
} from './peer-common.js';

const SILENCE_WAIT_MS = 3 * 60_000;
const USER = 'bench-user';

const mockEmbedder = (s: ServerRef): Embedder => createOpenAICompatibleEmbedder({ baseURL: s.baseURL, apiKey: s.apiKey, model: 'mock-embed', dimensions: MOCK_DIMENSIONS });

async function ingest(task: Extract<PeerTask, { scenario: 'ingest' }>): Promise<unknown> {
  const raw = loadRawLocomo();
  const perConversation = [];
  const t0 = performance.now();
  let userMessages = 0;
  let messages = 0;
  let memories = 0;
  // Where the time goes: appending (embeds each message) and the scheduler pass after it.
  let appendMs = 0;
  let tickMs = 0;
  const statuses: Record<string, number> = {};
  for (const c of task.conversations) {
    const sessions = replaySessions(raw[c]!, task.maxSessions);
    const clock = fixedClock(sessions[0]!.start);
    const engine = createMemory({
      store: openSqliteStore({ path: join(task.dir, `engram-ingest-${c}.db`) }),
      embedder: mockEmbedder(task),
      model: createOpenAICompatibleModel({ baseURL: task.baseURL, apiKey: task.apiKey, model: 'mock-chat' }),
      clock,
    });
    const count = (reports: ReadonlyArray<{ status: string }>): void => reports.forEach((r) => void (statuses[r.status] = (statuses[r.status] ?? 0) + 1));
    for (const session of sessions) {
      clock.set(session.start);
      count(await engine.tick());
      for (const message of session.exchanges.flat()) {
        clock.set(message.at);
        if (message.role === 'user') userMessages++;
        messages++;
        const a = performance.now();
        await engine.appendMessages({ messages: [{ id: message.id, userId: USER, sessionId: session.id, role: message.role, content: message.content, createdAt: message.at }] });
        const b = performance.now();
        count(await engine.tick());
        appendMs += b - a;
        tickMs += performance.now() - b;
      }
      // The silence trigger (2 minutes by default) extracts the session once it has gone quiet.
      clock.advance(SILENCE_WAIT_MS);
      count(await engine.tick());
    }
    await engine.idle();
    const stored = await engine.deps.store.countMemories({ userId: USER });
    memories += stored;
    perConversation.push({ conversation: c, sessions: sessions.length, memories: stored, extraction: engine.stats().extraction });
    await engine.close();
  }
  return { wallMs: performance.now() - t0, appendMs, tickMs, userMessages, messages, memories, statuses, perConversation, rssMb: rssMb() };
}

async function latency(task: Extract<PeerTask, { scenario: 'latency' }>): Promise<unknown> {
  const conversations = loadLocomo();
  const max = Math.max(...task.sizes);
  const texts = latencyTexts(conversations, max);
  const queries = latencyQueries(conversations, task.queries);
  const embedder = mockEmbedder(task);
  const engine = createMemory({ store: openSqliteStore({ path: join(task.dir, 'engram-latency.db') }), embedder });
  const queryVectors = await localEmbedder.embed(queries);
  const points = [];
  let stored = 0;
  for (const size of task.sizes) {
    const t0 = performance.now();
    for (; stored < size; stored++) await engine.add({ userId: USER, content: texts[stored]!, kind: 'fact' });
    const populateMs = performance.now() - t0;
    const floor = createFloor(await localEmbedder.embed(texts.slice(0, size)));
    const search = (recipe: RecipeName) => (q: string) => engine.recall({ userId: USER, query: q, limit: 10, recipe });
    // Warm-up: the first calls pay for statement preparation and JIT.
    for (const q of queries.slice(0, WARM_UP)) await engine.recall({ userId: USER, query: q, limit: 10 });
    for (const v of queryVectors.slice(0, WARM_UP)) floor(v, 10);
    points.push({
      size,
      populateMs,
      search: await timeRounds(queries, task.rounds, search('hybrid')),
      searchVectorOnly: await timeRounds(queries, task.rounds, search('vector')),
      embedQuery: await timeRounds(queries, task.rounds, (q) => embedder.embed([q])),
      floor: await timeRounds(queryVectors, task.rounds, (v) => floor(v, 10)),
      rssMb: rssMb(),
    });
  }
  await engine.close();
  return { points };
}

type Ranker = (engine: MemoryEngine, c: LocomoConversation, query: string) => Promise<string[]>;

/** One engine per conversation (one user's pool), every turn stored raw, every question searched by each ranker. */
async function rankConversations(conversations: readonly LocomoConversation[], embedder: Embedder, store: 'memories' | 'messages', rankers: Record<string, Ranker>) {
  const rows: Record<string, Array<{ category: number; recall: Record<number, number> }>> = Object.fromEntries(Object.keys(rankers).map((n) => [n, []]));
  for (const c of conversations) {
    const engine = createMemory({ store: openSqliteStore({ path: ':memory:' }), embedder, clock: fixedClock('2024-01-01T00:00:00Z') });
    if (store === 'messages') {
      await engine.appendMessages({
        messages: c.turns.map((t) => ({ id: t.id, userId: c.sampleId, sessionId: t.sessionId, role: t.speaker === c.speakers[0] ? ('user' as const) : ('assistant' as const), content: t.content, createdAt: t.createdAt })),
        retentionDays: 365 * 1000,
      });
    } else {
      // Stored by hand, no extraction: each turn one memory, as mem0 does with infer: false.
      for (const t of c.turns) await engine.add({ userId: c.sampleId, content: t.content, kind: 'fact', createdAt: t.createdAt, provenance: { messageIds: [t.id] } });
    }
    for (const q of c.questions) {
      for (const [name, rank] of Object.entries(rankers)) {
        const ranked = await rank(engine, c, q.question);
        rows[name]!.push({ category: q.category, recall: Object.fromEntries(KS.map((k) => [k, recallAt(ranked, q.evidence, k)])) });
      }
    }
    await engine.close();
  }
  return Object.fromEntries(Object.entries(rows).map(([name, r]) => [name, summariseRecall(r)]));
}

async function ranking(task: Extract<PeerTask, { scenario: 'ranking' }>): Promise<unknown> {
  const conversations = loadLocomo().filter((c) => task.conversations.includes(c.index));
  const mock = mockEmbedder(task);
  const fromMemories = (recipe: RecipeName, config?: RecallConfigInput): Ranker => async (engine, c, query) =>
    (await engine.recall({ userId: c.sampleId, query, limit: 50, recipe, touch: false, ...(config ? { config } : {}) })).map((r) => r.memory.provenance.messageIds[0]!);
  // One line per change of issue 15: the default before it (seed 004's sum, no date matching, no
  // expansion, recency 0.2), then each lever added, the last being today's default.
  const seed: RecallConfigInput = { weights: { relevance: 0.6, recency: 0.2, importance: 0.2 }, expansion: { docs: 10, terms: 12, weight: 0 } };
  const before: RecallConfigInput = { ...seed, combine: 'sum', dateMatch: { weight: 0, slackDays: 14 } };
  const fromMessages: Ranker = async (engine, c, query) => (await engine.searchMessages({ userId: c.sampleId, query, limit: 50 })).map((f) => f.message.id);
  const t0 = performance.now();
  // Pure cosine (no recency, no importance): the same ranking as mem0 2.x, a check that both see the same vectors.
  const cosine: Ranker = async (engine, c, query) =>
    (await engine.recall({ userId: c.sampleId, query, limit: 50, touch: false, config: { methods: ['vector'], weights: { relevance: 1, recency: 0, importance: 0 } } })).map((r) => r.memory.provenance.messageIds[0]!);
  const memories = await rankConversations(conversations, mock, 'memories', {
    'memories-cosine': cosine,
    'memories-vector': fromMemories('vector'),
    'memories-hybrid (before: sum, no dates)': fromMemories('hybrid', before),
    'memories-hybrid + date matching': fromMemories('hybrid', { ...seed, combine: 'sum' }),
    'memories-hybrid + product combination': fromMemories('hybrid', seed),
    'memories-hybrid + query expansion': fromMemories('hybrid', { weights: seed.weights }),
    'memories-hybrid': fromMemories('hybrid'),
  });
  const messages = await rankConversations(conversations, mock, 'messages', { 'messages-default': fromMessages });
  // For reference: Engram's own default, raw messages with its bundled embedder (vectors cached in bench/.cache).
  const bundled = await rankConversations(conversations, createCachedEmbedder({ inner: createBundledEmbedder() }), 'messages', { 'messages-default-bundled': fromMessages });
  return { variants: { ...memories, ...messages, ...bundled }, wallMs: performance.now() - t0 };
}

const task = readTask();
const run = { ingest, latency, ranking }[task.scenario] as (t: PeerTask) => Promise<unknown>;
printResult(await run(task));
