import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

interface DemoJson {
  written: { userId: string; count: number; reused: boolean }[];
  queries: { userId: string; query: string; results: { memory: { userId: string } }[]; context: { tokens: number; budget: number } }[];
  isolation: { leaked: number; results: number; probes: { results: { memory: { userId: string } }[] }[] };
}

// The demo defaults to the bundled model; the hash embedder keeps this test fast and offline.
describe('engram demo', () => {
  it('writes two users, recalls for each and never leaks li-ming into alice', async () => {
    const r = await h.cli(['demo', '--embedder', 'hash', '--db', h.db, '--json']);
    expect(r.code).toBe(0);
    const report = r.json<DemoJson>();
    expect(report.written).toEqual([
      { userId: 'li-ming', count: 6, reused: false },
      { userId: 'alice', count: 5, reused: false },
    ]);
    expect(report.queries.map((q) => q.query)).toContain('any pet food ideas?');
    for (const q of report.queries) expect(q.results.every((x) => x.memory.userId === q.userId)).toBe(true);
    expect(report.isolation.leaked).toBe(0);
    expect(report.isolation.results).toBeGreaterThan(0);

    const again = await h.cli(['demo', '--embedder', 'hash', '--db', h.db, '--json']);
    expect(again.json<DemoJson>().written.every((w) => w.reused)).toBe(true);
  });

  it('prints readable sections', async () => {
    const r = await h.cli(['demo', '--embedder', 'hash', '--db', h.db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Engram demo\n═+/);
    expect(r.stdout).toContain('li-ming (中文): 6 memories');
    expect(r.stdout).toContain('1. li-ming asks: 周五去东京有什么推荐？');
    expect(r.stdout).toContain('alice asks: 我周末去爬山带什么？');
    expect(r.stdout).toMatch(/0 belonged to li-ming ✓/);
  });
});
