import { describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';

/**
 * `excerptMinVector`: an excerpt's scoring turn must reach this cosine whatever its keywords, so a
 * turn that shares a word with the question but not its meaning stays out. Raised past the turn's
 * cosine, the same excerpt is left out; at the default it is quoted.
 */
describe('the excerpt cosine floor', () => {
  for (const c of [
    { language: 'zh', content: '上个月我去了杭州，在西湖边画了一幅日落的油画', query: '我在西湖边画了什么油画？' },
    { language: 'en', content: 'Last month I painted a sunset over the lake with watercolors', query: 'What did I paint over the lake last month?' },
  ]) {
    it(`leaves out an excerpt whose turn is under the cosine floor, whatever its keywords (${c.language})`, async () => {
      const memory = testMemory();
      await memory.appendMessages({ messages: [{ id: 't', userId: 'u', sessionId: 's', role: 'user', content: c.content }] });
      const excerpts = async (excerptMinVector?: number) =>
        (await memory.context({ userId: 'u', query: c.query, ...(excerptMinVector === undefined ? {} : { ranking: { excerptMinVector } }) })).included.filter((i) => i.type === 'excerpt').map((i) => i.id);
      expect(await excerpts()).toEqual(['t']);
      expect(await excerpts(0.99)).toEqual([]);
      await memory.close();
    });
  }
});
