import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';

// Calibrated relevance (issue 11 item 3): absolute, so a weak best match stays weak and one floor
// means the same for every query. Recency is seed 004's exp(−days / 30).
const CASES = [
  {
    language: 'Chinese',
    memories: ['用户下周要去东京出差', '用户喜欢猫，养了一只叫小白的猫', '用户的项目使用 FastAPI 和 Vue'],
    related: '周五去东京出差有什么推荐？',
    relatedAnswer: '用户下周要去东京出差',
    unrelated: '用户喜欢哪本量子力学教材',
    filler: (i: number) => `用户第${i}次提到园艺和阳台上的番茄`,
  },
  {
    language: 'English',
    memories: ['The user is travelling to Tokyo for work next week', 'The user loves cats and has a cat named Snow', 'The user builds the project with FastAPI and Vue'],
    related: 'Any tips for my Tokyo work trip?',
    relatedAnswer: 'The user is travelling to Tokyo for work next week',
    unrelated: 'Which quantum mechanics textbook would the user enjoy',
    filler: (i: number) => `The user mentioned gardening and balcony tomatoes, note ${i}`,
  },
] as const;

describe.each(CASES)('calibrated relevance in $language', (c) => {
  let memory: ReturnType<typeof testMemory>;
  beforeEach(async () => {
    memory = testMemory();
    for (const content of c.memories) await memory.add({ userId: 'u', content });
  });
  afterEach(() => memory.close());

  it('keeps a weak best match weak, and a strong one strong', async () => {
    const weak = await memory.recall({ userId: 'u', query: c.unrelated, touch: false });
    expect(weak.length).toBeGreaterThan(0);
    expect(weak[0]!.score.relevance).toBeLessThan(0.3);
    const strong = await memory.recall({ userId: 'u', query: c.related, touch: false });
    expect(strong[0]!.memory.content).toBe(c.relatedAnswer);
    expect(strong[0]!.score.relevance).toBeGreaterThan(0.4);
  });

  it('min-max recipes still rescale the best hit to 1 (the old behaviour, for comparison)', async () => {
    const weak = await memory.recall({ userId: 'u', query: c.unrelated, recipe: 'keyword', touch: false });
    const vector = await memory.recall({ userId: 'u', query: c.unrelated, recipe: 'vector', touch: false });
    expect([...weak, ...vector].some((r) => r.score.relevance === 1)).toBe(true);
  });

  it('applies one floor the same way to every query: the context recipe drops the unrelated', async () => {
    expect(await memory.recall({ userId: 'u', query: c.unrelated, recipe: 'context', touch: false })).toEqual([]);
    const kept = await memory.recall({ userId: 'u', query: c.related, recipe: 'context', touch: false });
    expect(kept.map((r) => r.memory.content)).toContain(c.relatedAnswer);
    expect(kept.every((r) => r.score.relevance >= 0.3)).toBe(true);
  });

  it("does not depend on the other candidates: a memory's relevance barely moves when many others arrive", async () => {
    const before = (await memory.recall({ userId: 'u', query: c.related, touch: false }))[0]!;
    for (let i = 0; i < 30; i++) await memory.add({ userId: 'u', content: c.filler(i) });
    const after = (await memory.recall({ userId: 'u', query: c.related, touch: false })).find((r) => r.memory.id === before.memory.id)!;
    expect(Math.abs(after.score.relevance - before.score.relevance)).toBeLessThan(0.1);
  });

  it('follows seed 004 recency: exp(−days / 30)', async () => {
    memory.clock.advanceDays(30);
    const [r] = await memory.recall({ userId: 'u', query: c.related, touch: false });
    expect(r!.score.recency).toBeCloseTo(Math.exp(-1), 6);
    // Recency and importance scale relevance (combine: 'product'; recency weighs 0.1 in the
    // memories default); seed 004's sum with its own weights stays a choice.
    expect(r!.score.final).toBeCloseTo(r!.score.relevance * (0.6 + 0.1 * r!.score.recency + 0.2 * r!.score.importance), 10);
    const seed = { relevance: 0.6, recency: 0.2, importance: 0.2 };
    const [s] = await memory.recall({ userId: 'u', query: c.related, touch: false, config: { combine: 'sum', weights: seed } });
    expect(s!.score.final).toBeCloseTo(0.6 * s!.score.relevance + 0.2 * s!.score.recency + 0.2 * s!.score.importance, 10);
  });

});

describe.each(CASES)('message relevance in $language', (c) => {
  it('is absolute per turn, while the ranking keeps z-score fusion and borrowing', async () => {
    const memory = testMemory();
    await memory.appendMessages({
      messages: c.memories.map((content, i) => ({ id: `m${i}`, userId: 'u', sessionId: 's', role: 'user' as const, content, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)) })),
    });
    const strong = await memory.searchMessages({ userId: 'u', query: c.related, limit: 3 });
    expect(strong[0]!.message.content).toBe(c.relatedAnswer);
    expect(strong[0]!.score.relevance).toBeGreaterThan(0.4);
    // The ranking score is still min-max rescaled (best = 1); relevance is not.
    expect(strong[0]!.score.final).toBe(1);
    const weak = await memory.searchMessages({ userId: 'u', query: c.unrelated, limit: 3 });
    expect(weak.every((f) => f.score.relevance < 0.3)).toBe(true);
    memory.close();
  });
});
