import { describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';

/**
 * `searchWeight`: each source's own ranking (the message search with its neighbour, session and
 * date borrowing; recall with recency and importance) orders the block's candidates, and never
 * lets in what its floor keeps out.
 */
describe("each source's own ranking in the context block", () => {
  for (const c of [
    {
      language: 'zh',
      turns: ['海边野餐，孩子们最喜欢野餐', '那天我们去野餐', '今天天气真好，适合出门'],
      dates: ['2023-03-10T10:00:00Z', '2023-06-12T10:00:00Z', '2023-06-20T10:00:00Z'],
      query: '2023年6月我们去哪里野餐？',
      // The hash embedder of the tests puts Chinese pairs at a low cosine: a lower excerpt floor lets both in.
      floor: 0.2,
      unrelated: '量子计算机的原理是什么？',
    },
    {
      language: 'en',
      turns: ['Picnic at the beach with the kids: the best beach picnic, a picnic to remember', 'That day we had a picnic', 'Lovely weather today, perfect for a walk'],
      dates: ['2023-03-10T10:00:00Z', '2023-06-12T10:00:00Z', '2023-06-20T10:00:00Z'],
      query: 'Where did we have a picnic in June 2023?',
      unrelated: 'How does a quantum computer work?',
      floor: 0.45,
    },
  ]) {
    it(`puts first the excerpt the message search ranks first (the day the question names), and lets nothing in (${c.language})`, async () => {
      const memory = testMemory();
      await memory.appendMessages({ retentionDays: 3650, messages: c.turns.map((content, i) => ({ id: `t${i}`, userId: 'u', sessionId: `s${i}`, role: 'user' as const, content, createdAt: new Date(c.dates[i]!) })) });
      const excerpts = async (query: string, searchWeight?: number) =>
        (await memory.context({ userId: 'u', query, ranking: { floor: c.floor, ...(searchWeight === undefined ? {} : { searchWeight }) } })).included.filter((i) => i.type === 'excerpt').map((i) => i.id);
      const searched = await memory.searchMessages({ userId: 'u', query: c.query, limit: 1 });
      expect(searched[0]!.message.id).toBe('t1');
      // The block's own scale (cosine and keywords) prefers the richer March turn; the search's order wins.
      expect(await excerpts(c.query, 0)).toEqual(['t0', 't1']);
      expect(await excerpts(c.query)).toEqual(['t1', 't0']);
      // Unrelated: the lift raises the floor with the score, so the same nothing (or the same few) get in.
      expect(await excerpts(c.unrelated)).toEqual(await excerpts(c.unrelated, 0));
      await memory.close();
    });
  }
});
