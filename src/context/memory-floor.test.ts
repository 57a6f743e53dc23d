import { describe, expect, it } from 'vitest';
import { createBundledEmbedder } from '../embedders/bundled-embedder.js';
import { testMemory } from '../testing/test-memory.js';

/**
 * Seed 000's promise with the bundled embedder: a user who said they like cats gets that fact back
 * when they ask about pet supplies, and a question about something else gets an empty block.
 */
describe('the context block with the bundled embedder: related facts in, unrelated questions empty', () => {
  const embedder = createBundledEmbedder();
  const cases = [
    { language: 'zh', cat: '用户喜欢猫', trip: '用户下周要去东京出差', pets: '推荐一些宠物用品', unrelated: '今天股市怎么样？' },
    { language: 'en', cat: 'The user loves cats', trip: 'The user is going to Tokyo on a business trip next week', pets: 'Recommend some pet supplies', unrelated: 'How is the stock market today?' },
  ] as const;
  for (const c of cases) {
    it(`brings back the cat for a pet question, and nothing for the stock market (${c.language})`, async () => {
      const memory = testMemory({ embedder });
      await memory.add({ userId: 'u', kind: 'preference', content: c.cat });
      await memory.add({ userId: 'u', kind: 'plan', content: c.trip });
      const pets = await memory.context({ userId: 'u', query: c.pets });
      expect(pets.text).toContain(c.cat);
      expect(pets.text).not.toContain(c.trip);
      const unrelated = await memory.context({ userId: 'u', query: c.unrelated });
      expect(unrelated.included).toEqual([]);
      await memory.close();
    });
  }
});
