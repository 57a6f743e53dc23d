import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../testing/clock.js';
import { testMemory } from '../testing/test-memory.js';
import { localDay } from './local-time.js';

// 23:30 UTC on Thursday 2026-11-26: 07:30 on Friday 2026-11-27 in Shanghai.
const said = new Date('2026-11-26T23:30:00Z');

describe('the context block dates what it quotes on the user’s own calendar', () => {
  let memory: ReturnType<typeof testMemory> | undefined;
  afterEach(() => memory?.close());

  it.each([
    ['Asia/Shanghai', '2026-11-27'],
    ['UTC', '2026-11-26'],
    ['America/New_York', '2026-11-26'],
  ])('localDay in %s → %s', (zone, day) => {
    expect(localDay(said, zone)).toBe(day);
  });

  it('falls back to the UTC day for a zone the runtime does not know', () => {
    expect(localDay(said, 'Mars/Olympus_Mons')).toBe('2026-11-26');
  });

  it('dates a memory, an excerpt and an episode by the Shanghai day (Chinese)', async () => {
    memory = testMemory({ clock: fixedClock(said) });
    await memory.setSettings('li', { timeZone: 'Asia/Shanghai' });
    await memory.add({ userId: 'li', kind: 'event', content: '用户今天去了医院', happenedAt: said });
    await memory.appendMessages({ messages: [{ id: 'm1', userId: 'li', sessionId: 's1', role: 'user', content: '医生说我的膝盖要多休息' }] });
    await memory.add({ userId: 'li', kind: 'episode', content: '聊了看医生和膝盖的事', happenedAt: said });
    memory.clock.set(new Date('2026-12-03T02:00:00Z'));
    const block = await memory.context({ userId: 'li', query: '医生怎么说我的膝盖？我去过医院吗？', tokenBudget: 800, sessionId: 's2' });
    expect(block.text).toContain('- "用户今天去了医院" (2026-11-27)');
    expect(block.text).toContain('- 2026-11-27 用户: "医生说我的膝盖要多休息"');
    expect(block.text).toContain('- 2026-11-27: "聊了看医生和膝盖的事"');
    expect(block.text).not.toContain('2026-11-26');
  });

  it('dates a memory, an excerpt and an episode by the New York day (English)', async () => {
    memory = testMemory({ clock: fixedClock('2026-11-27T03:00:00Z') });
    await memory.setSettings('ann', { timeZone: 'America/New_York' });
    const evening = new Date('2026-11-27T03:00:00Z'); // 22:00 on 2026-11-26 in New York
    await memory.add({ userId: 'ann', kind: 'event', content: 'The user saw the doctor about her knee today', happenedAt: evening });
    await memory.appendMessages({ messages: [{ id: 'm1', userId: 'ann', sessionId: 's1', role: 'user', content: 'The doctor said my knee needs rest' }] });
    await memory.add({ userId: 'ann', kind: 'episode', content: 'Talked about the doctor and the knee', happenedAt: evening });
    memory.clock.set(new Date('2026-12-03T15:00:00Z'));
    const block = await memory.context({ userId: 'ann', query: 'What did the doctor say about my knee?', tokenBudget: 800, sessionId: 's2' });
    expect(block.text).toContain('- "The user saw the doctor about her knee today" (2026-11-26)');
    expect(block.text).toContain('- 2026-11-26 User: "The doctor said my knee needs rest"');
    expect(block.text).toContain('- 2026-11-26: "Talked about the doctor and the knee"');
    expect(block.text).not.toContain('2026-11-27');
  });
});
