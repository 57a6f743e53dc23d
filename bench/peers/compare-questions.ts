/**
 * Per-question comparison of the memories path with mem0 3.x (issue 15, item 1), on the peers
 * ranking scenario: LoCoMo conversations 0–4 (the tuning half), every turn one memory, the shared
 * hash embeddings. For each evidence turn one system has in its top 10 and the other does not,
 * it names the score part responsible on Engram's side by re-ranking the same candidates with one
 * part changed at a time:
 *   not a candidate   neither vector nor keyword search returned the turn (candidates, stemming, stop words)
 *   recency/importance  ranked by relevance alone it would be in the top 10
 *   fusion weights    with the keyword side weighed as fitted on the peers' vectors it would be
 *   date              with date matching it would be
 *   calibration       ranked 11–50 on relevance: the distractors share more words with the question
 *
 * Run: LOCOMO_PATH=… npx tsx bench/peers/compare-questions.ts [--baseline '<config json>']
 * Writes bench/results/<date>-memories-path-analysis.md. mem0's rankings are cached (mem0-rankings.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHashEmbedder } from '../../src/embedders/hash-embedder.js';
import type { RecallConfigInput } from '../../src/recall/recall-config.js';
import { CATEGORY_NAMES, loadLocomo } from '../locomo-data.js';
import { table } from '../report.js';
import { mem0Rankings } from './mem0-rankings.js';
import { MOCK_DIMENSIONS } from './mock-llm-server.js';
import { rankMemories, recallAtK, type RankedQuestion } from './rank-memories.js';

const TUNE = [0, 1, 2, 3, 4];
const ALL = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const args = process.argv.slice(2);
const baselineArg = args.includes('--baseline') ? args[args.indexOf('--baseline') + 1] : undefined;
/** The memories path as it was before this analysis: no date matching, the calibration fitted on messages. */
const BASELINE: RecallConfigInput = baselineArg ? (JSON.parse(baselineArg) as RecallConfigInput) : { dateMatch: { weight: 0, slackDays: 14 }, calibration: { intercept: -4.08, vector: 8.33, keyword: 6.96 } };
const relevanceOnly = { weights: { relevance: 1, recency: 0, importance: 0 } };

const log = (l: string): void => void process.stderr.write(`${l}\n`);
const data = loadLocomo().filter((c) => TUNE.includes(c.index));
const mem0 = (await mem0Rankings(ALL, log)).filter((r) => TUNE.includes(r.conversation));
const mem0Of = new Map(mem0.map((r) => [`${r.conversation}/${r.question}`, r.ranked]));
log('ranking the memories path under each variant');
const runs = await rankMemories({
  conversations: data,
  embedder: createHashEmbedder({ dimensions: MOCK_DIMENSIONS }),
  variants: {
    baseline: { config: BASELINE },
    relevance: { config: { ...BASELINE, ...relevanceOnly } },
    keyword: { config: { ...BASELINE, ...relevanceOnly, calibration: { intercept: -4.08, vector: 8.33, keyword: 12 } } },
    date: { config: { ...BASELINE, ...relevanceOnly, dateMatch: { weight: 2, slackDays: 14 } } },
  },
});
const key = (q: RankedQuestion): string => `${q.conversation}/${q.question}`;
const byVariant = Object.fromEntries(Object.entries(runs).map(([v, qs]) => [v, new Map(qs.map((q) => [key(q), q]))]));
const rankOf = (ranked: readonly string[], id: string): number => {
  const i = ranked.indexOf(id);
  return i < 0 ? Infinity : i;
};

const CAUSES = ['not a candidate', 'recency/importance', 'fusion weights', 'date', 'calibration'] as const;
type Cause = (typeof CAUSES)[number];
function cause(k: string, evidence: string): Cause {
  const base = byVariant['baseline']!.get(k)!;
  if (rankOf(base.ranked, evidence) === Infinity) return 'not a candidate';
  if (rankOf(byVariant['relevance']!.get(k)!.ranked, evidence) < 10) return 'recency/importance';
  if (rankOf(byVariant['keyword']!.get(k)!.ranked, evidence) < 10) return 'fusion weights';
  if (rankOf(byVariant['date']!.get(k)!.ranked, evidence) < 10) return 'date';
  return 'calibration';
}

