/**
 * The memories path on LoCoMo (issues 15 and 11 item 4): every turn stored as one memory (no
 * extraction, as mem0 with infer: false), every question recalled with `recall`, recall@k of the
 * evidence turns, per split and per category. The levers of the default recipe are added one at
 * a time, so the table shows what each is worth; MEMORIES_VARIANTS='{"name": {config}}' adds
 * variants (e.g. '{"rm3": {"expansion": {"docs": 10, "terms": 12, "weight": 1}}}').
 *
 * Run: LOCOMO_PATH=… npx tsx bench/memories-path.ts [--hash]
 *   default: the bundled embedder (vectors cached in bench/.cache)
 *   --hash:  the peers run's shared 512-dimension hash embeddings (what mem0 is compared on)
 */
import { createHashEmbedder } from '../src/embedders/hash-embedder.js';
import { RECIPES } from '../src/recall/recipes.js';
import type { RecallConfigInput } from '../src/recall/recall-config.js';
import { CATEGORY_NAMES, loadLocomo } from './locomo-data.js';
import { benchEmbedder, KS } from './locomo.js';
import { MOCK_DIMENSIONS } from './peers/mock-llm-server.js';
import { rankMemories, recallAtK, type MemoriesVariant, type RankedQuestion } from './peers/rank-memories.js';
import { table } from './report.js';

const hash = process.argv.includes('--hash');
const d = RECIPES.hybrid;
// Seed 004's weights, no expansion: the memories default before the levers of 2026-11-25.
const seed: RecallConfigInput = { weights: { relevance: 0.6, recency: 0.2, importance: 0.2 }, expansion: { ...d.expansion, weight: 0 } };
const VARIANTS: Record<string, MemoriesVariant> = {
  'before (sum, no dates)': { config: { ...seed, combine: 'sum', dateMatch: { ...d.dateMatch, weight: 0 } } },
  '+ date matching': { config: { ...seed, combine: 'sum' } },
  '+ product combination': { config: seed },
  '+ query expansion (RM3 10 docs, 12 terms, 1.5)': { config: { weights: seed.weights } },
  '+ recency weight 0.1 (default)': {},
  'relevance only (no recency/importance)': { recipe: 'relevanceOnly' },
  ...Object.fromEntries(Object.entries(JSON.parse(process.env['MEMORIES_VARIANTS'] ?? '{}') as Record<string, RecallConfigInput>).map(([n, c]) => [n, { config: c }])),
};

const data = loadLocomo();
const embedder = hash ? createHashEmbedder({ dimensions: MOCK_DIMENSIONS }) : benchEmbedder();
if (!hash) await embedder.embed(data.flatMap((c) => [...c.turns.map((t) => t.content), ...c.questions.map((q) => q.question.trim())]));
const runs = await rankMemories({ conversations: data, embedder, variants: VARIANTS });

const pct = (x: number): string => (x * 100).toFixed(1);
const mean = (qs: readonly RankedQuestion[], k: number): string => pct(qs.reduce((a, q) => a + recallAtK(q, k), 0) / Math.max(qs.length, 1));
const SPLITS = [['0-4', (q: RankedQuestion) => q.conversation <= 4], ['5-9', (q: RankedQuestion) => q.conversation >= 5]] as const;
console.log(`Embedder: ${embedder.id}\n`);
console.log(table(['memories recipe', 'split', ...KS.map((k) => `R@${k}`)], Object.entries(runs).flatMap(([name, qs]) => SPLITS.map(([label, f]) => [name, label, ...KS.map((k) => mean(qs.filter(f), k))]))));
for (const [label, f] of SPLITS) {
  console.log(`\nR@10 per category, conversations ${label}:`);
  console.log(table(['variant', ...Object.values(CATEGORY_NAMES)], Object.entries(runs).map(([name, qs]) => [name, ...Object.keys(CATEGORY_NAMES).map((c) => mean(qs.filter((q) => f(q) && q.category === Number(c)), 10))])));
}
