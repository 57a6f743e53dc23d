/**
 * Grid search for the context block's ranking on LoCoMo conversations 0–4 (never 5–9): the pools
 * are built once, then every setting is measured on them (excerpts on, 800 and 1,500 tokens,
 * evidence recall and tokens on unrelated questions).
 *   npx tsx bench/tune-context-grid.ts '[{"floor":0.4},{"excerptTokens":90}]' [--pools offline,observations] [--conversations 0,1]
 * Each setting is a ContextRanking partial plus an optional `excerptTokens`.
 */
import { parseArgs } from 'node:util';
import { ContextRanking } from '../src/context/rank-evidence.js';
import { benchEmbedder } from './locomo.js';
import { loadLocomo } from './locomo-data.js';
import { loadObservations, openContextPools, ownWords, POOLS, type PoolName } from './context-pools.js';
import { TUNING, UNRELATED } from './context.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { pools: { type: 'string' }, conversations: { type: 'string' } } });
const conversations = values.conversations ? values.conversations.split(',').map(Number) : TUNING;
if (conversations.some((c) => !TUNING.includes(c))) throw new Error('Tune on conversations 0-4 only; 5-9 are held out.');
const pools = (values.pools ? values.pools.split(',') : ['offline', 'observations']) as PoolName[];
if (pools.some((p) => !POOLS.includes(p))) throw new Error(`pools: ${POOLS.join(', ')}`);
const settings = (JSON.parse(positionals[0] ?? '[{}]') as Array<Record<string, unknown>>).map((s) => {
  const { excerptTokens, ...ranking } = s;
  return { label: JSON.stringify(s), excerptTokens: typeof excerptTokens === 'number' ? excerptTokens : undefined, ranking: ContextRanking.partial().parse(ranking) };
});

const data = loadLocomo().filter((c) => conversations.includes(c.index));
const observations = loadObservations();
const embedder = benchEmbedder();
await embedder.embed([...data.flatMap((c) => [...c.turns.map(ownWords), ...c.questions.map((q) => q.question.trim()), ...observations[c.index]!.map((o) => o.fact)]), ...UNRELATED]);
const opened = [];
for (const c of data) opened.push(await openContextPools(c, observations[c.index]!, embedder));
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
for (const s of settings) {
  const cells: string[] = [];
  for (const pool of pools) {
    for (const budget of [800, 1500]) {
      const recall: number[] = [];
      const tokens: number[] = [];
      for (const p of opened) {
        for (const q of p.conversation.questions) {
          const block = await p.engine.context({ userId: p.userOf[pool], query: q.question, tokenBudget: budget, excerpts: 'auto', ranking: s.ranking, ...(s.excerptTokens ? { excerptTokens: s.excerptTokens } : {}) });
          const cited = new Set(block.included.flatMap((i) => (i.type === 'excerpt' ? (i.messageIds ?? []) : i.type === 'memory' ? (p.cites.get(i.id) ?? []) : [])));
          recall.push(q.evidence.filter((id) => cited.has(id)).length / q.evidence.length);
          tokens.push(block.tokens);
        }
      }
      cells.push(`${pool}@${budget} ${(100 * mean(recall)).toFixed(1)} (${Math.round(mean(tokens))} t)`);
    }
    const unrelated: number[] = [];
    for (const p of opened) for (const query of UNRELATED) unrelated.push((await p.engine.context({ userId: p.userOf[pool], query, tokenBudget: 800, excerpts: 'auto', ranking: s.ranking, ...(s.excerptTokens ? { excerptTokens: s.excerptTokens } : {}) })).tokens);
    cells.push(`unrelated ${Math.round(mean(unrelated))} t`);
  }
  console.log(`${s.label.padEnd(60)} ${cells.join(' | ')}`);
}
await Promise.all(opened.map((p) => p.engine.close()));
