/**
 * Does the context block carry the answer? (issue 17) For each LoCoMo conversation and pool
 * (bench/context-pools.ts), `context({ userId, query: question })` at 800 and 1,500 tokens with
 * excerpts on and off; a question's evidence recall is the share of its evidence turns the block
 * cites (memories through their provenance, excerpts through their turns). Tuned on
 * conversations 0–4, reported on 5–9. Also: tokens spent on questions unrelated to the pool, the
 * message search's own R@10 / R@25 for comparison, context build latency at 10,000 memories +
 * 50,000 messages, and the heuristic extractor's precision, recall and coverage.
 */
import type { ContextRankingInput } from '../src/context/rank-evidence.js';
import { benchEmbedder } from './locomo.js';
import { CATEGORY_NAMES, loadLocomo } from './locomo-data.js';
import { loadObservations, openContextPools, ownWords, POOLS, type ContextPools, type PoolName } from './context-pools.js';
import { measureContextLatency, type ContextLatency } from './context-latency.js';
import { measureExtractor, type ExtractorFigures } from './context-extractor.js';
import { pct, table } from './report.js';

export const BUDGETS = [800, 1500] as const;
export const EXCERPT_MODES = ['off', 'auto'] as const;
export const HELD_OUT = [5, 6, 7, 8, 9];
export const TUNING = [0, 1, 2, 3, 4];

/** Questions about nothing in any LoCoMo conversation, in both languages. */
export const UNRELATED = [
  'How do I configure a Kubernetes ingress controller with TLS?',
  'What is the time complexity of Dijkstra with a Fibonacci heap?',
  'Explain asymptotic freedom in quantum chromodynamics.',
  'Which SQL isolation level prevents phantom reads?',
  'How many moons does Neptune have?',
  'Write a regular expression that validates an IPv6 address.',
  'What does the Rust borrow checker complain about in this closure?',
  'Convert 350 degrees Fahrenheit to Celsius.',
  '帮我解释一下量子色动力学里的渐近自由',
  'Kubernetes 的 Ingress 怎么配置 TLS 证书？',
  '迪杰斯特拉算法用斐波那契堆的时间复杂度是多少？',
  '海王星有多少颗卫星？',
  '怎么用正则表达式校验 IPv6 地址？',
  '数据库的可重复读隔离级别能防止幻读吗？',
  '增值税专用发票怎么认证抵扣？',
  '华氏350度是多少摄氏度？',
];

export interface Cell {
  /** Mean evidence recall in %, over the questions of the split. */
  recall: number;
  byCategory: Record<string, number>;
  meanTokens: number;
  /** Mean memories and excerpts in the block. */
  memories: number;
  excerpts: number;
}

export interface ContextBenchResult {
  conversations: number[];
  questions: number;
  memories: Record<PoolName, number>;
  /** pool -> excerpts mode -> budget -> figures. */
  cells: Record<string, Record<string, Record<number, Cell>>>;
  /** pool -> excerpts mode -> mean tokens at 800 on unrelated questions. */
  unrelatedTokens: Record<string, Record<string, number>>;
  searchMessages: { r10: number; r25: number };
  latency?: ContextLatency;
  extractor?: ExtractorFigures;
  seconds: number;
}

export interface ContextBenchOptions {
  conversations?: readonly number[];
  ranking?: ContextRankingInput;
  /** Skip the latency and extractor parts (for tuning). */
  recallOnly?: boolean;
  /** Pools to measure. @default all three */
  pools?: readonly PoolName[];
  /** Excerpt modes to measure. @default both */
  modes?: ReadonlyArray<(typeof EXCERPT_MODES)[number]>;
  log?: (line: string) => void;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);

