import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rankMemories } from '../pipelines/recall.js';
import { recallEpisodes } from '../pipelines/recall-episodes.js';
import { createHashEmbedder } from '../embedders/hash-embedder.js';
import { createMemory, type MemoryEngine } from '../memory.js';
import type { MemoryDeps } from '../pipelines/deps.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { fixedClock, sequentialIds } from '../testing/clock.js';

// Relevant episodes come out of the context's own recall; the answer must be what a search of their own gives.
describe.each([
  ['Chinese', '去东京出差要准备什么？', ['用户聊了下周去东京出差的安排（话题：出差）', '用户聊了给猫买猫粮的事（话题：宠物）'], '东京'],
  ['English', 'What did we say about the Tokyo business trip?', ['The user talked about the Tokyo business trip next week (topic: travel)', 'The user talked about buying food for the cat (topic: pets)'], 'Tokyo'],
] as const)('relevant episodes in the context, %s', (_, query, episodes, word) => {
  let memory: MemoryEngine;
  let deps: MemoryDeps;
  beforeEach(async () => {
    deps = { store: openSqliteStore({ path: ':memory:' }), embedder: createHashEmbedder({ dimensions: 1024 }), clock: fixedClock('2026-01-01T00:00:00Z'), ids: sequentialIds('mem'), logger: console };
    memory = createMemory({ store: deps.store, embedder: deps.embedder, clock: deps.clock, ids: deps.ids });
    for (const content of episodes) await memory.add({ userId: 'u', kind: 'episode', content });
    await memory.add({ userId: 'u', kind: 'fact', content: word === '东京' ? '用户住在上海' : 'The user lives in Shanghai' });
  });
  afterEach(() => memory.close());

  it('takes them from the recall already made: the same episodes as a search of their own', async () => {
    const own = await recallEpisodes(deps, { userId: 'u', query, limit: 5, timeZone: 'UTC' });
    const shared = await recallEpisodes(deps, { userId: 'u', query, limit: 5, timeZone: 'UTC', recalled: rankMemories(deps, { userId: 'u', query, limit: 100, recipe: 'context', config: { minRelevance: 0.1 }, touch: false }) });
    expect(shared.map((e) => e.id)).toEqual(own.map((e) => e.id));
    expect(shared.some((e) => e.content.includes(word))).toBe(true);
    const block = await memory.context({ userId: 'u', query });
    expect(block.included.filter((i) => i.type === 'episode').length).toBeGreaterThan(0);
    expect(block.text).toContain(word);
  });
});
