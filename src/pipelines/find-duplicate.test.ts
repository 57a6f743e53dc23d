import { describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';

describe('duplicates on save never merge facts that differ in a number', () => {
  for (const [language, a, b] of [
    ['zh', '用户的电话是 13800000000', '用户的电话是 13900000000'],
    ['en', 'The user has a locker, number 12', 'The user has a locker, number 34'],
  ] as const) {
    it(`keeps both (${language}), and still merges the same text with other punctuation`, async () => {
      const memory = testMemory();
      const first = await memory.add({ userId: 'u', kind: 'fact', content: a });
      const second = await memory.add({ userId: 'u', kind: 'fact', content: b });
      expect(second.id).not.toBe(first.id);
      const again = await memory.add({ userId: 'u', kind: 'fact', content: `${a}。` });
      expect(again.id).toBe(first.id);
      expect((await memory.list({ userId: 'u' })).map((m) => m.content).sort()).toEqual([a, b].sort());
      await memory.close();
    });
  }
});
