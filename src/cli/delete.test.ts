import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../domain/history.js';
import type { Memory } from '../domain/memory.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
let id: string;
beforeEach(async () => {
  h = cliHarness({ env: { ENGRAM_USER: 'alice' } });
  id = (await h.cli(['--json', 'add', 'The user is allergic to peanuts'])).json<Memory>().id;
});
afterEach(() => h.cleanup());

const searchIds = async (q: string) =>
  (await h.cli(['--json', 'search', q])).json<{ results: { memory: Memory }[] }>().results.map((r) => r.memory.id);

describe('engram delete / restore', () => {
  it('soft-deletes (hidden from search and list, restorable)', async () => {
    const r = await h.cli(['delete', id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`Deleted ${id} (soft). Undo with: engram restore ${id}\n`);
    expect(await searchIds('peanuts')).toEqual([]);
    expect((await h.cli(['--json', 'show', id])).json<Memory>().status).toBe('deleted');

    const back = await h.cli(['restore', id]);
    expect(back.code).toBe(0);
    expect(back.stdout).toBe(`Restored ${id} (active): The user is allergic to peanuts\n`);
    expect(await searchIds('peanuts')).toEqual([id]);
  });

  it('--purge erases the memory for good; only a content-free purge event remains', async () => {
    const r = await h.cli(['delete', id, '--purge', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({ id, purged: true });
    const show = await h.cli(['show', id]);
    expect(show.code).toBe(2);
    expect(show.stderr).toMatch(/NOT_FOUND/);
    const events = (await h.cli(['--json', 'history', id])).json<{ events: HistoryEvent[] }>().events;
    expect(events.at(-1)!.action).toBe('purge');
    expect(JSON.stringify(events)).not.toContain('peanuts');
    expect((await h.cli(['restore', id])).code).toBe(2);
  });

  it('is NOT_FOUND for another user', async () => {
    const r = await h.cli(['--user', 'li-ming', 'delete', id]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error [NOT_FOUND]: Memory ${id} not found\n`);
  });

  it.each([
    ['zh', '用户对花生过敏', '用户对花生和芒果过敏'],
    ['en', 'The user is allergic to peanuts', 'The user is allergic to peanuts and mangoes'],
  ])('%s: edit, delete and restore --if-version change only the version `show` printed; a stale one exits 1 naming PRECONDITION_FAILED', async (_, content, edited) => {
    const mine = (await h.cli(['--json', 'add', content])).json<Memory & { version: string }>();
    const shown = await h.cli(['show', mine.id]);
    expect(shown.stdout).toContain(mine.version);
    // Changed meanwhile (another terminal, the page).
    const other = (await h.cli(['--json', 'edit', mine.id, '--kind', 'identity'])).json<Memory & { version: string }>();
    for (const args of [['edit', mine.id, '--content', edited], ['delete', mine.id], ['delete', mine.id, '--purge'], ['restore', mine.id]]) {
      const r = await h.cli([...args, '--if-version', mine.version]);
      expect([args.join(' '), r.code, r.stderr]).toEqual([args.join(' '), 1, expect.stringMatching(/^error \[PRECONDITION_FAILED\]: .*nothing was changed/)]);
    }
    expect((await h.cli(['--json', 'show', mine.id])).json<Memory>()).toMatchObject({ content, kind: 'identity', status: 'active' });

    const saved = (await h.cli(['--json', 'edit', mine.id, '--content', edited, '--if-version', `"${other.version}"`])).json<Memory & { version: string }>();
    expect(saved.content).toBe(edited);
    const deleted = await h.cli(['--json', 'delete', mine.id, '--if-version', saved.version]);
    expect(deleted.code).toBe(0);
    const restored = await h.cli(['restore', mine.id, '--if-version', deleted.json<{ version: string }>().version]);
    expect([restored.code, restored.stdout]).toEqual([0, `Restored ${mine.id} (active): ${edited}\n`]);
    const empty = await h.cli(['delete', mine.id, '--if-version', ' ']);
    expect([empty.code, empty.stderr]).toEqual([2, expect.stringContaining('--if-version')]);
  });
});