export async function runContextBench(options: ContextBenchOptions = {}): Promise<{ result: ContextBenchResult; text: string }> {
  const log = options.log ?? ((line: string) => console.log(line));
  const started = performance.now();
  const chosen = options.conversations ?? HELD_OUT;
  const data = loadLocomo().filter((c) => chosen.includes(c.index));
  const observations = loadObservations();
  const embedder = benchEmbedder(log);
  // Everything embedded in one call first: the cache sorts by length and batches across conversations.
  await embedder.embed([
    ...data.flatMap((c) => [...c.turns.map(ownWords), ...c.questions.map((q) => q.question.trim()), ...observations[c.index]!.map((o) => o.fact)]),
    ...UNRELATED,
  ]);
  const pools: ContextPools[] = [];
  for (const c of data) {
    log(`  conversation ${c.index}: ${c.turns.length} turns, ${c.questions.length} questions`);
    pools.push(await openContextPools(c, observations[c.index]!, embedder));
  }
  type Row = { category: number; recall: number; tokens: number; memories: number; excerpts: number };
  const rows: Record<string, Row[]> = {};
  const unrelated: Record<string, number[]> = {};
  const search: Array<{ r10: number; r25: number }> = [];
  for (const p of pools) {
    for (const q of p.conversation.questions) {
      const found = await p.engine.searchMessages({ userId: p.userOf.offline, query: q.question, limit: 25 });
      const rank = new Map(found.map((f, i) => [f.message.id, i]));
      const share = (k: number): number => q.evidence.filter((id) => (rank.get(id) ?? Infinity) < k).length / q.evidence.length;
      search.push({ r10: share(10), r25: share(25) });
    }
    for (const pool of options.pools ?? POOLS) {
      for (const excerpts of options.modes ?? EXCERPT_MODES) {
        for (const budget of BUDGETS) {
          const key = `${pool}|${excerpts}|${budget}`;
          for (const q of p.conversation.questions) {
            const block = await p.engine.context({ userId: p.userOf[pool], query: q.question, tokenBudget: budget, excerpts, ...(options.ranking ? { ranking: options.ranking } : {}) });
            const cited = new Set(block.included.flatMap((i) => (i.type === 'excerpt' ? (i.messageIds ?? []) : i.type === 'memory' ? (p.cites.get(i.id) ?? []) : [])));
            (rows[key] ??= []).push({
              category: q.category,
              recall: q.evidence.filter((id) => cited.has(id)).length / q.evidence.length,
              tokens: block.tokens,
              memories: block.included.filter((i) => i.type === 'memory').length,
              excerpts: block.included.filter((i) => i.type === 'excerpt').length,
            });
          }
          if (budget === 800) {
            for (const query of UNRELATED) {
              const block = await p.engine.context({ userId: p.userOf[pool], query, tokenBudget: budget, excerpts, ...(options.ranking ? { ranking: options.ranking } : {}) });
              (unrelated[`${pool}|${excerpts}`] ??= []).push(block.tokens);
            }
          }
        }
      }
    }
  }
  const cells: ContextBenchResult['cells'] = {};
  for (const [key, list] of Object.entries(rows)) {
    const [pool, excerpts, budget] = key.split('|') as [string, string, string];
    const byCategory = Object.fromEntries(
      Object.entries(CATEGORY_NAMES).map(([code, name]) => [name, round1(100 * mean(list.filter((r) => r.category === Number(code)).map((r) => r.recall)))]),
    );
    ((cells[pool] ??= {})[excerpts] ??= {})[Number(budget)] = {
      recall: round1(100 * mean(list.map((r) => r.recall))),
      byCategory,
      meanTokens: Math.round(mean(list.map((r) => r.tokens))),
      memories: round1(mean(list.map((r) => r.memories))),
      excerpts: round1(mean(list.map((r) => r.excerpts))),
    };
  }
  const unrelatedTokens: ContextBenchResult['unrelatedTokens'] = {};
  for (const [key, list] of Object.entries(unrelated)) {
    const [pool, excerpts] = key.split('|') as [string, string];
    (unrelatedTokens[pool] ??= {})[excerpts] = Math.round(mean(list));
  }
  const memories = Object.fromEntries(POOLS.map((pool) => [pool, pools.reduce((a, p) => a + p.memories[pool], 0)])) as Record<PoolName, number>;
  await Promise.all(pools.map((p) => p.engine.close()));
  const result: ContextBenchResult = {
    conversations: [...chosen],
    questions: data.reduce((a, c) => a + c.questions.length, 0),
    memories,
    cells,
    unrelatedTokens,
    searchMessages: { r10: round1(100 * mean(search.map((s) => s.r10))), r25: round1(100 * mean(search.map((s) => s.r25))) },
    seconds: 0,
  };
  if (!options.recallOnly) {
    log('  extractor: labelled set and LoCoMo coverage');
    result.extractor = await measureExtractor({ conversations: data, observations });
    log('  latency: 10,000 memories + 50,000 messages');
    result.latency = await measureContextLatency();
  }
  result.seconds = Math.round((performance.now() - started) / 100) / 10;
  return { result, text: formatContextBench(result) };
}

