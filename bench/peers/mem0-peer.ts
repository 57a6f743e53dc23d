/**
 * mem0 as a benchmark peer, in its own process: `tsx mem0-peer.ts <v2|v3> '<task json>'`.
 * mem0 is loaded from bench/peers/mem0-<version>/node_modules (never a dependency of Engram),
 * configured against the mock server with local SQLite vector and history stores, telemetry off.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadLocomo } from '../locomo-data.js';
import {
  WARM_UP, createFloor, KS, latencyQueries, latencyTexts, loadRawLocomo, localEmbedder, printResult, recallAt, replaySessions, rssMb,
  summariseRecall, timeRounds, type PeerTask, type ServerRef,
} from './peer-common.js';
import { MOCK_DIMENSIONS } from './mock-llm-server.js';

process.env['MEM0_TELEMETRY'] = 'false';

const version = process.argv[2] as 'v2' | 'v3';
const task = JSON.parse(process.argv[3]!) as PeerTask;
const USER = 'bench-user';
const BATCH = 100;

interface Found {
  memory: string;
  metadata?: Record<string, unknown>;
}
/** What the benchmark needs of mem0, over the API differences between 2.x and 3.x. */
interface Mem0Peer {
  add(messages: Array<{ role: string; content: string }>, o: { userId: string; infer?: boolean; metadata?: Record<string, unknown> }): Promise<unknown>;
  /** `all`: no score threshold (mem0 3.x drops results under 0.1 by default), for ranking. */
  search(query: string, userId: string, k: number, all?: boolean): Promise<Found[]>;
  count(userId: string): Promise<number>;
  embed(text: string): Promise<number[]>;
}

// mem0 is loaded at run time from a separate package, so it is untyped here (any).
async function loadMem0(): Promise<{ Memory: any; version: string }> {
  const require = createRequire(join(import.meta.dirname, `mem0-${version}`, 'package.json'));
  const entry = require.resolve('mem0ai/oss');
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, `mem0-${version}`, 'node_modules', 'mem0ai', 'package.json'), 'utf8')) as { version: string };
  const mod = (await import(pathToFileURL(entry).href)) as any;
  return { Memory: mod.Memory ?? mod.default?.Memory, version: pkg.version };
}

async function openPeer(server: ServerRef, name: string): Promise<Mem0Peer> {
  const { Memory } = await loadMem0();
  const memory = new Memory({
    embedder: { provider: 'openai', config: { apiKey: server.apiKey, baseURL: server.baseURL, url: server.baseURL, model: 'mock-embed', embeddingDims: MOCK_DIMENSIONS } },
    vectorStore: { provider: 'memory', config: { collectionName: 'memories', dimension: MOCK_DIMENSIONS, dbPath: join(server.dir, `${name}-vectors.db`) } },
    llm: { provider: 'openai', config: { apiKey: server.apiKey, baseURL: server.baseURL, model: 'mock-chat' } },
    historyDbPath: join(server.dir, `${name}-history.db`),
  });
  const list = (r: any): any[] => (Array.isArray(r) ? r : r?.results ?? []);
  if (version === 'v2') {
    return {
      add: (messages, o) => memory.add(messages, o),
      search: async (query, userId, k) => list(await memory.search(query, { userId, limit: k })),
      count: async (userId) => list(await memory.getAll({ userId, limit: 1_000_000 })).length,
      embed: (text) => memory.embedder.embed(text),
    };
  }
  return {
    add: (messages, o) => memory.add(messages, o),
    search: async (query, userId, k, all) => list(await memory.search(query, { filters: { user_id: userId }, topK: k, ...(all ? { threshold: 0 } : {}) })),
    count: async (userId) => list(await memory.getAll({ filters: { user_id: userId }, topK: 1_000_000 })).length,
    embed: (text) => memory.embedder.embed(text),
  };
}

