import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../deps.js';
import type { Embedder } from '../embedders/embedder.js';
import { createHashEmbedder } from '../embedders/hash-embedder.js';
import { EngramError } from '../errors.js';
import { testMemory } from '../testing/test-memory.js';

/** A later version of the hash embedder (another vector size, so its vectors are told apart) that replaces `hash@64`. */
const nextVersion = (): Embedder => ({ ...createHashEmbedder({ dimensions: 32 }), id: 'hash-next@32', supersedes: ['hash@64'] });

const recordingLogger = (): Logger & { warnings: Array<Record<string, unknown> | undefined> } => {
  const warnings: Array<Record<string, unknown> | undefined> = [];
  return { debug: () => undefined, info: () => undefined, warn: (_msg, data) => void warnings.push(data), error: () => undefined, warnings };
};

describe('a store embedded by an earlier version of the embedder', () => {
  it.each([
    ['zh', '用户喜欢猫', '我喜欢猫，尤其是橘猫', '猫'],
    ['en', 'The user loves cats', 'I love cats, ginger ones most', 'cats'],
  ])('is re-embedded on first use, once, while the first calls wait (%s)', async (_language, fact, said, query) => {
    const path = join(mkdtempSync(join(tmpdir(), 'engram-upgrade-')), 'e.db');
    const first = testMemory({ path, embedder: createHashEmbedder({ dimensions: 64 }) });
    await first.add({ userId: 'u', content: fact });
    await first.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: said }] });
    await first.close();

    const logger = recordingLogger();
    const second = testMemory({ path, embedder: nextVersion(), logger });
    const [recalled, found] = await Promise.all([second.recall({ userId: 'u', query }), second.searchMessages({ userId: 'u', query })]);
    expect(recalled.map((r) => r.memory.content)).toContain(fact);
    expect(recalled[0]!.memory.embedderId).toBe('hash-next@32');
    expect(found.map((f) => f.message.content)).toContain(said);
    expect(await second.reindexStatus()).toMatchObject({ embedder: { id: 'hash-next@32', dimensions: 32 }, pending: { memories: 0, messages: 0 } });
    expect(logger.warnings.filter((w) => w?.code === 'EMBEDDER_UPGRADE')).toEqual([{ code: 'EMBEDDER_UPGRADE', from: 'hash@64', to: 'hash-next@32' }]);
    await second.close();
  });

  it.each([
    ['zh', ['用户喜欢猫', '我喜欢猫'], ['用户小时候在杭州西湖边长大，后来去北京读书', '我小时候在杭州西湖边长大，后来去北京读书，现在在上海工作']],
    ['en', ['The user loves cats', 'I love cats'], ['The user grew up by the West Lake in Hangzhou and studied in Beijing', 'I grew up by the West Lake in Hangzhou, studied in Beijing, and now work in Shanghai']],
  ])('%s: keeps the vectors the new version makes alike (short texts) and embeds only the rest again', async (_lang, short, long) => {
    const path = join(mkdtempSync(join(tmpdir(), 'engram-upgrade-')), 'e.db');
    const first = testMemory({ path, embedder: createHashEmbedder({ dimensions: 64 }) });
    await first.add({ userId: 'u', content: short[0]! });
    await first.add({ userId: 'u', content: long[0]! });
    await first.appendMessages({ messages: [short[1]!, long[1]!].map((content) => ({ userId: 'u', sessionId: 's', role: 'user' as const, content })) });
    const before = await first.recall({ userId: 'u', query: short[0]! });
    await first.close();

    // The next version: the same vectors for texts of up to 40 bytes (its `unchangedUpTo`), others embedded again.
    const hash = createHashEmbedder({ dimensions: 64 });
    const embedded: string[] = [];
    const next: Embedder = { ...hash, id: 'hash-next@64', supersedes: ['hash@64'], unchangedUpTo: { 'hash@64': 40 }, embed: (texts) => (embedded.push(...texts), hash.embed(texts)) };
    const second = testMemory({ path, embedder: next });
    const after = await second.recall({ userId: 'u', query: short[0]! });
    // Re-embedded: the long texts only, and the queries of this test's own calls.
    expect(embedded.filter((t) => t !== short[0]).sort()).toEqual([...long].sort());
    expect(after.map((r) => [r.memory.content, r.memory.embedderId])).toEqual(expect.arrayContaining([[short[0], 'hash-next@64'], [long[0], 'hash-next@64']]));
    expect(after.find((r) => r.memory.content === short[0])!.score.vector).toBeCloseTo(before.find((r) => r.memory.content === short[0])!.score.vector!, 6);
    expect((await second.searchMessages({ userId: 'u', query: short[1]! })).map((f) => f.message.content)).toEqual(expect.arrayContaining([short[1], long[1]]));
    expect(await second.reindexStatus()).toMatchObject({ embedder: { id: 'hash-next@64', dimensions: 64 }, pending: { memories: 0, messages: 0 } });
    await second.close();
  });

  it('is still refused when the embedder does not name that version', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'engram-upgrade-')), 'e.db');
    const first = testMemory({ path, embedder: createHashEmbedder({ dimensions: 64 }) });
    await first.add({ userId: 'u', content: '用户喜欢猫' });
    await first.close();
    const other = testMemory({ path, embedder: { ...nextVersion(), supersedes: ['hash@128'] } });
    const error = await other.recall({ userId: 'u', query: '猫' }).catch((e: unknown) => e);
    expect(EngramError.hasCode(error, 'EMBEDDER_MISMATCH')).toBe(true);
    await other.close();
  });
});
