/**
 * Tunes the message-search defaults on LoCoMo conversations 0-4 ONLY (coordinate descent over a
 * grid: each parameter in turn takes its best value with the others held), then reports the
 * winner's recall on 0-4 and on the held-out 5-9, which the search never saw.
 *
 * Run: npx tsx bench/tune-locomo.ts [--passes 2] [--metric 10]
 * Writes bench/results/tune-<YYYY-MM-DD>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { RECIPES } from '../src/recall/recipes.js';
import type { RecallConfigInput } from '../src/recall/recall-config.js';
import { loadLocomo, LocomoMissingError } from './locomo-data.js';
import { benchEmbedder, evaluate, KS, meanRecall, openPools, type Pool } from './locomo.js';
import { machine, table } from './report.js';

/** The tuned parameters, flat. */
interface Params {
  vectorWeight: number;
  k1: number;
  b: number;
  radius: number;
  neighbourWeight: number;
  sessionWeight: number;
  sessionTop: number;
  candidates: number;
  dateWeight: number;
  slackDays: number;
  expansionWeight: number;
  questionPenalty: number;
  unmatchedDateWeight: number;
}

const GRID: { [K in keyof Params]: readonly number[] } = {
  vectorWeight: [0.3, 0.4, 0.5, 0.6, 0.7],
  neighbourWeight: [0, 0.15, 0.3, 0.45, 0.6, 0.8],
  sessionWeight: [0, 0.15, 0.3, 0.45, 0.6, 0.8, 1.0],
  b: [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.75],
  candidates: [40, 60, 100, 150, 200],
  k1: [0.8, 1.2, 1.6, 2.0],
  radius: [1, 2],
  sessionTop: [1, 3, 5],
  dateWeight: [0, 1, 2, 3, 4],
  slackDays: [0, 7, 14, 30],
  expansionWeight: [0, 0.25, 0.5, 1],
  questionPenalty: [0, 1, 1.5, 2],
  unmatchedDateWeight: [0, 1, 2, 3],
};

function toConfig(p: Params): RecallConfigInput {
  return {
    methodWeights: { vector: p.vectorWeight, keyword: Math.round((1 - p.vectorWeight) * 100) / 100 },
    bm25: { k1: p.k1, b: p.b },
    conversation: { radius: p.radius, neighbourWeight: p.neighbourWeight, sessionWeight: p.sessionWeight, sessionTop: p.sessionTop, questionPenalty: p.questionPenalty },
    candidates: p.candidates,
    dateMatch: { weight: p.dateWeight, slackDays: p.slackDays, unmatchedWeight: p.unmatchedDateWeight },
    expansion: { ...RECIPES.messages.expansion, weight: p.expansionWeight },
  };
}

function currentDefaults(): Params {
  const d = RECIPES.messages;
  const total = d.methodWeights.vector + d.methodWeights.keyword;
  return {
    vectorWeight: Math.round((d.methodWeights.vector / total) * 100) / 100,
    k1: d.bm25.k1,
    b: d.bm25.b,
    radius: d.conversation.radius,
    neighbourWeight: d.conversation.neighbourWeight,
    sessionWeight: d.conversation.sessionWeight,
    sessionTop: d.conversation.sessionTop,
    candidates: d.candidates,
    dateWeight: d.dateMatch.weight,
    slackDays: d.dateMatch.slackDays,
    expansionWeight: d.expansion.weight,
    questionPenalty: d.conversation.questionPenalty,
    unmatchedDateWeight: d.dateMatch.unmatchedWeight,
  };
}

async function recallAt(pools: readonly Pool[], recipe: 'messages' | 'keyword' | 'vector', p: Params): Promise<Record<number, number>> {
  const rows = await evaluate(pools, { recipe, config: toConfig(p) });
  return Object.fromEntries(KS.map((k) => [k, Math.round(meanRecall(rows, k).mean * 1000) / 10]));
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { passes: { type: 'string', default: '2' }, metric: { type: 'string', default: '10' } } });
  const passes = Number(values.passes);
  const metric = Number(values.metric);
  const data = loadLocomo();
  const embedder = benchEmbedder((line) => console.log(line));
  const tunePools = await openPools(data.slice(0, 5), embedder);
  const start = performance.now();

  const seen = new Map<string, number>();
  const score = async (p: Params): Promise<number> => {
    const key = JSON.stringify(p);
    const cached = seen.get(key);
    if (cached !== undefined) return cached;
    const s = (await recallAt(tunePools, 'messages', p))[metric]!;
    seen.set(key, s);
    console.log(`  R@${metric} ${s.toFixed(1)}  ${key}`);
    return s;
  };

  // The search starts from the shipped defaults (src/recall/recall-config.ts).
  const before = currentDefaults();
  let best = { ...before };
  let bestScore = await score(best);
  for (let pass = 1; pass <= passes; pass++) {
    console.log(`pass ${pass}`);
    let changed = false;
    for (const name of Object.keys(GRID) as Array<keyof Params>) {
      for (const value of GRID[name]) {
        const candidate = { ...best, [name]: value };
        const s = await score(candidate);
        // Ties keep the earlier (current) value: a change must earn its place.
        if (s > bestScore + 1e-9) {
          best = candidate;
          bestScore = s;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }

  console.log('\nbest on conversations 0-4:', JSON.stringify(toConfig(best)));
  const heldPools = await openPools(data.slice(5), embedder);
  const report: Array<{ recipe: string; params: string; tune: Record<number, number>; heldOut: Record<number, number> }> = [];
  for (const recipe of ['messages', 'keyword', 'vector'] as const) {
    for (const [label, p] of [['defaults', before], ['tuned', best]] as const) {
      report.push({ recipe, params: label, tune: await recallAt(tunePools, recipe, p), heldOut: await recallAt(heldPools, recipe, p) });
    }
  }
  const text = table(
    ['recipe', 'params', ...KS.map((k) => `0-4 R@${k}`), ...KS.map((k) => `5-9 R@${k}`)],
    report.map((r) => [r.recipe, r.params, ...KS.map((k) => r.tune[k]!.toFixed(1)), ...KS.map((k) => r.heldOut[k]!.toFixed(1))]),
  );
  console.log(text);
  const seconds = Math.round((performance.now() - start) / 1000);
  console.log(`(${seen.size} configurations, ${seconds} s)`);
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `tune-${new Date().toISOString().slice(0, 10)}.json`);
  writeFileSync(
    path,
    JSON.stringify({ machine: machine(), metric: `R@${metric} hybrid, conversations 0-4`, grid: GRID, before, best, bestConfig: toConfig(best), report, tried: Object.fromEntries(seen), seconds }, null, 2) + '\n',
  );
  console.log(`Wrote ${path}`);
  await Promise.all([...tunePools, ...heldPools].map((p) => p.engine.close()));
}

main().catch((error: unknown) => {
  console.error(error instanceof LocomoMissingError ? error.message : error);
  process.exitCode = 1;
});
