import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scriptedModel } from '../testing/scripted-model.js';
import { openEngine, resolveEngineSettings } from './config.js';
import { runDemo, type DemoReport } from './demo.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

/** The report as JSON: dates are strings. */
type Json = Omit<DemoReport, 'remembered'> & {
  remembered: { userId: string; memories: { kind: string; content: string }[]; todos: { content: string; dueAt?: string }[] }[];
};

const demo = async (extra: string[] = []) => h.cli(['demo', '--embedder', 'hash', '--db', h.db, ...extra]);
const stepsOf = (r: Json, userId: string) => r.steps.filter((s) => s.userId === userId);
const memoriesOf = (r: Json, userId: string) => r.remembered.find((u) => u.userId === userId)!;

// The demo defaults to the bundled model; the hash embedder keeps these tests fast and offline.
describe('engram demo', () => {
  it('remembers through appendMessages + extract: small talk skipped, correction, repeat and todo', async () => {
    const r = await demo(['--json']);
    expect(r.code).toBe(0);
    const report = r.json<Json>();
    expect(report.extractor).toBe('heuristic');
    const [smallTalk, intro, question, decision, correction, repeat, todo] = stepsOf(report, 'li-ming');

    expect(smallTalk!.report).toMatchObject({ status: 'skipped', extractor: 'small-talk', added: 0 });
    expect(smallTalk!.modelCalls).toBe(0);
    expect(intro!.report.added).toBeGreaterThanOrEqual(5);
    expect(intro!.changes.map((c) => c.content)).toEqual(expect.arrayContaining(['用户叫李明', '用户住在北京', '用户喜欢猫']));
    // The question alone says nothing about the user; the decision after it is mined on its own.
    expect(question!.report).toMatchObject({ status: 'skipped', added: 0 });
    expect(decision!.report).toMatchObject({ added: 1, messages: 1 });
    expect(decision!.changes[0]).toMatchObject({ op: 'add', content: '用户决定用 Redis' });

    const home = intro!.changes.find((c) => c.content === '用户住在北京')!;
    expect(correction!.report).toMatchObject({ updated: 1, added: 0 });
    expect(correction!.changes).toEqual([expect.objectContaining({ op: 'update', id: home.id, before: '用户住在北京', content: '用户住在上海' })]);
    expect(repeat!.report).toMatchObject({ reinforced: 1, added: 0 });
    expect(repeat!.changes).toEqual([expect.objectContaining({ op: 'reinforce', content: '用户喜欢猫' })]);
    expect(todo!.report.added).toBe(1);

    const li = memoriesOf(report, 'li-ming');
    expect(li.memories.map((m) => m.content)).toContain('用户住在上海');
    expect(li.memories.map((m) => m.content)).not.toContain('用户住在北京');
    expect(li.memories.filter((m) => m.content === '用户喜欢猫')).toHaveLength(1);
    expect(li.todos).toEqual([expect.objectContaining({ content: '开会', dueAt: expect.any(String) })]);
    // 明天下午三点 in Asia/Shanghai is 07:00 UTC.
    expect(li.todos[0]!.dueAt).toMatch(/T07:00:00\.000Z$/);

    expect(report.stats.extraction).toMatchObject({ modelCalls: 0, smallTalkSkipped: 2, batches: 11 });
  });

  it("remembers alice in English, with her move to Munich as an update, and never leaks li-ming", async () => {
    const report = (await demo(['--json'])).json<Json>();
    const alice = memoriesOf(report, 'alice');
    expect(alice.memories.map((m) => m.content)).toEqual(
      expect.arrayContaining(["The user's name is Alice", 'The user is allergic to peanuts', 'The user loves hiking in the Alps', 'The user lives in Munich']),
    );
    expect(alice.memories.every((m) => /^[\x20-\x7e]+$/.test(m.content))).toBe(true);
    expect(alice.todos).toEqual([expect.objectContaining({ content: 'call mom', dueAt: expect.any(String) })]);
    const steps = stepsOf(report, 'alice');
    expect(steps[0]!.report).toMatchObject({ status: 'skipped', extractor: 'small-talk' });
    expect(steps.at(-1)!.changes).toEqual([expect.objectContaining({ op: 'update', before: 'The user lives in Berlin', content: 'The user lives in Munich' })]);

    expect(report.queries.map((q) => q.query)).toEqual(['周五去东京有什么推荐？', '推荐一些宠物用品', 'any pet food ideas?', '缓存选 Redis 还是 Memcached，之前怎么说的？', 'Can you suggest a snack for my trip?', '我周末去爬山带什么？']);
    // The assistant's advice was never a memory: the block quotes it as an excerpt of the conversation.
    const cache = report.queries.find((q) => q.query.startsWith('缓存'))!;
    expect(cache.context.included.filter((i) => i.type === 'excerpt')).not.toEqual([]);
    expect(cache.context.text).toContain('助手: "看场景：需要持久化和丰富的数据结构选 Redis，纯缓存选 Memcached。"');
    for (const q of report.queries) expect(q.results.every((x) => x.memory.userId === q.userId)).toBe(true);
    expect(report.isolation.leaked).toBe(0);
    expect(report.isolation.results).toBeGreaterThan(0);
  });

  it('appends and extracts nothing new when run again on the same database', async () => {
    const first = (await demo(['--json'])).json<Json>();
    const again = (await demo(['--json'])).json<Json>();
    expect(again.steps.every((s) => s.appended === 0 && s.report.status === 'nothing' && s.changes.length === 0)).toBe(true);
    for (const userId of ['li-ming', 'alice']) expect(memoriesOf(again, userId).memories).toHaveLength(memoriesOf(first, userId).memories.length);
    expect(again.stats.extraction.batches).toBe(0);
  });

  it('prints readable sections', async () => {
    const r = await demo();
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Engram demo\n═+/);
    expect(r.stdout).toContain('extractor  heuristic');
    expect(r.stdout).toContain('the silence scheduler');
    expect(r.stdout).toContain('li-ming (中文) talks');
    expect(r.stdout).toMatch(/→ small-talk: skipped · no model call/);
    expect(r.stdout).toContain('~ identity   用户住在北京 → 用户住在上海');
    expect(r.stdout).toContain('^ preference 用户喜欢猫');
    expect(r.stdout).toContain('alice (English) talks');
    expect(r.stdout).toMatch(/li-ming: 1 todo \(due times in Asia\/Shanghai\)\n.*\n\s+\d{4}-\d\d-\d\d 15:00\s+开会/);
    expect(r.stdout).toContain('1. li-ming asks: 周五去东京有什么推荐？');
    expect(r.stdout).toContain('alice asks: 我周末去爬山带什么？');
    expect(r.stdout).toMatch(/0 belonged to li-ming ✓/);
    expect(r.stdout).toMatch(/batches 11 · model calls 0 · heuristic runs 9 · small talk skipped 2/);
  });

  it('sends every batch but small talk to the configured LLM, once each', async () => {
    const model = scriptedModel(() => ({ operations: [{ op: 'skip', reason: 'scripted' }], reason: 'nothing new (scripted)' }), { id: 'scripted:demo' });
    const engine = openEngine({ settings: resolveEngineSettings({ db: ':memory:', embedder: 'hash', env: {} }), model });
    try {
      const report = await runDemo(engine, { db: ':memory:', extractor: model.id });
      for (const step of report.steps) {
        if (step.report.extractor === 'small-talk') expect(step.modelCalls).toBe(0);
        else expect(step).toMatchObject({ modelCalls: 1, report: { extractor: expect.stringMatching(/^extract-memories@/), reason: 'nothing new (scripted)' } });
      }
      expect(report.stats.extraction).toMatchObject({ modelCalls: 9, smallTalkSkipped: 2, heuristicRuns: 0 });
      expect(report.stats.usage?.total.calls).toBe(9);
      expect(model.calls).toHaveLength(9);
    } finally {
      await engine.close();
    }
  });
});