const perCategory = new Map<number, { n: number; engram: number; mem0: number; losses: Record<Cause, number>; wins: number }>();
const lossExamples: string[][] = [];
const winExamples: string[][] = [];
for (const q of runs['baseline']!) {
  const k = key(q);
  const theirs = mem0Of.get(k);
  if (!theirs) continue;
  const row = perCategory.get(q.category) ?? { n: 0, engram: 0, mem0: 0, losses: Object.fromEntries(CAUSES.map((c) => [c, 0])) as Record<Cause, number>, wins: 0 };
  row.n++;
  row.engram += recallAtK(q, 10);
  row.mem0 += recallAtK({ ranked: theirs, evidence: q.evidence }, 10);
  for (const e of q.evidence) {
    const ours = rankOf(q.ranked, e);
    const their = rankOf(theirs, e);
    if (their < 10 && ours >= 10) {
      const c = cause(k, e);
      row.losses[c]++;
      if (lossExamples.length < 25) lossExamples.push([`${k}`, CATEGORY_NAMES[q.category]!, q.text, e, String(ours === Infinity ? '—' : ours + 1), String(their + 1), c]);
    } else if (ours < 10 && their >= 10) {
      row.wins++;
      if (winExamples.length < 15) winExamples.push([`${k}`, CATEGORY_NAMES[q.category]!, q.text, e, String(ours + 1), String(their === Infinity ? '—' : their + 1)]);
    }
  }
  perCategory.set(q.category, row);
}

const pct = (x: number, n: number): string => ((100 * x) / Math.max(n, 1)).toFixed(1);
const cats = [...perCategory.entries()].sort((a, b) => a[0] - b[0]);
const total = cats.reduce(
  (a, [, r]) => ({ n: a.n + r.n, engram: a.engram + r.engram, mem0: a.mem0 + r.mem0, wins: a.wins + r.wins, losses: Object.fromEntries(CAUSES.map((c) => [c, a.losses[c] + r.losses[c]])) as Record<Cause, number> }),
  { n: 0, engram: 0, mem0: 0, wins: 0, losses: Object.fromEntries(CAUSES.map((c) => [c, 0])) as Record<Cause, number> },
);
const lossSum = (r: { losses: Record<Cause, number> }): number => CAUSES.reduce((a, c) => a + r.losses[c], 0);
const date = new Date().toISOString().slice(0, 10);
const md = [
  `# The memories path against mem0 3.x, question by question (${date})`,
  '',
  'Peers ranking scenario on LoCoMo conversations 0–4 (the tuning half): every turn stored as one memory, the same 512-dimension hash embeddings for both systems, mem0 3.3.1 with `infer: false` and threshold 0, Engram `recall` with the memories path as it was before this work (`--baseline`: ' +
    `\`${JSON.stringify(BASELINE)}\`` + '). Produced by `npx tsx bench/peers/compare-questions.ts`.',
  '',
  '## R@10 per category, and evidence turns won and lost',
  '',
  'Lost: mem0 has the evidence turn in its top 10, Engram does not; won: the other way round. Each loss is attributed to the first score part that, changed alone, brings the turn into Engram\'s top 10 (see the script\'s header).',
  '',
  table(
    ['category', 'questions', 'engram R@10', 'mem0 R@10', 'won', 'lost', ...CAUSES],
    [...cats, ['all', total] as const].map(([c, r]) => [typeof c === 'number' ? CATEGORY_NAMES[c]! : c, String(r.n), pct(r.engram, r.n), pct(r.mem0, r.n), String(r.wins), String(lossSum(r)), ...CAUSES.map((x) => String(r.losses[x]))]),
  ),
  '',
  '## Losses (first 25)',
  '',
  table(['question', 'category', 'text', 'evidence', 'engram rank', 'mem0 rank', 'cause'], lossExamples),
  '',
  '## Wins (first 15)',
  '',
  table(['question', 'category', 'text', 'evidence', 'engram rank', 'mem0 rank'], winExamples),
  '',
].join('\n');
const out = join(import.meta.dirname, '..', 'results', `${date}-memories-path-analysis.md`);
writeFileSync(out, md);
process.stdout.write(md);
log(`wrote ${out}`);
