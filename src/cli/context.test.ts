import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContextBlock } from '../context/build-context.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(async () => {
  h = cliHarness();
  await h.cli(['-u', 'li-ming', 'add', '用户下周要去东京出差', '--kind', 'event']);
  await h.cli(['-u', 'li-ming', 'add', '用户不吃香菜', '--kind', 'preference']);
  await h.cli(['-u', 'alice', 'add', 'The user is allergic to peanuts']);
  await h.cli(['-u', 'alice', 'add', 'The user loves hiking in the Alps', '--kind', 'preference']);
});
afterEach(() => h.cleanup());

describe('engram context', () => {
  it('prints the Chinese block, tokens used of the budget and the included items', async () => {
    const r = await h.cli(['-u', 'li-ming', 'context', '去东京出差有什么推荐？']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('<memories>');
    expect(r.stdout).toContain('用户下周要去东京出差');
    expect(r.stdout).toMatch(/tokens \d+\/800 · \d+ included · \d+ omitted · language zh/);
    expect(r.stdout).toMatch(/^type\s+kind\s+tokens\s+id$/m);
    expect(r.stdout).toMatch(/^memory\s+event\s+\d+\s+\S+$/m);
  });

  it('prints an English block as JSON, and respects the budget', async () => {
    const r = await h.cli(['-u', 'alice', '--json', 'context', 'hiking', 'snacks', 'without', 'peanuts', '--budget', '500']);
    const block = r.json<ContextBlock & { query: string }>();
    expect(block.query).toBe('hiking snacks without peanuts');
    expect(block.language).toBe('en');
    expect(block.budget).toBe(500);
    expect(block.tokens).toBeLessThanOrEqual(500);
    expect(block.text).toContain('The user is allergic to peanuts');
    expect(block.text).not.toContain('香菜');
    expect(block.included.length).toBeGreaterThan(0);

    const tiny = (await h.cli(['-u', 'alice', '--json', 'context', 'peanuts', '--budget', '5'])).json<ContextBlock>();
    expect(tiny).toMatchObject({ text: '', tokens: 0, included: [] });
    expect((await h.cli(['-u', 'alice', 'context', 'peanuts', '--budget', '5'])).stdout).toContain('(empty: nothing relevant fits)');
  });

  it('rejects a bad budget or language with exit code 2', async () => {
    expect((await h.cli(['context', 'x', '--budget', '-1'])).stderr).toMatch(/^error \[INVALID_INPUT\]: --budget must be a whole number/);
    expect((await h.cli(['context', 'x', '--language', 'fr'])).code).toBe(2);
  });
});
