import { describe, expect, it } from 'vitest';
import { createBundledEmbedder } from '../embedders/bundled-embedder.js';
import { testMemory } from '../testing/test-memory.js';

/**
 * A request for suggestions is about the user's tastes even when it names none of them: with the
 * bundled embedder "Any weekend ideas for me?" sits at cosine 0.11 to "Ann loves hiking in the
 * Alps", under the memory floor, and the block had been empty.
 */
describe('the context block for a request for suggestions', () => {
  const embedder = createBundledEmbedder();
  const cases = [
    {
      language: 'zh',
      hiking: '用户喜欢爬山',
      others: ['用户喜欢猫', '用户是素食者', '用户喜欢看科幻电影', '用户喜欢喝咖啡', '用户喜欢听爵士乐'],
      job: '用户在上海做护士',
      elsewhere: '用户喜欢滑雪',
      ask: '周末有什么建议吗？',
      recall: '我上次说了什么工作的事？',
    },
    {
      language: 'en',
      hiking: 'Ann loves hiking in the Alps',
      others: ['Ann loves cats', 'Ann is vegetarian', 'Ann loves science fiction films', 'Ann likes coffee', 'Ann listens to jazz'],
      job: 'Ann works as a nurse in Zurich',
      elsewhere: 'Bob loves skiing',
      ask: 'Any weekend ideas for me?',
      recall: 'What did I say about my job?',
    },
  ] as const;
  const constraints = [
    { language: 'zh', allergy: '用户对花生过敏', diet: '用户是素食者', job: '用户在上海做护士', ask: '给我推荐一家餐厅', unrelated: '法国的首都是哪里？' },
    { language: 'en', allergy: 'The user is allergic to shellfish', diet: 'The user is lactose intolerant', job: 'The user works as a nurse in Zurich', ask: 'Can you suggest a seafood restaurant for me?', unrelated: "What's the capital of France?" },
  ] as const;
  for (const c of constraints) {
    it(`brings the user's allergies and diets to any request for suggestions, at the top (${c.language})`, async () => {
      const memory = testMemory({ embedder });
      await memory.add({ userId: 'ann', kind: 'fact', content: c.allergy });
      await memory.add({ userId: 'ann', kind: 'identity', content: c.diet });
      await memory.add({ userId: 'ann', kind: 'fact', content: c.job });
      await memory.add({ userId: 'bob', kind: 'fact', content: c.allergy.replace(/花生|shellfish/u, (w) => (w === '花生' ? '芒果' : 'mango')) });
      const block = await memory.context({ userId: 'ann', query: c.ask });
      expect(block.text).toContain(c.allergy);
      expect(block.text).toContain(c.diet);
      expect(block.text).not.toMatch(/芒果|mango/u);
      const lines = block.text.split('\n').filter((l) => l.startsWith('- '));
      expect(lines.slice(0, 2).join('\n')).toContain(c.allergy);
      // Turned off, the block is the same without them: they bring nothing else along.
      const off = await memory.context({ userId: 'ann', query: c.ask, ranking: { suggestionConstraints: 0 } });
      expect(off.text).not.toContain(c.allergy);
      const ids = (b: typeof block): string[] => b.included.map((i) => i.id).sort();
      const constraintIds = block.included.filter((i) => !off.included.some((j) => j.id === i.id)).map((i) => i.id);
      expect(constraintIds).toHaveLength(2);
      expect(ids(block).filter((id) => !constraintIds.includes(id))).toEqual(ids(off));
      // Not to a question that asks for no suggestion.
      expect((await memory.context({ userId: 'ann', query: c.unrelated })).text).not.toContain(c.allergy);
      await memory.close();
    });
  }
  for (const c of cases) {
    it(`brings the user's preferences, not their other facts nor another user's (${c.language})`, async () => {
      const memory = testMemory({ embedder });
      await memory.add({ userId: 'ann', kind: 'preference', content: c.hiking });
      await memory.add({ userId: 'ann', kind: 'fact', content: c.job });
      await memory.add({ userId: 'bob', kind: 'preference', content: c.elsewhere });
      const block = await memory.context({ userId: 'ann', query: c.ask });
      expect(block.text).toContain(c.hiking);
      expect(block.text).not.toContain(c.job);
      expect(block.text).not.toContain(c.elsewhere);
      // Asked about the past, the same preference stays under the floor.
      const recall = await memory.context({ userId: 'ann', query: c.recall });
      expect(recall.text).not.toContain(c.hiking);
      await memory.close();
    });

    it(`lets at most three preferences in under the memory floor (${c.language})`, async () => {
      const memory = testMemory({ embedder });
      for (const content of [c.hiking, ...c.others]) await memory.add({ userId: 'ann', kind: 'preference', content });
      // Preferences alone: a diet among them ("用户是素食者") comes in as a constraint besides (see above).
      const block = await memory.context({ userId: 'ann', query: c.ask, ranking: { suggestionConstraints: 0 } });
      const preferences = block.included.filter((i) => i.type === 'memory');
      expect(preferences.length).toBeGreaterThan(0);
      expect(preferences.length).toBeLessThanOrEqual(3);
      const none = await memory.context({ userId: 'ann', query: c.ask, ranking: { suggestionPreferences: 0, suggestionConstraints: 0 } });
      expect(none.included.filter((i) => i.type === 'memory').length).toBeLessThan(preferences.length);
      await memory.close();
    });
  }
});
