import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Memory } from '../domain/memory.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
const ids: string[] = [];
beforeEach(async () => {
  h = cliHarness({ env: { ENGRAM_USER: 'li-ming' } });
  ids.length = 0;
  for (const [kind, content] of [
    ['identity', '用户叫李明，是后端工程师'],
    ['preference', '用户不吃香菜'],
    ['plan', 'The user decided to use Redis for caching'],
  ]) {
    ids.push((await h.cli(['--json', 'add', content!, '--kind', kind!])).json<Memory>().id);
  }
});
afterEach(() => h.cleanup());

const listJson = async (args: string[]) => (await h.cli(['--json', 'list', ...args])).json<{ memories: Memory[] }>().memories;

describe('engram list', () => {
  it('lists the user (from ENGRAM_USER) in aligned columns, Chinese and English alike', async () => {
    const r = await h.cli(['list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id\s+kind\s+status\s+imp\s+created\s+content$/);
    expect(r.stdout).toContain('用户叫李明，是后端工程师');
    expect(r.stdout).toContain('The user decided to use Redis for caching');
    expect(lines.at(-1)).toBe('3 memories');
    // Content starts in the same column on every row, whatever the kind's length.
    const starts = lines.slice(1, 4).map((l) => l.search(/\d{4}-\d{2}-\d{2}/));
    expect(new Set(starts).size).toBe(1);
  });

  it('filters by kind, status, dates and limit', async () => {
    expect((await listJson(['--kind', 'preference,identity'])).map((m) => m.kind).sort()).toEqual(['identity', 'preference']);
    expect(await listJson(['--limit', '1'])).toHaveLength(1);
    await h.cli(['delete', ids[1]!]);
    expect((await listJson([])).map((m) => m.id)).not.toContain(ids[1]);
    expect((await listJson(['--status', 'deleted'])).map((m) => m.id)).toEqual([ids[1]]);
    expect(await listJson(['--status', 'active', '--status', 'deleted'])).toHaveLength(3);
    expect(await listJson(['--from', '2000-01-01', '--to', '2000-12-31'])).toHaveLength(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(await listJson(['--from', '2000-01-01', '--to', '2999-01-01'])).toHaveLength(2);
    // A bare date in --to means through the end of that day.
    expect(await listJson(['--to', today])).toHaveLength(2);
  });

  it('says so when empty, and rejects bad filters with exit code 2', async () => {
    expect((await h.cli(['--user', 'alice', 'list'])).stdout).toBe('No memories.\n');
    const bad = await h.cli(['list', '--status', 'gone']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--status: unknown value "gone"; expected one of active, archived, deleted/);
    const backwards = await h.cli(['list', '--from', '2026-02-01', '--to', '2026-01-01']);
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toMatch(/--from is after --to/);
  });
});
