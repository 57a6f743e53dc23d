import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LifecycleReport } from '../pipelines/run-lifecycle.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

describe('engram lifecycle', () => {
  it('runs one decay pass over a Chinese user and prints the report', async () => {
    await h.cli(['--user', 'li-ming', 'add', '用户喜欢猫', '--kind', 'preference']);
    await h.cli(['--user', 'li-ming', 'add', '用户住在上海', '--kind', 'identity']);
    const r = await h.cli(['--user', 'li-ming', 'lifecycle']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Lifecycle pass for li-ming: examined 2 · decayed 0 · archived 0 · reviewed 0 · compressed 0\n/);
    expect(r.stdout).toContain('no LLM configured');
  });

  it('covers every user with --all-users and prints JSON', async () => {
    await h.cli(['--user', 'li-ming', 'add', '用户喜欢猫']);
    await h.cli(['--user', 'alice', 'add', 'The user loves hiking']);
    const one = (await h.cli(['--user', 'alice', '--json', 'lifecycle'])).json<LifecycleReport & { scope: string; reviewer: null }>();
    expect(one).toMatchObject({ scope: 'alice', reviewer: null, examined: 1, reviews: [] });
    const all = (await h.cli(['--json', 'lifecycle', '--all-users'])).json<LifecycleReport>();
    expect(all).toMatchObject({ scope: 'all users', examined: 2 });
  });
});
