/**
 * LoCoMo turn-level retrieval recall (the dataset's own protocol; see ../shared/data/locomo/README.md).
 * Each conversation is one user's pool: every turn is a raw message, searched with
 * engine.searchMessages; recall@k is the share of a question's evidence turns in the top k.
 */
import { createBundledEmbedder } from '../src/embedders/index.js';
import type { Embedder } from '../src/embedders/embedder.js';
import { createMemory, type MemoryEngine } from '../src/memory.js';
import type { RecallConfigInput } from '../src/recall/recall-config.js';
import type { RecipeName } from '../src/recall/recipes.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { fixedClock } from '../src/testing/clock.js';
import { createCachedEmbedder } from './cached-embedder.js';
import { CATEGORY_NAMES, loadLocomo, type LocomoConversation } from './locomo-data.js';
import { pct, table } from './report.js';

export const KS = [5, 10, 25, 50] as const;
export const SPLITS = { tune: [0, 1, 2, 3, 4], heldOut: [5, 6, 7, 8, 9], all: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] } as const;
export type SplitName = keyof typeof SPLITS;
const SPLIT_LABEL: Record<SplitName, string> = { tune: 'conv 0-4 (tuning)', heldOut: 'conv 5-9 (held out)', all: 'all 10' };

export interface Pool {
  conversation: LocomoConversation;
  engine: MemoryEngine;
}

/** One question's outcome: recall at each k. */
export interface QuestionRecall {
  conversation: number;
  category: number;
  recall: Record<number, number>;
}

/** A cached bundled embedder, logging progress when it has to embed. */
export function benchEmbedder(log: (line: string) => void = () => {}): Embedder {
  return createCachedEmbedder({
    inner: createBundledEmbedder(),
    onProgress: (done, total) => {
      if (done === total || done % 1024 === 0) log(`  embedded ${done}/${total} new texts (cached in bench/.cache)`);
    },
  });
}

/** Stores every conversation as one user's messages, each in its own in-memory store. */
export async function openPools(conversations: readonly LocomoConversation[], embedder: Embedder): Promise<Pool[]> {
  // Embed everything in one call first: the cache sorts by length and batches across conversations.
  // Questions trimmed, as the search pipeline embeds them.
  await embedder.embed(conversations.flatMap((c) => [...c.turns.map((t) => t.content), ...c.questions.map((q) => q.question.trim())]));
  const pools: Pool[] = [];
  for (const conversation of conversations) {
    const engine = createMemory({ store: openSqliteStore({ path: ':memory:' }), embedder, clock: fixedClock('2024-01-01T00:00:00Z') });
    const [speakerA] = conversation.speakers;
    await engine.appendMessages({
      messages: conversation.turns.map((t) => ({
        id: t.id,
        userId: conversation.sampleId,
        sessionId: t.sessionId,
        // Both speakers are people; the role only records which side spoke.
        role: t.speaker === speakerA ? ('user' as const) : ('assistant' as const),
        content: t.content,
        createdAt: t.createdAt,
      })),
      retentionDays: 365 * 1000,
    });
    pools.push({ conversation, engine });
  }
  return pools;
}

export interface Retriever {
  recipe?: RecipeName;
  config?: RecallConfigInput;
}

/** Runs every question of the given pools through searchMessages and scores recall@k. */
export async function evaluate(pools: readonly Pool[], retriever: Retriever, ks: readonly number[] = KS): Promise<QuestionRecall[]> {
  const limit = Math.max(...ks);
  const out: QuestionRecall[] = [];
  for (const { conversation, engine } of pools) {
    for (const q of conversation.questions) {
      const found = await engine.searchMessages({
        userId: conversation.sampleId,
        query: q.question,
        limit,
        ...(retriever.recipe ? { recipe: retriever.recipe } : {}),
        ...(retriever.config ? { config: retriever.config } : {}),
      });
      const rank = new Map(found.map((f, i) => [f.message.id, i]));
      const recall: Record<number, number> = {};
      for (const k of ks) recall[k] = q.evidence.filter((id) => (rank.get(id) ?? Infinity) < k).length / q.evidence.length;
      out.push({ conversation: conversation.index, category: q.category, recall });
    }
  }
  return out;
}

/** Mean recall@k (0..1) over the questions that pass the filter. */
export function meanRecall(rows: readonly QuestionRecall[], k: number, filter: (r: QuestionRecall) => boolean = () => true): { mean: number; n: number } {
  const chosen = rows.filter(filter);
  return { mean: chosen.reduce((a, r) => a + r.recall[k]!, 0) / Math.max(chosen.length, 1), n: chosen.length };
}

export const inSplit = (split: SplitName) => (r: QuestionRecall): boolean => (SPLITS[split] as readonly number[]).includes(r.conversation);

