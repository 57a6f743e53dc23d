import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Memory } from '../domain/memory.js';
import type { ScoreParts } from '../recall/rank.js';
import { cliHarness } from './test-cli.js';

type SearchJson = { query: string; recipe: string; results: { rank: number; score: ScoreParts; memory: Memory }[] };

let h: ReturnType<typeof cliHarness>;
beforeEach(async () => {
  h = cliHarness();
  for (const [kind, content] of [
    ['preference', '用户喜欢猫，养了一只叫小白的猫'],
    ['preference', '用户不吃香菜'],
    ['plan', '用户决定缓存用 Redis'],
  ]) {
    expect((await h.cli(['--user', 'li-ming', 'add', content!, '--kind', kind!])).code).toBe(0);
  }
  expect((await h.cli(['--user', 'alice', 'add', 'The user loves hiking in the Alps', '--kind', 'preference'])).code).toBe(0);
  expect((await h.cli(['--user', 'alice', 'add', 'The user is allergic to peanuts'])).code).toBe(0);
});
afterEach(() => h.cleanup());

describe('engram search', () => {
  it('ranks a Chinese query and shows rank, score parts, kind, content and id', async () => {
    const r = await h.cli(['--user', 'li-ming', 'search', '小白', '是', '什么', '猫']);
    expect(r.code).toBe(0);
    const [header, first] = r.stdout.split('\n');
    expect(header).toMatch(/#\s+final\s+rel\s+vec\s+kw\s+rec\s+imp\s+kind\s+content\s+id/);
    expect(first).toMatch(/^1\s+\d\.\d{3}\s+\d\.\d{3}/);
    expect(first).toContain('用户喜欢猫');
    expect(first).toMatch(/preference/);
  });

  it('prints the score parts as JSON and never crosses users', async () => {
    const r = await h.cli(['--user', 'alice', '--json', 'search', 'hiking', 'trip']);
    expect(r.code).toBe(0);
    const data = r.json<SearchJson>();
    expect(data.query).toBe('hiking trip');
    expect(data.recipe).toBe('hybrid');
    expect(data.results[0]!.rank).toBe(1);
    expect(data.results[0]!.memory.content).toBe('The user loves hiking in the Alps');
    expect(Object.keys(data.results[0]!.score).sort()).toEqual(['coverage', 'final', 'importance', 'keyword', 'recency', 'relevance', 'vector']);
    expect(data.results.every((x) => x.memory.userId === 'alice')).toBe(true);
  });

  it('filters by kind (repeatable) and uses the keyword recipe', async () => {
    const plans = (await h.cli(['--user', 'li-ming', '--json', 'search', '用户', '--kind', 'plan'])).json<SearchJson>();
    expect(plans.results.map((x) => x.memory.kind)).toEqual(['plan']);
    const both = (await h.cli(['--user', 'li-ming', '--json', 'search', '用户', '--kind', 'plan', '--kind', 'preference'])).json<SearchJson>();
    expect(both.results).toHaveLength(3);
    const kw = (await h.cli(['--user', 'li-ming', '--json', 'search', '香菜', '--recipe', 'keyword'])).json<SearchJson>();
    expect(kw.recipe).toBe('keyword');
    expect(kw.results.map((x) => x.memory.content)).toEqual(['用户不吃香菜']);
    expect(kw.results[0]!.score.vector).toBeUndefined();
  });

  it('says so when nothing matches, and limits results', async () => {
    expect((await h.cli(['--user', 'nobody', 'search', 'cats'])).stdout).toBe('No memories match "cats".\n');
    const one = (await h.cli(['--user', 'li-ming', '--json', 'search', '用户', '--limit', '1'])).json<SearchJson>();
    expect(one.results).toHaveLength(1);
  });

  it('rejects an unknown recipe or a bad limit with exit code 2', async () => {
    const r = await h.cli(['search', 'x', '--recipe', 'magic']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error \[INVALID_INPUT\]: --recipe: unknown recipe "magic"; expected one of hybrid, messages, keyword, vector/);
    expect((await h.cli(['search', 'x', '--limit', '0'])).code).toBe(2);
  });
});
