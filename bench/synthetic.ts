/**
 * Synthetic, reproducible data for the latency benchmarks: bilingual memory texts from templates,
 * queries drawn from the same vocabulary, random unit vectors, and a bulk loader that writes
 * memories straight into the store in batched transactions.
 */
import { createHash } from 'node:crypto';
import type { Memory } from '../src/domain/memory.js';
import type { Embedder } from '../src/embedders/embedder.js';
import type { Store } from '../src/store/store.js';

/** mulberry32: a small seeded PRNG, so every run generates the same data. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;

const EN = {
  person: ['my sister', 'my manager', 'Alice', 'Tom', 'my daughter', 'our neighbour', 'my dentist', 'Grandma', 'the landlord', 'Priya'],
  food: ['sushi', 'spicy noodles', 'green tea', 'dark chocolate', 'oat milk lattes', 'dumplings', 'peanuts', 'shellfish', 'mango', 'espresso'],
  place: ['Shanghai', 'Berlin', 'the office', 'Hangzhou', 'Lisbon', 'the gym', 'Chengdu', 'Toronto', 'the library', 'Kyoto'],
  activity: ['running', 'piano practice', 'rock climbing', 'watercolour painting', 'the weekly report', 'yoga', 'code review', 'swimming', 'chess', 'gardening'],
  time: ['on Monday mornings', 'every weekend', 'after lunch', 'in September', 'before bed', 'on Friday evenings', 'next month', 'twice a week'],
  thing: ['TypeScript', 'PostgreSQL', 'a standing desk', 'a mechanical keyboard', 'the billing service', 'a used Honda', 'noise-cancelling headphones', 'a cat named Miso'],
};
const ZH = {
  person: ['我姐姐', '我的经理', '小王', '我女儿', '邻居老李', '我的牙医', '奶奶', '房东', '张老师', '表弟'],
  food: ['寿司', '麻辣烫', '绿茶', '黑巧克力', '燕麦拿铁', '饺子', '花生', '海鲜', '芒果', '咖啡'],
  place: ['上海', '北京', '公司', '杭州', '成都', '健身房', '深圳', '图书馆', '广州', '西湖边'],
  activity: ['跑步', '练钢琴', '攀岩', '画水彩', '写周报', '瑜伽', '代码评审', '游泳', '下围棋', '种花'],
  time: ['每周一早上', '每个周末', '午饭后', '九月份', '睡觉前', '周五晚上', '下个月', '一周两次'],
  thing: ['TypeScript', 'PostgreSQL', '升降桌', '机械键盘', '计费服务', '一辆二手车', '降噪耳机', '一只叫年糕的猫'],
};

const EN_TEMPLATES: ReadonlyArray<(r: () => number) => string> = [
  (r) => `The user is allergic to ${pick(r, EN.food)} and avoids it when eating out`,
  (r) => `${cap(pick(r, EN.person))} lives in ${pick(r, EN.place)} and visits ${pick(r, EN.time)}`,
  (r) => `The user does ${pick(r, EN.activity)} ${pick(r, EN.time)}`,
  (r) => `The user prefers ${pick(r, EN.food)} over ${pick(r, EN.food)}`,
  (r) => `The user's team uses ${pick(r, EN.thing)} for ${pick(r, EN.activity)}`,
  (r) => `Remind the user to call ${pick(r, EN.person)} about ${pick(r, EN.activity)} ${pick(r, EN.time)}`,
  (r) => `The user is planning a trip to ${pick(r, EN.place)} ${pick(r, EN.time)} with ${pick(r, EN.person)}`,
  (r) => `The user bought ${pick(r, EN.thing)} and is happy with it`,
];
const ZH_TEMPLATES: ReadonlyArray<(r: () => number) => string> = [
  (r) => `用户对${pick(r, ZH.food)}过敏，在外面吃饭时会避开`,
  (r) => `${pick(r, ZH.person)}住在${pick(r, ZH.place)}，${pick(r, ZH.time)}会来看望用户`,
  (r) => `用户${pick(r, ZH.time)}去${pick(r, ZH.activity)}`,
  (r) => `比起${pick(r, ZH.food)}，用户更喜欢${pick(r, ZH.food)}`,
  (r) => `用户的团队用${pick(r, ZH.thing)}来做${pick(r, ZH.activity)}`,
  (r) => `提醒用户${pick(r, ZH.time)}给${pick(r, ZH.person)}打电话，说${pick(r, ZH.activity)}的事`,
  (r) => `用户打算${pick(r, ZH.time)}和${pick(r, ZH.person)}去${pick(r, ZH.place)}旅行`,
  (r) => `用户买了${pick(r, ZH.thing)}，很满意`,
];
const QUERY_TEMPLATES: ReadonlyArray<(r: () => number) => string> = [
  (r) => `what is the user allergic to? ${pick(r, EN.food)}`,
  (r) => `where does ${pick(r, EN.person)} live`,
  (r) => `when does the user do ${pick(r, EN.activity)}`,
  (r) => `trip to ${pick(r, EN.place)}`,
  (r) => `what does the team use ${pick(r, EN.thing)} for`,
  (r) => `用户对什么过敏？${pick(r, ZH.food)}`,
  (r) => `${pick(r, ZH.person)}住在哪里`,
  (r) => `用户什么时候${pick(r, ZH.activity)}`,
  (r) => `去${pick(r, ZH.place)}旅行的计划`,
  (r) => `用户买了什么${pick(r, ZH.thing)}`,
];

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A memory text: half English, half Chinese. */
export function memoryText(r: () => number): string {
  return r() < 0.5 ? pick(r, EN_TEMPLATES)(r) : pick(r, ZH_TEMPLATES)(r);
}

