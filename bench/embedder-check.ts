/**
 * Measures the bundled embedder: load time, batch throughput, single-query latency, and the
 * cosine of related / unrelated pairs in Chinese, English and across the two.
 * Run: npx tsx bench/embedder-check.ts  (prints a table, then one JSON line)
 */
import { createBundledEmbedder } from '../src/embedders/bundled-embedder.js';
import { dot } from '../src/embedders/embedder.js';

const PAIRS: ReadonlyArray<readonly [kind: string, a: string, b: string]> = [
  ['zh related', '我喜欢猫', '我的猫很可爱'],
  ['zh related', '我对花生过敏', '他不能吃坚果'],
  ['zh related', '我女儿下个月去北京上大学', '她的孩子要开始读大学了'],
  ['zh related', '明天下午三点开会', '会议安排在明天下午'],
  ['zh unrelated', '我喜欢猫', '今天股市下跌了'],
  ['zh unrelated', '我对花生过敏', '明天下午三点开会'],
  ['zh unrelated', '我女儿下个月去北京上大学', '这台电脑的内存不够'],
  ['en related', 'I love cats', 'My cat is adorable'],
  ['en related', 'I am allergic to peanuts', 'He cannot eat nuts'],
  ['en unrelated', 'I love cats', 'The stock market fell today'],
  ['en unrelated', 'I am allergic to peanuts', 'The meeting is at 3pm tomorrow'],
  ['cross related', '我喜欢猫', 'I love cats'],
  ['cross related', '我对花生过敏', 'I am allergic to peanuts'],
  ['cross related', '明天下午三点开会', 'The meeting is at 3pm tomorrow'],
  ['cross unrelated', '我喜欢猫', 'The stock market fell today'],
  ['cross unrelated', '我对花生过敏', 'The meeting is at 3pm tomorrow'],
];

const SENTENCES = [
  'The user prefers window seats on long flights',
  '用户下周三要去上海出差，住在外滩附近的酒店',
  'Remind me to call the dentist after lunch on Friday',
  '我女儿今年九月开始读小学一年级',
  'She switched from coffee to green tea because of sleep problems',
  '他对海鲜过敏，尤其是虾和螃蟹',
  'Our team uses TypeScript and PostgreSQL for the billing service',
  '周末打算和朋友去爬山，如果天气好的话',
];

const embedder = createBundledEmbedder();
const ms = (start: number): number => Math.round((performance.now() - start) * 10) / 10;

let t = performance.now();
await embedder.embed(['warm up']);
const loadMs = ms(t);

const corpus = Array.from({ length: 256 }, (_, i) => `${SENTENCES[i % SENTENCES.length]!} (${i})`);
t = performance.now();
await embedder.embed(corpus);
const throughput = Math.round((corpus.length / (performance.now() - t)) * 1000);

const latencies: number[] = [];
for (let i = 0; i < 20; i++) {
  t = performance.now();
  await embedder.embed([SENTENCES[i % SENTENCES.length]!]);
  latencies.push(ms(t));
}
latencies.sort((a, b) => a - b);
const median = latencies[Math.floor(latencies.length / 2)]!;

const byKind = new Map<string, number[]>();
for (const [kind, a, b] of PAIRS) {
  const [va, vb] = await embedder.embed([a, b]);
  const s = dot(va!, vb!);
  byKind.set(kind, [...(byKind.get(kind) ?? []), s]);
  console.log(`${kind.padEnd(16)} ${s.toFixed(3)}  ${a} | ${b}`);
}
const means = Object.fromEntries(
  [...byKind].map(([kind, v]) => [kind, Math.round((v.reduce((x, y) => x + y, 0) / v.length) * 1000) / 1000]),
);
console.table(means);
console.log(`load (first embed) ${loadMs} ms; throughput ${throughput} texts/s; single-query median ${median} ms`);
console.log(JSON.stringify({ embedder: embedder.id, loadMs, throughputPerSec: throughput, singleQueryMedianMs: median, means }));
