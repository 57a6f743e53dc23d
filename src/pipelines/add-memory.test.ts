import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';
import { confirmedAt } from './add-memory.js';

// A repeat reinforces the memory it repeats, confirmed when it was said: history added after the
// fact (createdAt in the past) must not make a repeated memory look fresher than what was said
// after it, or recency would rank it above newer memories that are as relevant.
const CASES = [
  {
    language: 'Chinese',
    repeated: '用户喜欢在阿尔卑斯山徒步',
    newer: '用户喜欢在安第斯山徒步',
    query: '用户喜欢在哪里徒步？',
  },
  {
    language: 'English',
    repeated: 'The user likes hiking in the Alps',
    newer: 'The user likes hiking in the Andes',
    query: 'Where does the user like hiking?',
  },
] as const;

const FIRST = new Date('2025-01-10T10:00:00Z');
const AGAIN = new Date('2025-02-10T10:00:00Z');
const LATER = new Date('2025-12-20T10:00:00Z');

describe.each(CASES)('a backfilled repeat in $language', (c) => {
  let memory: ReturnType<typeof testMemory>;
  beforeEach(() => {
    memory = testMemory(); // clock at 2026-01-01
  });
  afterEach(() => memory.close());

  it('is confirmed when it was said, not when it was added', async () => {
    const first = await memory.add({ userId: 'u', content: c.repeated, createdAt: FIRST });
    const again = await memory.add({ userId: 'u', content: c.repeated, createdAt: AGAIN });
    expect(again.id).toBe(first.id);
    expect(again.updatedAt).toEqual(AGAIN);
    expect(again.importance).toBeGreaterThan(first.importance);
  });

  it('does not outrank a newer memory that is as relevant', async () => {
    await memory.add({ userId: 'u', content: c.repeated, createdAt: FIRST });
    await memory.add({ userId: 'u', content: c.newer, createdAt: LATER });
    await memory.add({ userId: 'u', content: c.repeated, createdAt: AGAIN });
    const found = await memory.recall({ userId: 'u', query: c.query, touch: false });
    expect(found.map((r) => r.memory.content)).toEqual([c.newer, c.repeated]);
    expect(found[0]!.score.recency).toBeGreaterThan(found[1]!.score.recency);
  });

  it('said now, without a createdAt, is confirmed now', async () => {
    await memory.add({ userId: 'u', content: c.repeated, createdAt: FIRST });
    const again = await memory.add({ userId: 'u', content: c.repeated });
    expect(again.updatedAt).toEqual(memory.clock.now());
  });
});

describe('confirmedAt', () => {
  it('never moves a memory back in time (repeats imported out of order)', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(confirmedAt(AGAIN, FIRST, now)).toEqual(AGAIN);
    expect(confirmedAt(FIRST, AGAIN, now)).toEqual(AGAIN);
    expect(confirmedAt(FIRST, undefined, now)).toEqual(now);
  });
});