export interface LocomoResult {
  dataset: { path: string; conversations: number; turns: number; questions: number };
  embedder: string;
  /** recipe -> split -> k -> recall in %. */
  recall: Record<string, Record<SplitName, Record<number, number>>>;
  /** recipe -> category name -> k -> recall in % (all ten conversations), with question counts. */
  byCategory: Record<string, Record<string, Record<number, number>>>;
  questionsPerCategory: Record<string, number>;
  seconds: { ingest: number; evaluate: number };
}

export const LOCOMO_RECIPES: ReadonlyArray<{ label: string; retriever: Retriever }> = [
  { label: 'keyword', retriever: { recipe: 'keyword' } },
  { label: 'vector', retriever: { recipe: 'vector' } },
  { label: 'hybrid (default)', retriever: { recipe: 'messages' } },
];

const round1 = (x: number): number => Math.round(x * 1000) / 10;

export async function runLocomo(options: { log?: (line: string) => void } = {}): Promise<{ result: LocomoResult; text: string }> {
  const log = options.log ?? ((line: string) => console.log(line));
  const data = loadLocomo();
  const embedder = benchEmbedder(log);
  let t = performance.now();
  const pools = await openPools(data, embedder);
  const ingest = (performance.now() - t) / 1000;
  t = performance.now();
  const recall: LocomoResult['recall'] = {};
  const byCategory: LocomoResult['byCategory'] = {};
  const questionsPerCategory: Record<string, number> = {};
  for (const { label, retriever } of LOCOMO_RECIPES) {
    const rows = await evaluate(pools, retriever);
    recall[label] = Object.fromEntries(
      (Object.keys(SPLITS) as SplitName[]).map((split) => [split, Object.fromEntries(KS.map((k) => [k, round1(meanRecall(rows, k, inSplit(split)).mean)]))]),
    ) as Record<SplitName, Record<number, number>>;
    byCategory[label] = {};
    for (const [code, name] of Object.entries(CATEGORY_NAMES)) {
      const isCat = (r: QuestionRecall): boolean => r.category === Number(code);
      byCategory[label][name] = Object.fromEntries(KS.map((k) => [k, round1(meanRecall(rows, k, isCat).mean)]));
      questionsPerCategory[`${code} ${name}`] = rows.filter(isCat).length;
    }
  }
  const evaluateSeconds = (performance.now() - t) / 1000;
  await Promise.all(pools.map((p) => p.engine.close()));

  const result: LocomoResult = {
    dataset: {
      path: 'locomo10.json (snap-research/LoCoMo)',
      conversations: data.length,
      turns: data.reduce((a, c) => a + c.turns.length, 0),
      questions: data.reduce((a, c) => a + c.questions.length, 0),
    },
    embedder: embedder.id,
    recall,
    byCategory,
    questionsPerCategory,
    seconds: { ingest: Math.round(ingest * 10) / 10, evaluate: Math.round(evaluateSeconds * 10) / 10 },
  };
  return { result, text: formatLocomo(result) };
}

export function formatLocomo(r: LocomoResult): string {
  const lines: string[] = [];
  lines.push(
    `LoCoMo turn-level recall@k (%), ${r.dataset.conversations} conversations, ${r.dataset.turns} turns, ${r.dataset.questions} questions with evidence; embedder ${r.embedder}`,
  );
  lines.push('');
  const header = ['retriever', 'split', ...KS.map((k) => `R@${k}`)];
  const rows: string[][] = [];
  for (const [label, splits] of Object.entries(r.recall)) {
    for (const split of Object.keys(SPLITS) as SplitName[]) rows.push([label, SPLIT_LABEL[split], ...KS.map((k) => pct(splits[split][k]!))]);
  }
  rows.push(['DRAGON (paper)', 'all 10', '56.7', '66.2', '76.7', '82.7']);
  rows.push(['plain BM25 (reference)', 'all 10', '45.7', '52.7', '63.2', '69.6']);
  lines.push(table(header, rows));
  lines.push('');
  lines.push('Per category, all 10 conversations (R@5 / R@10 / R@25 / R@50):');
  lines.push('');
  const cats = Object.keys(r.questionsPerCategory);
  lines.push(
    table(
      ['category', 'questions', ...Object.keys(r.byCategory)],
      cats.map((c) => {
        const name = c.split(' ')[1]!;
        return [c, String(r.questionsPerCategory[c]), ...Object.values(r.byCategory).map((byCat) => KS.map((k) => pct(byCat[name]![k]!)).join(' / '))];
      }),
    ),
  );
  lines.push(`(ingest ${r.seconds.ingest} s, evaluation ${r.seconds.evaluate} s)`);
  return lines.join('\n');
}
