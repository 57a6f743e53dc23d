import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Memory } from '../domain/memory.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

/** Another embedder with no model to load: the hash embedder with a different size (id hash@64). */
const OTHER = { ENGRAM_EMBED_DIMENSIONS: '64' };

describe('engram reindex', () => {
  it('reports EMBEDDER_MISMATCH on a database made with another embedder, and reindex fixes it', async () => {
    await h.cli(['-u', 'li-ming', 'add', '用户喜欢猫，养了一只叫小白的猫']);
    await h.cli(['-u', 'alice', 'add', 'The user loves hiking in the Alps']);

    const refused = await h.cli(['-u', 'li-ming', 'search', '猫'], OTHER);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^error \[EMBEDDER_MISMATCH\]: This store's vectors were made by embedder "hash@256" but it was opened with "hash@64"\./);
    expect(refused.stderr).toContain('engram reindex');
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);

    const r = await h.cli(['reindex'], OTHER);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Re-embedded 2 items with hash@64.\n');

    const found = await h.cli(['-u', 'li-ming', '--json', 'search', '猫'], OTHER);
    expect(found.code).toBe(0);
    expect(found.json<{ results: { memory: Memory }[] }>().results[0]!.memory.content).toContain('小白');
    // …and now the old embedder is the one refused.
    expect((await h.cli(['-u', 'alice', 'list'])).stderr).toMatch(/EMBEDDER_MISMATCH.*"hash@64" but it was opened with "hash@256"/);
  });

  it('says on stderr that a store of the earlier bundled embedder is being re-embedded, and goes on', async () => {
    // A store the bundled embedder's previous version (@1) was bound to; nothing to embed, so no model loads.
    const store = openSqliteStore({ path: h.db });
    await store.bindEmbedder({ id: 'use-lite-cedict@1', dimensions: 512 });
    await store.close();
    const r = await h.cli(['-u', 'li-ming', 'list'], { ENGRAM_EMBEDDER: 'bundled' });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^engram: re-embedding every memory and message: .*"code":"EMBEDDER_UPGRADE","from":"use-lite-cedict@1","to":"use-lite-cedict@4"/);
    const again = await h.cli(['-u', 'li-ming', 'list'], { ENGRAM_EMBEDDER: 'bundled' });
    expect(again.stderr).toBe('');
  });

  it('prints JSON with --json', async () => {
    await h.cli(['add', 'The user is allergic to peanuts']);
    const r = await h.cli(['reindex', '--json']);
    expect(r.json()).toMatchObject({ embedderId: 'hash@256', reembedded: 0, status: { complete: true, total: { memories: 1, messages: 0 } } });
  });
});
