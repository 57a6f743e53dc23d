import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';

// Date matching (issue 11 item 4): of two memories that say the same words, the one dated in the
// span the question names ranks first; without a date in the question, nothing changes.
const CASES = [
  {
    language: 'Chinese',
    june: '用户带孩子去湖边露营了',
    december: '用户带孩子去山里露营了',
    dated: '用户2025年6月去哪里露营了？',
    relative: '用户上周去哪里露营了？',
    plain: '用户去哪里露营了？',
    unrelatedDated: '2025年6月股市怎么样？',
  },
  {
    language: 'English',
    june: 'The user went camping by the lake with the kids',
    december: 'The user went camping in the mountains with the kids',
    dated: 'Where did the user go camping in June 2025?',
    relative: 'Where did the user go camping last week?',
    plain: 'Where did the user go camping?',
    unrelatedDated: 'How was the stock market in June 2025?',
  },
] as const;

describe.each(CASES)('date matching in $language', (c) => {
  let memory: ReturnType<typeof testMemory>;
  beforeEach(async () => {
    memory = testMemory();
    await memory.add({ userId: 'u', content: c.december, createdAt: new Date('2025-12-26T10:00:00Z') });
    await memory.add({ userId: 'u', content: c.june, createdAt: new Date('2025-06-20T10:00:00Z') });
  });
  afterEach(() => memory.close());

  it('ranks the memory dated in the named month first, and says why', async () => {
    const found = await memory.recall({ userId: 'u', query: c.dated, touch: false });
    expect(found[0]!.memory.content).toBe(c.june);
    expect(found[0]!.score.dateMatch).toBeGreaterThan(0);
    expect(found[1]!.score.dateMatch).toBeUndefined();
  });

  it('reads relative references against the clock (last week from 2026-01-01)', async () => {
    const found = await memory.recall({ userId: 'u', query: c.relative, touch: false });
    expect(found[0]!.memory.content).toBe(c.december);
    expect(found[0]!.score.dateMatch).toBeGreaterThan(0);
  });

  it('never lifts a memory for its date alone, without a word in common', async () => {
    const found = await memory.recall({ userId: 'u', query: c.unrelatedDated, touch: false });
    expect(found.every((r) => r.score.dateMatch === undefined)).toBe(true);
  });

  it('adds nothing when the question names no time, or when turned off', async () => {
    const plain = await memory.recall({ userId: 'u', query: c.plain, touch: false });
    expect(plain.every((r) => r.score.dateMatch === undefined)).toBe(true);
    const off = await memory.recall({ userId: 'u', query: c.dated, touch: false, config: { dateMatch: { weight: 0, slackDays: 14 } } });
    expect(off.every((r) => r.score.dateMatch === undefined)).toBe(true);
    // Without it, the more recent memory wins: the date is what put June first above.
    expect(off[0]!.memory.content).toBe(c.december);
  });
});
