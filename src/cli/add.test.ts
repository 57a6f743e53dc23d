import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Memory } from '../domain/memory.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

describe('engram add', () => {
  it('remembers Chinese content with a kind and importance, and prints it', async () => {
    const r = await h.cli(['--user', 'li-ming', 'add', '用户不吃香菜', '--kind', 'preference', '--importance', '0.7']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Remembered \S+/);
    expect(r.stdout).toContain('用户不吃香菜');
    expect(r.stdout).toMatch(/kind\s+preference/);
    expect(r.stdout).toMatch(/importance\s+0\.70/);
    expect(r.stdout).toMatch(/language\s+zh/);
  });

  it('joins English words and prints one JSON document with --json', async () => {
    const r = await h.cli(['add', 'The', 'user', 'is', 'allergic', 'to', 'peanuts', '--json', '--user', 'alice']);
    expect(r.code).toBe(0);
    const m = r.json<Memory>();
    expect(m).toMatchObject({ userId: 'alice', content: 'The user is allergic to peanuts', kind: 'fact', importance: 0.5, language: 'en', status: 'active' });
    expect(typeof m.id).toBe('string');
  });

  it('reads --happened and --expires as ISO dates or phrases', async () => {
    const r = await h.cli(['add', '用户下周要去东京出差', '--kind', 'event', '--happened', '2026-04-10T09:00:00Z', '--expires', 'next friday', '--json']);
    expect(r.code).toBe(0);
    const m = r.json<{ happenedAt: string; expiresAt: string }>();
    expect(m.happenedAt).toBe('2026-04-10T09:00:00.000Z');
    expect(new Date(m.expiresAt).getTime()).toBeGreaterThan(Date.now());
  });

  it.each([
    [['add', 'x', '--importance', '5'], /--importance must be a number from 0 to 1, got "5"/],
    [['add', 'x', '--importance', 'high'], /--importance must be a number/],
    [['add', 'x', '--kind', 'hobby'], /--kind: unknown value "hobby"; expected one of identity, preference/],
    [['add', 'x', '--happened', 'someday maybe'], /--happened: cannot read "someday maybe" as a date/],
    [['add', '   '], /content must not be empty/],
    [['add'], /missing required argument 'content'/],
  ])('rejects bad input %j with exit code 2 and one line', async (args, message) => {
    const r = await h.cli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error \[INVALID_INPUT\]: /);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
