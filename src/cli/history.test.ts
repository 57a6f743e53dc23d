import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../domain/history.js';
import type { Memory } from '../domain/memory.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness({ env: { ENGRAM_USER: 'li-ming' } })));
afterEach(() => h.cleanup());

describe('engram history', () => {
  it('shows each event with before/after, actor, reason and time', async () => {
    const id = (await h.cli(['--json', 'add', '用户喜欢猫，养了一只叫小白的猫', '--kind', 'preference'])).json<Memory>().id;
    expect((await h.cli(['delete', id, '--reason', '用户说记错了'])).code).toBe(0);
    expect((await h.cli(['restore', id, '--reason', 'undo'])).code).toBe(0);

    const r = await h.cli(['history', id]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}  create\s+by user$/);
    expect(r.stdout).toMatch(/^\s+content\s+"用户喜欢猫，养了一只叫小白的猫"$/m);
    expect(r.stdout).toMatch(/^\S.*delete\s+by user  — 用户说记错了$/m);
    expect(r.stdout).toMatch(/^\s+status\s+"active" → "deleted"$/m);
    expect(r.stdout).toMatch(/restore\s+by user  — undo/);
    expect(r.stdout).toMatch(/^\s+status\s+"deleted" → "active"$/m);

    const json = (await h.cli(['history', id, '--json'])).json<{ memoryId: string; events: HistoryEvent[] }>();
    expect(json.memoryId).toBe(id);
    expect(json.events.map((e) => [e.action, e.actor, e.reason ?? null])).toEqual([
      ['create', 'user', null],
      ['delete', 'user', '用户说记错了'],
      ['restore', 'user', 'undo'],
    ]);
    expect(json.events[1]!.before).toEqual({ status: 'active' });
    expect(json.events[1]!.after).toEqual({ status: 'deleted' });
  });

  it('says so when a memory has no history', async () => {
    const r = await h.cli(['history', 'nope']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('No history for nope.\n');
  });
});
