/**
 * Fits the calibrated-relevance curve (src/recall/calibration.ts) on LoCoMo conversations 0-4
 * ONLY: every candidate turn of every question is a labelled pair (evidence or not) with its
 * cosine and keyword coverage; a logistic regression with the two classes weighed equally
 * (Newton's method) gives the constants. Then reports recall@k of the fitted curve on 0-4 and on
 * the held-out 5-9, next to z-score fusion, and how relevance is spread for evidence and others.
 *
 * Run: LOCOMO_PATH=… npx tsx bench/fit-calibration.ts
 */
import type { Calibration } from '../src/recall/calibration.js';
import { loadLocomo } from './locomo-data.js';
import { benchEmbedder, evaluate, KS, meanRecall, openPools, inSplit, type Pool } from './locomo.js';
import { table } from './report.js';

interface Pair {
  x: [number, number, number];
  y: 0 | 1;
}

async function collectPairs(pools: readonly Pool[]): Promise<Pair[]> {
  const pairs: Pair[] = [];
  for (const { conversation, engine } of pools) {
    for (const q of conversation.questions) {
      const evidence = new Set(q.evidence);
      const found = await engine.searchMessages({ userId: conversation.sampleId, query: q.question, limit: 500 });
      for (const f of found) pairs.push({ x: [1, f.score.vector ?? 0, f.score.coverage ?? 0], y: evidence.has(f.message.id) ? 1 : 0 });
    }
  }
  return pairs;
}

/** Class-balanced logistic regression by Newton's method (3 parameters, so the Hessian is 3×3). */
export function fitLogistic(pairs: readonly Pair[], iterations = 25, ridge = 1e-3): number[] {
  const pos = pairs.filter((p) => p.y === 1).length;
  const neg = pairs.length - pos;
  const weightOf = (y: number): number => (y === 1 ? pairs.length / (2 * pos) : pairs.length / (2 * neg));
  let w = [0, 0, 0];
  for (let it = 0; it < iterations; it++) {
    const g = [0, 0, 0];
    const h = [
      [ridge, 0, 0],
      [0, ridge, 0],
      [0, 0, ridge],
    ];
    for (const { x, y } of pairs) {
      const p = 1 / (1 + Math.exp(-(w[0]! * x[0] + w[1]! * x[1] + w[2]! * x[2])));
      const c = weightOf(y);
      for (let i = 0; i < 3; i++) {
        g[i]! += c * (p - y) * x[i]!;
        for (let j = 0; j < 3; j++) h[i]![j]! += c * p * (1 - p) * x[i]! * x[j]!;
      }
    }
    w = w.map((wi, i) => wi - solve3(h, g)[i]!);
  }
  return w;
}

function solve3(a: number[][], b: number[]): number[] {
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < 3; c++) {
    const p = m.slice(c).reduce((best, row, i) => (Math.abs(row[c]!) > Math.abs(m[best]![c]!) ? c + i : best), c);
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = 0; r < 3; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k < 4; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[3]! / row[i]!);
}

const quantile = (xs: number[], q: number): number => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;

async function main(): Promise<void> {
  const data = loadLocomo();
  const pools = await openPools(data, benchEmbedder(console.log));
  const tune = pools.filter((p) => p.conversation.index <= 4);
  const pairs = await collectPairs(tune);
  const [intercept, vector, keyword] = fitLogistic(pairs).map((x) => Math.round(x * 100) / 100) as [number, number, number];
  const fitted: Calibration = { intercept, vector, keyword };
  console.log(`pairs ${pairs.length} (evidence ${pairs.filter((p) => p.y).length}); fitted`, JSON.stringify(fitted));
  const rel = (p: Pair): number => 1 / (1 + Math.exp(-(intercept + vector * p.x[1] + keyword * p.x[2])));
  const spread = (xs: number[]): string => [0.1, 0.5, 0.9].map((q) => quantile(xs, q).toFixed(2)).join(' / ');
  console.log(`relevance p10/p50/p90: evidence ${spread(pairs.filter((p) => p.y).map(rel))}, others ${spread(pairs.filter((p) => !p.y).map(rel))}`);

  const rows: string[][] = [];
  for (const [label, config] of [
    ['zscore (previous default)', { fusion: 'zscore' as const }],
    ['calibrated, fitted', { fusion: 'calibrated' as const, calibration: fitted }],
  ] as const) {
    const results = await evaluate(pools, { config });
    for (const split of ['tune', 'heldOut'] as const) rows.push([label, split, ...KS.map((k) => (meanRecall(results, k, inSplit(split)).mean * 100).toFixed(1))]);
  }
  console.log(table(['fusion', 'split', ...KS.map((k) => `R@${k}`)], rows));
  await Promise.all(pools.map((p) => p.engine.close()));
}

await main();
