import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Memory } from '../domain/memory.js';
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

  it('is NOT_FOUND (exit 2) for an unknown id or another user’s memory', async () => {
    const id = (await h.cli(['--json', '-u', 'alice', 'add', "The user's name is Alice"])).json<Memory>().id;
    const other = await h.cli(['-u', 'li-ming', 'show', id]);
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(`error [NOT_FOUND]: Memory ${id} not found\n`);
    expect((await h.cli(['show', 'nope'])).code).toBe(2);
  });
});
