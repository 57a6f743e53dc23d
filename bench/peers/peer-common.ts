/**
 * What every peer child process shares: the task it is given, the LoCoMo replay (exchanges and
 * session times), the texts stored for the latency scenario, timing statistics, the brute-force
 * floor, and the one line of JSON a child prints as its result.
 */
import { createHashEmbedder } from '../../src/embedders/hash-embedder.js';
import { readFileSync } from 'node:fs';
import { locomoPath, parseSessionDate, type LocomoConversation } from '../locomo-data.js';
import { MOCK_DIMENSIONS } from './mock-llm-server.js';

export interface ServerRef {
  baseURL: string;
  /** Tells the mock server whose calls these are. */
  apiKey: string;
  /** A fresh directory for this child's database files. */
  dir: string;
}
export type PeerTask =
  | (ServerRef & { scenario: 'ingest'; conversations: number[]; maxSessions?: number })
  | (ServerRef & { scenario: 'latency'; sizes: number[]; queries: number; rounds: number })
  | (ServerRef & { scenario: 'ranking'; conversations: number[]; variant?: string; /** Also return each question's ranked turn ids. */ detail?: boolean });

export const RESULT_MARK = '@@PEER-RESULT ';
/** Searches run before timing: statement preparation, JIT and caches settle first. */
export const WARM_UP = 10;

export function readTask(): PeerTask {
  const arg = process.argv[2];
  if (!arg) throw new Error('usage: <peer script> <task json>');
  return JSON.parse(arg) as PeerTask;
}

export function printResult(result: unknown): void {
  process.stdout.write(`${RESULT_MARK}${JSON.stringify(result)}\n`);
}

/** One chat message of the replay: speaker A is the user, speaker B the assistant. */
export interface ReplayMessage {
  id: string;
  role: 'user' | 'assistant';
  /** The turn's text (plus the shared image's caption), on one line. */
  content: string;
  at: Date;
}
export interface ReplaySession {
  id: string;
  start: Date;
  /** A user message and the replies after it; a session may open with replies alone. */
  exchanges: ReplayMessage[][];
}

/** Seconds between turns of a session, in simulated time. */
export const TURN_GAP_MS = 30_000;

interface RawLocomo {
  conversation: Record<string, unknown> & { speaker_a: string };
}
interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

/** A LoCoMo conversation as chat sessions, with the session dates it gives. */
export function replaySessions(raw: RawLocomo, maxSessions = Infinity): ReplaySession[] {
  const conv = raw.conversation;
  const numbers = Object.keys(conv)
    .map((k) => /^session_(\d+)$/.exec(k)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b)
    .slice(0, maxSessions);
  return numbers.flatMap((n) => {
    const turns = conv[`session_${n}`];
    const date = conv[`session_${n}_date_time`];
    if (!Array.isArray(turns) || typeof date !== 'string') return [];
    const start = parseSessionDate(date);
    const exchanges: ReplayMessage[][] = [];
    (turns as RawTurn[]).forEach((t, i) => {
      const role = t.speaker === conv.speaker_a ? 'user' : 'assistant';
      const text = `${t.text}${t.blip_caption ? ` [shares a photo: ${t.blip_caption}]` : ''}`.replace(/\s+/g, ' ').trim();
      const message: ReplayMessage = { id: t.dia_id, role, content: text, at: new Date(start.getTime() + i * TURN_GAP_MS) };
      const current = exchanges.at(-1);
      // A user message after a reply opens the next exchange.
      if (!current || (role === 'user' && current.some((m) => m.role === 'assistant'))) exchanges.push([message]);
      else current.push(message);
    });
    return [{ id: `session_${n}`, start, exchanges }];
  });
}

/** The raw dataset (for the replay, which needs session dates and speakers as given). */
export function loadRawLocomo(path = locomoPath()): RawLocomo[] {
  return JSON.parse(readFileSync(path, 'utf8')) as RawLocomo[];
}

