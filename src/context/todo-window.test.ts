import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../testing/clock.js';
import { testMemory } from '../testing/test-memory.js';
import { todoWindowEnd } from './todo-window.js';

// Friday 2026-11-27, 10:00 in Shanghai.
const now = new Date('2026-11-27T02:00:00Z');
const shanghaiMidnight = (day: string): string => new Date(Date.parse(`${day}T00:00:00+08:00`)).toISOString();

describe('todoWindowEnd: how far ahead a question looks for todos', () => {
  it.each([
    ['明天要干嘛', '2026-11-29'],
    // on a Friday, "this week" takes in the days coming
    ['这周还有什么安排', '2026-12-05'],
    ['what is left this week?', '2026-12-05'],
    ['这周末有什么安排', '2026-11-30'],
    ['下周有什么安排', '2026-12-07'],
    ['下周末有空吗', '2026-12-07'],
    ['anything next weekend?', '2026-12-07'],
    ['anything due next week?', '2026-12-07'],
    ["what's on my plate this week?", '2026-12-05'],
    ['下个月要做什么', '2027-01-01'],
  ])('%s → todos due before %s (Shanghai)', (question, end) => {
    expect(todoWindowEnd(question, now, 'Asia/Shanghai')?.toISOString()).toBe(shanghaiMidnight(end));
  });

  it('on a Tuesday, "this week" ends on Sunday', () => {
    expect(todoWindowEnd('这周有什么安排', new Date('2026-11-24T02:00:00Z'), 'Asia/Shanghai')?.toISOString()).toBe(shanghaiMidnight('2026-11-30'));
  });

  it.each(['推荐一部电影', 'recommend a movie', '我上周去了哪里', 'what did we talk about last week?'])('%s → no window ahead', (question) => {
    expect(todoWindowEnd(question, now, 'Asia/Shanghai')).toBeUndefined();
  });
});

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});

describe('the block lists the todos of the days a question looks ahead to', () => {
  it.each([
    ['zh', ['交水电费', '还信用卡', '看牙医', '续签护照'], '下周有什么安排', '推荐一部电影'],
    ['en', ['pay the utility bill', 'pay the credit card bill', 'dentist appointment', 'renew the passport'], "what's on my plate this week?", 'recommend a movie'],
  ])('%s: Saturday always (due within 48 hours); Monday and Tuesday when asked about the week; not the one after', async (_lang, tasks, ahead, other) => {
    const memory = testMemory({ clock: fixedClock(now.toISOString()) });
    engines.push(memory);
    await memory.setSettings('u', { timeZone: 'Asia/Shanghai' });
    const dues = ['2026-11-28T02:00:00Z', '2026-11-30T02:00:00Z', '2026-12-01T06:00:00Z', '2026-12-09T02:00:00Z'];
    for (const [i, content] of tasks.entries()) await memory.add({ userId: 'u', kind: 'todo', content, dueAt: dues[i] });
    const todos = await memory.listTodos({ userId: 'u' });
    const listed = async (query: string): Promise<string[]> => {
      const block = await memory.context({ userId: 'u', query, tokenBudget: 2000 });
      const ids = new Set(block.included.filter((i) => i.type === 'todo').map((i) => i.id));
      return todos.filter((t) => ids.has(t.id)).map((t) => t.content);
    };
    expect(await listed(ahead)).toEqual(tasks.slice(0, 3));
    expect(await listed(other)).toEqual(tasks.slice(0, 1));
  });
});
