/**
 * How well the bundled embedder brings everyday facts back in Chinese, against English as the
 * reference: twenty facts of one user, two questions each that share few words with their fact
 * (`zh-recall-cases.ts`), through `recall()` (the fact's rank among the twenty) and `context()`
 * (whether the block holds it), plus what off-topic questions bring. A probe of the offline
 * embedder's reach, not a test.
 *
 *   npx tsx bench/zh-recall.ts
 */
import { createBundledEmbedder } from '../src/embedders/bundled-embedder.js';
import type { Embedder } from '../src/embedders/embedder.js';
import { testMemory } from '../src/testing/test-memory.js';
import { EN_CASES, ZH_CASES, type RecallCase } from './zh-recall-cases.js';

const OFF_TOPIC = {
  zh: ['帮我写一段Python代码', '今天股市怎么样？', '解释一下量子力学', '翻译这句话成英文'],
  en: ['Write me some Python code', 'How is the stock market today?', 'Explain quantum mechanics', 'Translate this sentence into French'],
} as const;

export interface ZhRecallResult {
  language: 'zh' | 'en';
  questions: number;
  top1: number;
  top3: number;
  inContext: number;
  /** Facts the off-topic questions' blocks held, in all. */
  offTopicFacts: number;
}

export async function measureRecall(embedder: Embedder, language: 'zh' | 'en', cases: readonly RecallCase[]): Promise<ZhRecallResult> {
  const memory = testMemory({ embedder });
  try {
    for (const c of cases) await memory.add({ userId: 'u', kind: 'fact', content: c.fact });
    const r: ZhRecallResult = { language, questions: 0, top1: 0, top3: 0, inContext: 0, offTopicFacts: 0 };
    for (const c of cases) {
      for (const q of c.questions) {
        r.questions++;
        const found = await memory.recall({ userId: 'u', query: q, limit: 3 });
        const rank = found.findIndex((f) => f.memory.content === c.fact);
        if (rank === 0) r.top1++;
        if (rank >= 0) r.top3++;
        if ((await memory.context({ userId: 'u', query: q })).text.includes(c.fact)) r.inContext++;
      }
    }
    for (const q of OFF_TOPIC[language]) {
      const text = (await memory.context({ userId: 'u', query: q })).text;
      r.offTopicFacts += cases.filter((c) => text.includes(c.fact)).length;
    }
    return r;
  } finally {
    await memory.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const embedder = createBundledEmbedder();
  for (const [language, cases] of [['zh', ZH_CASES], ['en', EN_CASES]] as const) {
    const r = await measureRecall(embedder, language, cases);
    console.log(`${language}: ${r.questions} questions; their fact first ${r.top1}, in the top 3 ${r.top3}, in the context block ${r.inContext}; ${OFF_TOPIC[language].length} off-topic questions brought ${r.offTopicFacts} facts`);
  }
  await embedder.close?.();
}
