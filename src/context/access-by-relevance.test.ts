import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';

const open = closesAfterEach(() => testMemory(), (memory) => memory.close());

describe('what counts as a use of a memory (recorded access, which holds off its decay)', () => {
  it.each([
    { lang: 'zh', content: '用户喜欢猫', offTopic: '量子色动力学的讲义在哪里', onTopic: '用户喜欢猫吗' },
    { lang: 'en', content: 'The user loves jazz', offTopic: 'quantum chromodynamics lecture notes', onTopic: 'does the user love jazz' },
  ])('$lang: a weak match shown for an off-topic question or search is not a use; a match is', async ({ content, offTopic, onTopic }) => {
    const memory = open();
    const { id } = await memory.add({ userId: 'u', content });
    const block = await memory.context({ userId: 'u', query: offTopic, tokenBudget: 800 });
    await memory.recall({ userId: 'u', query: offTopic });
    // Shown or found all the same (a small user's block has room), but not used.
    expect(block.text.includes(content) || (await memory.recall({ userId: 'u', query: offTopic, touch: false })).length > 0).toBe(true);
    expect((await memory.get('u', id)).accessCount).toBe(0);

    await memory.context({ userId: 'u', query: onTopic, tokenBudget: 800 });
    await memory.recall({ userId: 'u', query: onTopic });

    expect((await memory.get('u', id)).accessCount).toBe(2);
  });
});