/**
 * The memories of the latency scenario: LoCoMo's turns across all conversations as statements
 * of one user, repeated with a round marker past 5,882 so every text (and vector) differs.
 */
export function latencyTexts(conversations: readonly LocomoConversation[], n: number): string[] {
  const turns = conversations.flatMap((c) => c.turns.map((t) => t.content));
  return Array.from({ length: n }, (_, i) => (i < turns.length ? turns[i]! : `${turns[i % turns.length]!} (round ${Math.floor(i / turns.length) + 1})`));
}

/** The queries of the latency scenario: LoCoMo questions, spread over the conversations. */
export function latencyQueries(conversations: readonly LocomoConversation[], n: number): string[] {
  const all = conversations.flatMap((c) => c.questions.map((q) => q.question));
  const step = Math.max(1, Math.floor(all.length / n));
  return Array.from({ length: Math.min(n, all.length) }, (_, i) => all[i * step]!);
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  // Nearest rank: p95 of 20 samples is the 19th.
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface Timing {
  p50: number;
  p95: number;
  mean: number;
  n: number;
}
export function timing(samples: readonly number[]): Timing {
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), mean: samples.reduce((a, b) => a + b, 0) / samples.length, n: samples.length };
}

/** Times `fn` once per item, `rounds` times over the items; one Timing per round. */
export async function timeRounds<T>(items: readonly T[], rounds: number, fn: (item: T) => Promise<unknown> | unknown): Promise<Timing[]> {
  const out: Timing[] = [];
  for (let r = 0; r < rounds; r++) {
    const samples: number[] = [];
    for (const item of items) {
      const t0 = performance.now();
      await fn(item);
      samples.push(performance.now() - t0);
    }
    out.push(timing(samples));
  }
  return out;
}

/** The mock server's embedding function, computed locally: the very vectors both systems store. */
export const localEmbedder = createHashEmbedder({ dimensions: MOCK_DIMENSIONS });

/**
 * The physical floor: a plain scan of dot products over the stored vectors in one flat
 * Float32Array, keeping the top k. No index, no I/O, no parsing: what any search costs at least.
 */
export function createFloor(vectors: readonly Float32Array[]): (query: Float32Array, k: number) => number[] {
  const d = MOCK_DIMENSIONS;
  const flat = new Float32Array(vectors.length * d);
  vectors.forEach((v, i) => flat.set(v, i * d));
  return (query, k) => {
    const top: Array<{ i: number; s: number }> = [];
    for (let i = 0; i < vectors.length; i++) {
      let s = 0;
      const base = i * d;
      for (let j = 0; j < d; j++) s += flat[base + j]! * query[j]!;
      if (top.length < k || s > top[top.length - 1]!.s) {
        top.push({ i, s });
        top.sort((a, b) => b.s - a.s);
        if (top.length > k) top.pop();
      }
    }
    return top.map((t) => t.i);
  };
}

export const rssMb = (): number => Math.round((process.memoryUsage().rss / 1048576) * 10) / 10;

/** LoCoMo recall@k of one question: the share of its evidence turns among the top k. */
export function recallAt(ranked: readonly string[], evidence: readonly string[], k: number): number {
  const top = new Set(ranked.slice(0, k));
  return evidence.filter((e) => top.has(e)).length / evidence.length;
}
export const KS = [5, 10, 25, 50] as const;

/** Per-k mean recall, overall and per category. */
export function summariseRecall(rows: ReadonlyArray<{ category: number; recall: Record<number, number> }>): {
  overall: Record<number, number>;
  byCategory: Record<number, Record<number, number>>;
  questions: number;
} {
  const mean = (rs: typeof rows): Record<number, number> => Object.fromEntries(KS.map((k) => [k, rs.reduce((s, r) => s + r.recall[k]!, 0) / rs.length]));
  const categories = [...new Set(rows.map((r) => r.category))].sort();
  return { overall: mean(rows), byCategory: Object.fromEntries(categories.map((c) => [c, mean(rows.filter((r) => r.category === c))])), questions: rows.length };
}