export function queryText(r: () => number): string {
  return pick(r, QUERY_TEMPLATES)(r);
}

/** A random unit vector (Gaussian components, then normalised: uniform on the sphere). */
export function unitVector(r: () => number, dimensions: number): Float32Array {
  const v = new Float32Array(dimensions);
  let sum = 0;
  for (let i = 0; i < dimensions; i += 2) {
    const u = Math.max(r(), 1e-12);
    const rad = Math.sqrt(-2 * Math.log(u));
    const theta = 2 * Math.PI * r();
    v[i] = rad * Math.cos(theta);
    if (i + 1 < dimensions) v[i + 1] = rad * Math.sin(theta);
  }
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  for (let i = 0; i < dimensions; i++) v[i] = v[i]! / norm;
  return v;
}

/** An embedder that returns random unit vectors: stands in for a model when only timing matters. */
/**
 * A random unit vector per text, seeded by the text's hash: the same text always gets the same
 * vector, however many calls came before (an engine that skips embedding a text it embedded
 * moments ago still gets the vectors another build would). For comparing builds' output.
 */
export function textSeededEmbedder(id: string, dimensions: number): Embedder {
  return { id, dimensions, embed: (texts) => Promise.resolve(texts.map((t) => unitVector(rng(createHash('sha256').update(t).digest().readUInt32LE(0)), dimensions))) };
}

export function randomEmbedder(id: string, dimensions: number, seed = 7): Embedder {
  const r = rng(seed);
  return { id, dimensions, embed: (texts) => Promise.resolve(texts.map(() => unitVector(r, dimensions))) };
}

let serial = 0;

/** A complete memory row, as the add pipeline would build it. */
export function syntheticMemory(userId: string, content: string, createdAt: Date, embedderId: string): Memory {
  return {
    id: `m${++serial}-${userId}`,
    userId,
    kind: 'fact',
    content,
    importance: 0.5,
    confidence: 1,
    source: 'import',
    verified: false,
    core: false,
    status: 'active',
    provenance: { messageIds: [] },
    language: /\p{Script=Han}/u.test(content) ? 'zh' : 'en',
    createdAt,
    updatedAt: createdAt,
    accessCount: 0,
    embedderId,
  };
}

/**
 * Writes `perUser` memories for each user straight into the store (random vectors, template
 * texts), `batch` memories per transaction, as an import would. Returns memories per second.
 */
export async function bulkInsert(
  store: Store,
  options: { users: readonly string[]; perUser: number; embedderId: string; dimensions: number; seed: number; batch?: number },
): Promise<number> {
  const r = rng(options.seed);
  const batch = options.batch ?? 1000;
  const base = Date.UTC(2025, 0, 1);
  const jobs = options.users.flatMap((userId) => Array.from({ length: options.perUser }, (_, i) => ({ userId, i })));
  const start = performance.now();
  for (let done = 0; done < jobs.length; done += batch) {
    const slice = jobs.slice(done, done + batch);
    await store.transaction(async (tx) => {
      for (const { userId, i } of slice) {
        const memory = syntheticMemory(userId, memoryText(r), new Date(base + i * 60_000), options.embedderId);
        await tx.insertMemory(memory, unitVector(r, options.dimensions), { actor: 'import', at: memory.createdAt });
      }
    });
  }
  return jobs.length / ((performance.now() - start) / 1000);
}
