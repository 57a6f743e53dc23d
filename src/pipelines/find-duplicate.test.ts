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

describe('duplicates on save never merge facts that differ in a sign or a symbol', () => {
  it.each([
    ['zh', '用户的账户余额是-500元', '用户的账户余额是500元'],
    ['zh', '用户的会议在10:30', '用户的会议在1030'],
    ['en', 'The user codes in C#', 'The user codes in C++'],
    ['en', 'The balance is -500', 'The balance is 500'],
    ['en', 'The user wants a raise of 5%', 'The user wants a raise of 5'],
  ])('%s: "%s" then "%s" are two memories; the first said again is one', async (_, a, b) => {
    const memory = testMemory();
    const first = await memory.add({ userId: 'u', kind: 'fact', content: a });
    const second = await memory.add({ userId: 'u', kind: 'fact', content: b });
    expect(second.id).not.toBe(first.id);
    expect(second.content).toBe(b);
    expect((await memory.add({ userId: 'u', kind: 'fact', content: `${a}!` })).id).toBe(first.id);
    await memory.close();
  });
});

describe('duplicates on save by similarity, among more memories than the two-stage search takes as candidates', () => {
  for (const [language, filler, text, reworded] of [
    ['zh', (i: number) => `用户收藏的第${i}本书讲的是${['历史', '园艺', '天文', '烹饪', '音乐'][i % 5]}`, '用户每天早上七点起床后喝一杯绿茶再去公司上班', '用户每天早上七点起床后喝一杯绿茶再去公司上班啦'],
    ['en', (i: number) => `The user's book number ${i} is about ${['history', 'gardening', 'astronomy', 'cooking', 'music'][i % 5]}`, 'The user drinks a cup of green tea every morning before going to the office', 'The user drinks a cup of green tea every morning, before going to the office then'],
  ] as const) {
    it(`merges a rewording (${language}) found through the search's own scores`, async () => {
      const memory = testMemory();
      for (let i = 0; i < 260; i++) await memory.add({ userId: 'u', kind: 'fact', content: filler(i) });
      const first = await memory.add({ userId: 'u', kind: 'pattern', content: text });
      const again = await memory.add({ userId: 'u', kind: 'pattern', content: reworded });
      expect(again.id).toBe(first.id);
      // The same words as another kind stay apart.
      const other = await memory.add({ userId: 'u', kind: 'fact', content: reworded });
      expect(other.id).not.toBe(first.id);
      expect(await memory.list({ userId: 'u', kinds: ['pattern'] })).toHaveLength(1);
      await memory.close();
    }, 60_000);
  }
});