async function ingest(t: Extract<PeerTask, { scenario: 'ingest' }>): Promise<unknown> {
  const raw = loadRawLocomo();
  const t0 = performance.now();
  let userMessages = 0;
  let messages = 0;
  let memories = 0;
  let adds = 0;
  const perConversation = [];
  for (const c of t.conversations) {
    const peer = await openPeer(t, `ingest-${c}`);
    const sessions = replaySessions(raw[c]!, t.maxSessions);
    for (const session of sessions) {
      for (const exchange of session.exchanges) {
        userMessages += exchange.filter((m) => m.role === 'user').length;
        messages += exchange.length;
        // add() after every exchange, as mem0's docs show for a chat loop.
        await peer.add(exchange.map((m) => ({ role: m.role, content: m.content })), { userId: USER });
        adds++;
      }
    }
    const stored = await peer.count(USER);
    memories += stored;
    perConversation.push({ conversation: c, sessions: sessions.length, memories: stored });
  }
  return { wallMs: performance.now() - t0, userMessages, messages, memories, adds, perConversation, rssMb: rssMb() };
}

async function latency(t: Extract<PeerTask, { scenario: 'latency' }>): Promise<unknown> {
  const conversations = loadLocomo();
  const texts = latencyTexts(conversations, Math.max(...t.sizes));
  const queries = latencyQueries(conversations, t.queries);
  const queryVectors = await localEmbedder.embed(queries);
  const peer = await openPeer(t, 'latency');
  const points = [];
  let stored = 0;
  for (const size of t.sizes) {
    const t0 = performance.now();
    // 100 messages per add(): with infer: false mem0 stores each message as one memory (embedded one by one).
    for (; stored < size; stored += Math.min(BATCH, size - stored)) {
      await peer.add(texts.slice(stored, Math.min(stored + BATCH, size)).map((content) => ({ role: 'user', content })), { userId: USER, infer: false });
    }
    const populateMs = performance.now() - t0;
    const floor = createFloor(await localEmbedder.embed(texts.slice(0, size)));
    for (const q of queries.slice(0, WARM_UP)) await peer.search(q, USER, 10);
    for (const v of queryVectors.slice(0, WARM_UP)) floor(v, 10);
    points.push({
      size,
      populateMs,
      search: await timeRounds(queries, t.rounds, (q) => peer.search(q, USER, 10)),
      embedQuery: await timeRounds(queries, t.rounds, (q) => peer.embed(q)),
      floor: await timeRounds(queryVectors, t.rounds, (v) => floor(v, 10)),
      rssMb: rssMb(),
    });
  }
  return { points };
}

async function ranking(t: Extract<PeerTask, { scenario: 'ranking' }>): Promise<unknown> {
  const conversations = loadLocomo().filter((c) => t.conversations.includes(c.index));
  const t0 = performance.now();
  const rows = [];
  const detail: Array<{ conversation: number; question: number; ranked: string[] }> = [];
  for (const c of conversations) {
    const peer = await openPeer(t, `rank-${c.index}`);
    const byContent = new Map<string, string>();
    for (const turn of c.turns) if (!byContent.has(turn.content)) byContent.set(turn.content, turn.id);
    // Raw turns, no extraction (what isolates ranking), 100 per add(); results map back to turns by their text.
    for (let i = 0; i < c.turns.length; i += BATCH) {
      await peer.add(c.turns.slice(i, i + BATCH).map((t) => ({ role: 'user', content: t.content })), { userId: c.sampleId, infer: false });
    }
    for (const [qi, q] of c.questions.entries()) {
      const found = await peer.search(q.question, c.sampleId, 50, true);
      const ranked = found.map((f) => (typeof f.metadata?.['diaId'] === 'string' ? f.metadata['diaId'] : byContent.get(f.memory) ?? '?'));
      if (t.detail) detail.push({ conversation: c.index, question: qi, ranked });
      rows.push({ category: q.category, recall: Object.fromEntries(KS.map((k) => [k, recallAt(ranked, q.evidence, k)])) });
    }
  }
  return { variants: { 'raw-infer-false': summariseRecall(rows) }, wallMs: performance.now() - t0, ...(t.detail ? { detail } : {}) };
}

const { version: installed } = await loadMem0();
const run = { ingest, latency, ranking }[task.scenario] as (t: PeerTask) => Promise<unknown>;
printResult({ mem0Version: installed, ...((await run(task)) as object) });
