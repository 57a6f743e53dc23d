/**
 * How many sign-code candidates the two-stage vector search needs: on LoCoMo's turns (all ten
 * conversations as one user, bundled embedder, vectors cached in bench/.cache), the share of the
 * exact top k that sign bits → int8 → exact keeps, for k = 10 and 60 and several candidate counts.
 * Run: npx tsx bench/candidate-count.ts (the first run embeds every turn: several minutes).
 */
import { loadLocomo } from './locomo-data.js';
import { createCachedEmbedder } from './cached-embedder.js';
import { createBundledEmbedder } from '../src/embedders/index.js';
import { UserCodes } from '../src/store/sqlite/vector-codes.js';
const convs = loadLocomo();
const embedder = createCachedEmbedder({ inner: createBundledEmbedder() });
const turns = convs.flatMap((c) => c.turns.map((t) => t.content));
const questions = convs.flatMap((c) => c.questions.map((q) => q.question));
const tv = await embedder.embed(turns);
const qv = await embedder.embed(questions);
const codes = new UserCodes(tv[0]!.length, tv.length + 8);
tv.forEach((v, i) => codes.set(i, 'active', v));
const dot = (a: Float32Array, b: Float32Array) => { let s = 0; for (let j = 0; j < a.length; j++) s += a[j]! * b[j]!; return s; };
for (const k of [10, 60]) for (const cands of [200, 300, 600, 1200]) {
  let hit = 0, total = 0, hit10 = 0;
  for (const q of qv) {
    const exact = tv.map((v, i) => [i, dot(q, v)] as const).sort((a, b) => b[1] - a[1]).slice(0, k).map((x) => x[0]);
    const got = codes.nearest(q, ['active'], Math.max(cands, k), k + 10).map((id) => [id, dot(q, tv[id]!)] as const).sort((a, b) => b[1] - a[1]).slice(0, k).map((x) => x[0]);
    const s = new Set(got); hit += exact.filter((x) => s.has(x)).length; total += k;
    const s10 = new Set(got.slice(0, 10)); hit10 += exact.slice(0, 10).filter((x) => s10.has(x)).length;
  }
  console.log(`k=${k} candidates=${cands}: R@k vs exact ${(hit / total).toFixed(4)}, top-10 of it ${(hit10 / (10 * qv.length)).toFixed(4)}`);
}
