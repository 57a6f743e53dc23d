import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngramError } from '../errors.js';
import { createHashEmbedder } from '../embedders/hash-embedder.js';
import type { Embedder } from '../embedders/embedder.js';
import { createMemory } from '../memory.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'engram-embedder-fence-'));
  file = path.join(dir, 'e.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const engine = (embedder: Embedder) => createMemory({ store: openSqliteStore({ path: file }), embedder });
/** Another model with the same dimensions as `base`: only the binding's id tells their vectors apart. */
const renamed = (base: Embedder, id: string): Embedder => ({ id, dimensions: base.dimensions, embed: (texts) => base.embed(texts) });
const mismatch = (e: unknown) => EngramError.hasCode(e, 'EMBEDDER_MISMATCH');

describe('a process on the old embedder after a reindex by another, same dimensions (issue 14 item 11)', () => {
  it.each([
    ['zh', '用户喜欢猫', '猫', '我的猫叫咪咪'],
    ['en', 'The user loves cats', 'cats', 'My cat is called Mimi'],
  ])('%s: its searches and writes are refused with EMBEDDER_MISMATCH, never answered from mixed vectors', async (_, content, query, said) => {
    const base = createHashEmbedder({ dimensions: 32 });
    const old = engine(base);
    await old.add({ userId: 'u', kind: 'preference', content });
    await old.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: said }] });
    expect((await old.recall({ userId: 'u', query }))[0]!.memory.content).toBe(content);

    const fresh = engine(renamed(base, 'other@32'));
    await fresh.reindex();

    // Search: the old process's query vector is in another model's space.
    await expect(old.recall({ userId: 'u', query })).rejects.toSatisfy(mismatch);
    await expect(old.searchMessages({ userId: 'u', query })).rejects.toSatisfy(mismatch);
    // Write: refused too, nothing stored.
    await expect(old.add({ userId: 'u', kind: 'fact', content: `${content}!` })).rejects.toSatisfy(mismatch);
    expect((await fresh.list({ userId: 'u' })).map((m) => m.content)).toEqual([content]);
    // The process on the bound embedder is unaffected.
    expect((await fresh.recall({ userId: 'u', query }))[0]!.memory.content).toBe(content);
    expect(await fresh.searchMessages({ userId: 'u', query })).not.toEqual([]);
    for (const e of [old, fresh]) await e.close();
  });
});
