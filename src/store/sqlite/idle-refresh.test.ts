import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../embedders/hash-embedder.js';
import { createMemory } from '../../memory.js';
import { createActivity, type Activity } from '../../util/activity.js';
import { openSqliteStore } from './sqlite-store.js';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

const embedder = createHashEmbedder({ dimensions: 256 });
const CASES = [
  ['Chinese', ['我喜欢猫，养了一只叫小白的猫', '周末想去杭州爬山'], '小白最近不爱吃猫粮'],
  ['English', ['I love cats and have one named Snow', 'I want to hike near Hangzhou this weekend'], 'Snow stopped eating her cat food'],
] as const;

type Store = ReturnType<typeof openSqliteStore>;
type Dirty = { dirty: Map<string, Set<number>> };

interface Shared {
  memories: { ranking: { book: Dirty } };
  keywords: { cache: { book: Dirty } };
  messages: { rows: { book: Dirty }; keywords: { cache: { book: Dirty } } };
  bound: { current(): { memories: { cache: Dirty }; messages: { cache: Dirty } } };
}

/** Rows this connection wrote that the caches have not read again yet: held rows, keyword postings and vector codes, of memories and of messages. */
function pending(store: Store): number[] {
  const shared = (store as unknown as { shared: Shared }).shared;
  const count = (d: Dirty): number => [...d.dirty.values()].reduce((n, s) => n + s.size, 0);
  const b = shared.bound.current();
  return [shared.memories.ranking.book, shared.keywords.cache.book, b.memories.cache, shared.messages.rows.book, shared.messages.keywords.cache.book, b.messages.cache].map(count);
}
const NONE = [0, 0, 0, 0, 0, 0];

const turns = (n: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, n));

async function opened(activity?: Activity) {
  const dir = mkdtempSync(join(tmpdir(), 'engram-refresh-'));
  dirs.push(dir);
  const store = openSqliteStore({ path: join(dir, 'r.db'), ...(activity ? { activity } : {}) });
  const memory = createMemory({ store, embedder });
  return { store, memory };
}

describe.each(CASES)('caches brought up to date in idle moments, %s', (_language, said, next) => {
  it("reads what a recorded turn wrote once no request is in flight, so the next search does not", async () => {
    const activity = createActivity();
    const { store, memory } = await opened(activity);
    await memory.appendMessages({ messages: said.map((content, i) => ({ id: `m${i}`, userId: 'u', sessionId: 's', role: 'user' as const, content })) });
    await memory.add({ userId: 'u', kind: 'preference', content: said[0] });
    // Searched often enough to be cached (buildAfter: 3).
    for (let i = 0; i < 3; i++) await memory.context({ userId: 'u', query: next, sessionId: 'other' });
    await turns(5);
    expect(pending(store)).toEqual(NONE);

    const request = activity.begin();
    await memory.appendMessages({ messages: [{ id: 'm9', userId: 'u', sessionId: 's', role: 'user', content: next }] });
    await memory.add({ userId: 'u', kind: 'event', content: next });
    await turns(5);
    // Each cache holds the rows written: one memory, one message.
    expect(pending(store).every((n) => n > 0)).toBe(true);
    request();
    await turns(5);
    expect(pending(store)).toEqual(NONE);
    expect((await memory.searchMessages({ userId: 'u', query: next }))[0]!.message.content).toBe(next);
    expect((await memory.recall({ userId: 'u', query: next }))[0]!.memory.content).toBe(next);
    await memory.close();
  });

  it('leaves them to the next use without an activity (a library writing in bulk pays no refresh per write)', async () => {
    const { store, memory } = await opened();
    await memory.appendMessages({ messages: said.map((content, i) => ({ id: `m${i}`, userId: 'u', sessionId: 's', role: 'user' as const, content })) });
    for (let i = 0; i < 3; i++) await memory.searchMessages({ userId: 'u', query: next });
    await memory.appendMessages({ messages: [{ id: 'm9', userId: 'u', sessionId: 's', role: 'user', content: next }] });
    await turns(5);
    expect(pending(store).slice(3).every((n) => n > 0)).toBe(true);
    expect((await memory.searchMessages({ userId: 'u', query: next }))[0]!.message.content).toBe(next);
    expect(pending(store).slice(3)).toEqual([0, 0, 0]);
    await memory.close();
  });
});
