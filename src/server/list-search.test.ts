import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testApp } from './test-app.js';

const make = closesAfterEach(() => testApp(), (t) => t.memory.close());

describe('GET /memories?q=…&minRelevance=…: a search that leaves out what does not match', () => {
  it.each([
    ['zh', ['用户喜欢猫，家里养了一只橘猫', '用户对花生过敏', '用户住在上海'], '橘猫'],
    ['en', ['The user has an orange cat named Mochi', 'The user is allergic to peanuts', 'The user lives in Berlin'], 'orange cat Mochi'],
  ])('%s: only the matching memory at the floor, every memory without it, and no access recorded', async (_, contents, q) => {
    const { json } = make();
    for (const content of contents) await json('/v1/users/u/memories', { body: { content } });
    const all = await json(`/v1/users/u/memories?q=${encodeURIComponent(q)}`);
    expect((all.body.items as unknown[]).length).toBe(3);
    const good = await json(`/v1/users/u/memories?q=${encodeURIComponent(q)}&minRelevance=0.3`);
    expect((good.body.items as Array<{ content: string }>).map((m) => m.content)).toEqual([contents[0]]);
    expect((good.body.items as Array<{ accessCount: number }>)[0]!.accessCount).toBe(0);
    expect((await json(`/v1/users/u/memories?q=${encodeURIComponent(q)}&minRelevance=2`)).status).toBe(400);
  });
});
