import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';

const make = closesAfterEach(() => testMemory(), (memory) => memory.close());

describe('the same words at another time are another todo', () => {
  it.each([['zh', '交房租', '交房租。'], ['en', 'Pay rent', 'pay rent!']])('%s: "%s" due December 1, then January 1: two todos, two memories; the same time again is one', async (_, text, again) => {
    const memory = make();
    const december = await memory.add({ userId: 'u', kind: 'todo', content: text, dueAt: '2026-12-01T09:00:00Z' });
    const january = await memory.add({ userId: 'u', kind: 'todo', content: text, dueAt: '2027-01-01T09:00:00Z' });
    expect(january.id).not.toBe(december.id);
    const todos = await memory.listTodos({ userId: 'u' });
    expect(todos.map((t) => [t.memoryId, t.dueAt?.toISOString()])).toEqual([
      [december.id, '2026-12-01T09:00:00.000Z'],
      [january.id, '2027-01-01T09:00:00.000Z'],
    ]);
    // Said again for January (reworded by punctuation only): that todo, reinforced, whichever memory the search finds first.
    const repeated = await memory.add({ userId: 'u', kind: 'todo', content: again, dueAt: '2027-01-01T09:00:00Z' });
    expect(repeated.id).toBe(january.id);
    expect(await memory.listTodos({ userId: 'u' })).toHaveLength(2);
    expect((await memory.history('u', january.id)).at(-1)).toMatchObject({ action: 'reinforce' });
  });

  it.each([['zh', '吃药'], ['en', 'Take the pills']])('%s: another repeat at the same first time is another todo', async (_, text) => {
    const memory = make();
    const daily = await memory.add({ userId: 'u', kind: 'todo', content: text, dueAt: '2026-12-01T09:00:00Z', repeat: { every: 'day' } });
    const weekly = await memory.add({ userId: 'u', kind: 'todo', content: text, dueAt: '2026-12-01T09:00:00Z', repeat: { every: 'week' } });
    const once = await memory.add({ userId: 'u', kind: 'todo', content: text, dueAt: '2026-12-01T09:00:00Z' });
    expect(new Set([daily.id, weekly.id, once.id]).size).toBe(3);
    expect((await memory.listTodos({ userId: 'u' })).map((t) => t.repeat?.every)).toEqual(['day', 'week', undefined]);
    expect((await memory.add({ userId: 'u', kind: 'todo', content: text, dueAt: '2026-12-01T09:00:00Z', repeat: { every: 'week' } })).id).toBe(weekly.id);
  });

  it.each([['zh', '交房租'], ['en', 'Pay rent']])('%s: two identical todos added at once are one', async (_, text) => {
    const memory = make();
    const added = await Promise.all(Array.from({ length: 4 }, () => memory.add({ userId: 'u', kind: 'todo', content: text, dueAt: '2026-12-01T09:00:00Z' })));
    expect(new Set(added.map((m) => m.id)).size).toBe(1);
    expect(await memory.listTodos({ userId: 'u' })).toHaveLength(1);
    expect(await memory.list({ userId: 'u' })).toHaveLength(1);
  });
});
