import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Memory } from '../domain/memory.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

describe('engram show', () => {
  it('shows every field of a memory', async () => {
    const id = (await h.cli(['--json', '-u', 'li-ming', 'add', '用户下周要去东京出差', '--kind', 'event', '--happened', '2026-04-10'])).json<Memory>().id;
    const r = await h.cli(['-u', 'li-ming', 'show', id]);
    expect(r.code).toBe(0);
    for (const field of ['id', 'user', 'kind', 'content', 'language', 'status', 'importance', 'confidence', 'source', 'verified', 'core', 'created', 'updated', 'happened', 'access count', 'embedder']) {
      expect(r.stdout).toMatch(new RegExp(`^${field}\\s+\\S`, 'm'));
    }
    expect(r.stdout).toMatch(/content\s+用户下周要去东京出差/);
    expect(r.stdout).toMatch(/embedder\s+hash@256/);
    const json = (await h.cli(['-u', 'li-ming', 'show', id, '--json'])).json<Memory>();
    expect(json).toMatchObject({ id, userId: 'li-ming', kind: 'event', happenedAt: '2026-04-10T00:00:00.000Z' });
  });

  it('lists the memory\'s relations', async () => {
    const merged = (await h.cli(['--json', '-u', 'u', 'add', '用户喜欢日式料理'])).json<Memory>().id;
    const source = (await h.cli(['--json', '-u', 'u', 'add', 'The user likes ramen'])).json<Memory>().id;
    const store = openSqliteStore({ path: h.db });
    await store.insertRelation({ id: 'r1', userId: 'u', sourceId: merged, targetId: source, type: 'derived-from', strength: 1, createdAt: new Date() });
    await store.close();
    expect((await h.cli(['-u', 'u', 'show', merged])).stdout).toMatch(new RegExp(`relations\\s+derived-from → ${source}`));
    expect((await h.cli(['-u', 'u', 'show', source])).stdout).toMatch(new RegExp(`relations\\s+${merged} derived-from → this`));
  });

  it('is NOT_FOUND (exit 2) for an unknown id or another user’s memory', async () => {
    const id = (await h.cli(['--json', '-u', 'alice', 'add', "The user's name is Alice"])).json<Memory>().id;
    const other = await h.cli(['-u', 'li-ming', 'show', id]);
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(`error [NOT_FOUND]: Memory ${id} not found\n`);
    expect((await h.cli(['show', 'nope'])).code).toBe(2);
  });
});
