/**
 * The memories path on LoCoMo (issue 15): every turn stored as one memory (no extraction, as mem0
 * with infer: false), every question recalled with `recall`, recall@k of the evidence turns.
 * Compares the default recipe (calibrated relevance) with the previous one (z-score fusion then
 * min-max), per split and per category. Bundled embedder, vectors cached in bench/.cache.
 *
 * Run: LOCOMO_PATH=… npx tsx bench/memories-path.ts
 */
import { createMemory } from '../src/memory.js';
import type { RecallConfigInput } from '../src/recall/recall-config.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { fixedClock } from '../src/testing/clock.js';
import { CATEGORY_NAMES, loadLocomo } from './locomo-data.js';
import { benchEmbedder, KS, meanRecall, type QuestionRecall } from './locomo.js';
import { table } from './report.js';

const VARIANTS: Record<string, RecallConfigInput | undefined> = {
  'calibrated (default)': undefined,
  'zscore + min-max (previous)': { fusion: 'zscore' },
  ...JSON.parse(process.env['MEMORIES_VARIANTS'] ?? '{}'),
};

const data = loadLocomo();
const embedder = benchEmbedder();
await embedder.embed(data.flatMap((c) => [...c.turns.map((t) => t.content), ...c.questions.map((q) => q.question.trim())]));
const rows: Record<string, QuestionRecall[]> = Object.fromEntries(Object.keys(VARIANTS).map((v) => [v, []]));
for (const c of data) {
  const engine = createMemory({ store: openSqliteStore({ path: ':memory:' }), embedder, clock: fixedClock('2024-01-01T00:00:00Z') });
  for (const t of c.turns) await engine.add({ userId: c.sampleId, content: t.content, kind: 'fact', createdAt: t.createdAt, provenance: { messageIds: [t.id] } });
  for (const q of c.questions) {
    for (const [name, config] of Object.entries(VARIANTS)) {
      const found = await engine.recall({ userId: c.sampleId, query: q.question, limit: 50, touch: false, ...(config ? { config } : {}) });
      const rank = new Map(found.map((r, i) => [r.memory.provenance.messageIds[0]!, i]));
      const recall = Object.fromEntries(KS.map((k) => [k, q.evidence.filter((id) => (rank.get(id) ?? Infinity) < k).length / q.evidence.length]));
      rows[name]!.push({ conversation: c.index, category: q.category, recall });
    }
  }
  await engine.close();
}
const pct = (x: number): string => (x * 100).toFixed(1);
const out: string[][] = [];
for (const [name, r] of Object.entries(rows)) {
  for (const [label, f] of [['0-4', (x: QuestionRecall) => x.conversation <= 4], ['5-9', (x: QuestionRecall) => x.conversation >= 5]] as const) {
    out.push([name, label, ...KS.map((k) => pct(meanRecall(r, k, f).mean))]);
  }
}
console.log(table(['memories recipe', 'split', ...KS.map((k) => `R@${k}`)], out));
console.log('\nR@10 per category, conversations 5-9:');
console.log(
  table(
    ['category', ...Object.keys(rows)],
    Object.entries(CATEGORY_NAMES).map(([code, name]) => [name, ...Object.values(rows).map((r) => pct(meanRecall(r, 10, (x) => x.conversation >= 5 && x.category === Number(code)).mean))]),
  ),
);
