import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';

// The memories default (recipe 'hybrid', issue 15): query expansion, and recency weighing 0.1.
// Each case fails with the plain config (no expansion; seed 004's recency weight 0.2).
const EXPANSION = [
  {
    language: 'Chinese',
    query: '小美喜欢画什么？',
    topic: ['小美喜欢在湖边画日出，用水彩', '小美上个月又在湖边画了日出的水彩'],
    // Says what she paints in the topic's words (湖边, 日出, 水彩), none of the question's but her name.
    otherWords: '小美觉得湖边日出的水彩让人放松',
    nameOnly: '小美讨厌邻居的狗',
  },
  {
    language: 'English',
    query: 'What does Melanie like to paint?',
    topic: ['Melanie likes to paint the lake at sunrise with watercolors', 'Melanie painted the lake at sunrise in watercolors again'],
    otherWords: 'Melanie finds watercolors of the lake at sunrise relaxing',
    nameOnly: 'Melanie hates the dog next door',
  },
] as const;

const RECENCY = [
  {
    language: 'Chinese',
    query: '小美在什么时候、和谁一起在湖边画水彩？',
    older: '小美早上和孩子一起在湖边画水彩日出',
    recentAside: '小美在湖边画画',
  },
  {
    language: 'English',
    query: 'Where and when does Melanie paint the lake with watercolors, and who joins her?',
    older: 'Melanie paints the lake on quiet mornings before her long shift',
    recentAside: 'Melanie loves the lake',
  },
] as const;

describe.each(EXPANSION)('query expansion in $language', (c) => {
  let memory: ReturnType<typeof testMemory>;
  beforeEach(async () => {
    memory = testMemory();
    for (const [i, content] of [...c.topic, c.otherWords, c.nameOnly].entries()) {
      await memory.add({ userId: 'u', content, createdAt: new Date(Date.UTC(2025, 5, 1 + i)) });
    }
  });
  afterEach(() => memory.close());

  it('lifts a memory that answers in the words of the best matches above one that shares only a name, and says why', async () => {
    const found = await memory.recall({ userId: 'u', query: c.query, touch: false });
    const order = found.map((r) => r.memory.content);
    expect(order.indexOf(c.otherWords)).toBeLessThan(order.indexOf(c.nameOnly));
    expect(found.find((r) => r.memory.content === c.otherWords)!.score.expansion).toBeGreaterThan(0);
    expect(found.find((r) => r.memory.content === c.nameOnly)!.score.expansion).toBeUndefined();
  });

  it('is what makes the difference: turned off, the name-only memory comes first', async () => {
    const off = await memory.recall({ userId: 'u', query: c.query, touch: false, config: { expansion: { docs: 10, terms: 12, weight: 0 } } });
    const order = off.map((r) => r.memory.content);
    expect(order.indexOf(c.nameOnly)).toBeLessThan(order.indexOf(c.otherWords));
    expect(off.every((r) => r.score.expansion === undefined)).toBe(true);
  });
});

describe.each(RECENCY)('recency in the memories default, $language', (c) => {
  let memory: ReturnType<typeof testMemory>;
  beforeEach(async () => {
    memory = testMemory(); // clock at 2026-01-01
    await memory.add({ userId: 'u', content: c.older, createdAt: new Date('2025-01-01T10:00:00Z') });
    await memory.add({ userId: 'u', content: c.recentAside, createdAt: new Date('2025-12-31T10:00:00Z') });
  });
  afterEach(() => memory.close());

  it('orders near-ties but does not put a recent aside about 20 % less relevant above a year-old memory about the question', async () => {
    const found = await memory.recall({ userId: 'u', query: c.query, touch: false });
    expect(found.map((r) => r.memory.content)).toEqual([c.older, c.recentAside]);
    const [older, aside] = found;
    expect(aside!.score.recency).toBeGreaterThan(0.9);
    expect(older!.score.recency).toBeLessThan(0.01);
    expect(aside!.score.relevance / older!.score.relevance).toBeGreaterThan(0.78);
    expect(aside!.score.relevance / older!.score.relevance).toBeLessThan(0.875);
  });

  it('with seed 004\'s recency weight 0.2 the aside would win', async () => {
    const seed = await memory.recall({ userId: 'u', query: c.query, touch: false, config: { weights: { relevance: 0.6, recency: 0.2, importance: 0.2 } } });
    expect(seed.map((r) => r.memory.content)).toEqual([c.recentAside, c.older]);
  });
});