const POOL_LABEL: Record<PoolName, string> = {
  offline: 'offline default (heuristic extraction)',
  turns: 'every turn stored as a memory',
  observations: "LoCoMo's observations as memories",
};

export function formatContextBench(r: ContextBenchResult): string {
  const lines = [`Evidence recall of the context block (%), LoCoMo conversations ${r.conversations.join(', ')} (${r.questions} questions); memories: ${POOLS.map((p) => `${p} ${r.memories[p]}`).join(', ')}`, ''];
  const rows: string[][] = [];
  for (const pool of POOLS) {
    for (const mode of EXCERPT_MODES) {
      const c = r.cells[pool]?.[mode];
      if (!c) continue;
      rows.push([POOL_LABEL[pool], mode === 'auto' ? 'on' : 'off', ...BUDGETS.flatMap((b) => [pct(c[b]!.recall), `${c[b]!.meanTokens}`]), `${r.unrelatedTokens[pool]?.[mode] ?? '-'}`]);
    }
  }
  rows.push(['`searchMessages` hybrid, same turns', '-', `R@10 ${pct(r.searchMessages.r10)}`, '-', `R@25 ${pct(r.searchMessages.r25)}`, '-', '-']);
  lines.push(table(['pool', 'excerpts', 'recall @800', 'mean tokens', 'recall @1500', 'mean tokens', 'tokens, unrelated questions @800'], rows));
  lines.push('', 'Per category (recall @800 / @1500):', '');
  const cats = Object.values(CATEGORY_NAMES);
  const catRows: string[][] = [];
  for (const pool of POOLS) {
    for (const mode of EXCERPT_MODES) {
      const c = r.cells[pool]?.[mode];
      if (c) catRows.push([`${pool}, excerpts ${mode === 'auto' ? 'on' : 'off'}`, ...cats.map((name) => `${pct(c[800]!.byCategory[name]!)} / ${pct(c[1500]!.byCategory[name]!)}`)]);
    }
  }
  lines.push(table(['pool', ...cats], catRows));
  if (r.latency) {
    const l = r.latency;
    lines.push('', `Context build, one user with ${l.memories} memories + ${l.messages} messages, ${l.queries} queries, query vector precomputed: p50 ${l.p50} ms, p95 ${l.p95} ms (query embedding with the bundled model adds about ${l.embedMs} ms)`);
  }
  if (r.extractor) {
    const e = r.extractor;
    lines.push('', 'Heuristic extractor on the labelled set (test/fixtures/extraction-labelled.ts):', '');
    lines.push(table(['language', 'turns', 'expected memories', 'extracted', 'precision', 'recall'], e.labelled.map((x) => [x.language, String(x.turns), String(x.expected), String(x.extracted), pct(x.precision), pct(x.recall)])));
    lines.push('', `Coverage of LoCoMo user-side observations (the share whose source turn some memory cites): ${pct(e.coverage)} of ${e.observations}`);
  }
  return lines.join('\n');
}
